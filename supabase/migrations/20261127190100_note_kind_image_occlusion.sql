-- Anki's image occlusion notes: an image, its masks grouped by number, one
-- card per group. In a file of its own, as a new enum value is usable only
-- once committed.
alter type public.note_kind add value if not exists 'image_occlusion';
