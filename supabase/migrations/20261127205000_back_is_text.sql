-- A basic note's back may be empty but must be there as text: the check must
-- not yield null (which a check lets through) when the back is missing.
alter table public.notes
  drop constraint notes_back_required,
  add constraint notes_back_required check (kind in ('cloze', 'image_occlusion', 'custom') or coalesce(jsonb_typeof(fields -> 'back'), '') = 'string');
