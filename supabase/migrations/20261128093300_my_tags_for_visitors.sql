-- A signed-out visitor listing a public deck's notes gets no tags of their own
-- instead of an error: my_tags no longer reads personal_notes for them.

-- PL/pgSQL, so a signed-out visitor (anon, who may not read personal_notes)
-- gets none without the query on the table ever being planned.
create or replace function public.my_tags(p_note public.notes) returns text[]
language plpgsql stable
set search_path = ''
as $$
begin
  if auth.uid() is null then
    return '{}';
  end if;
  return coalesce(
    (select p.tags from public.personal_notes p where p.user_id = auth.uid() and p.note_id = p_note.id),
    '{}');
end
$$;
