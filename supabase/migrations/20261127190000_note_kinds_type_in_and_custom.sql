-- Two more note kinds: Anki's "Basic (type in the answer)", and notes whose
-- fields and card templates come from a note type of their deck. Added in a
-- file of their own, since a new enum value is usable only once committed.
alter type public.note_kind add value if not exists 'type_in';
alter type public.note_kind add value if not exists 'custom';
