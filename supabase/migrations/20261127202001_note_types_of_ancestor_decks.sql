-- A note may use a note type of its own deck or of any ancestor deck (an
-- imported package's note types live in the deck it was imported into, its
-- notes in that deck's subdecks). PL/pgSQL: decks.parent_id comes later.
create or replace function private.note_type_usable(p_note_type_id uuid, p_deck_id uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    with recursive line (id, depth) as (
      select p_deck_id, 0
      union all
      select d.parent_id, line.depth + 1 from public.decks d join line on d.id = line.id
      where d.parent_id is not null and line.depth < 10
    )
    select 1 from public.note_types t join line on line.id = t.deck_id where t.id = p_note_type_id
  );
end
$$;
