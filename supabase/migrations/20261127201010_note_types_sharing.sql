-- A deck's copy takes its note types along, a custom note moved to another
-- deck takes a copy of its note type there, and note types are announced on
-- their deck's topic as notes are.

create or replace function public.clone_deck(p_deck_id uuid, p_name text default null) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  source public.decks;
  new_id uuid;
begin
  select * into source from public.decks where id = p_deck_id;
  if source.id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  -- The cover stays behind: it lives in the source deck's media folder.
  insert into public.decks (
    owner_id, name, description, new_per_day, reviews_per_day, leech_threshold, leech_action, cloned_from
  )
  values (
    uid,
    coalesce(p_name, left(source.name, 113) || ' (copy)'),
    source.description, source.new_per_day, source.reviews_per_day, source.leech_threshold, source.leech_action,
    source.id
  )
  returning id into new_id;
  -- The copy has its own note types, and its custom notes use them (matched by name, unique per deck).
  insert into public.note_types (deck_id, name, kind, fields, templates, css, source_id, created_at)
  select new_id, t.name, t.kind, t.fields, t.templates, t.css, t.source_id, t.created_at
  from public.note_types t where t.deck_id = p_deck_id;
  insert into public.notes (deck_id, kind, fields, tags, created_by, created_at, source_guid, note_type_id)
  select new_id, n.kind, n.fields, n.tags, uid, n.created_at, n.source_guid, copied.id
  from public.notes n
  left join public.note_types t on t.id = n.note_type_id
  left join public.note_types copied on copied.deck_id = new_id and copied.name = t.name
  where n.deck_id = p_deck_id
  order by n.created_at, n.id;
  return new_id;
end
$$;


create or replace function public.move_notes(p_note_ids uuid[], p_deck_id uuid, p_versions integer[] default null)
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  moved integer;
  source_type public.note_types;
  target_type_id uuid;
  copy_name text;
  copy_number integer;
  type_map jsonb := '{}';
begin
  perform private.require_user();
  if not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif not private.can_edit_deck(p_deck_id) then
    perform private.fail('42501', 'you cannot add notes to this deck');
  end if;
  -- Checks, locks and, with `p_versions`, refuses notes changed since they were loaded (PT412).
  perform private.lock_notes_for_bulk(p_note_ids, p_versions, 'move');
  for source_type in
    select distinct t.* from public.note_types t
    join public.notes n on n.note_type_id = t.id
    where n.id = any (p_note_ids) and n.deck_id <> p_deck_id and not private.note_type_usable(t.id, p_deck_id)
  loop
    select id into target_type_id from public.note_types
    where deck_id = p_deck_id and kind = source_type.kind and fields = source_type.fields
      and templates = source_type.templates and css = source_type.css
      and (name = source_type.name or (left(name, char_length(source_type.name)) = source_type.name
        and substr(name, char_length(source_type.name) + 1) ~ '^ \([0-9]+\)$'))
    order by name = source_type.name desc, name
    limit 1;
    if target_type_id is null then
      copy_name := source_type.name;
      copy_number := 1;
      while exists (select 1 from public.note_types where deck_id = p_deck_id and name = copy_name) loop
        copy_number := copy_number + 1;
        copy_name := left(source_type.name, 100 - char_length(format(' (%s)', copy_number)))
          || format(' (%s)', copy_number);
      end loop;
      insert into public.note_types (deck_id, name, kind, fields, templates, css, source_id)
      values (p_deck_id, copy_name, source_type.kind, source_type.fields, source_type.templates, source_type.css,
        source_type.source_id)
      returning id into target_type_id;
    end if;
    type_map := type_map || jsonb_build_object(source_type.id::text, target_type_id);
  end loop;
  update public.notes
  set deck_id = p_deck_id, updated_at = now(),
    note_type_id = coalesce((type_map ->> note_type_id::text)::uuid, note_type_id)
  where id = any (p_note_ids) and deck_id <> p_deck_id;
  get diagnostics moved = row_count;
  return moved;
end
$$;


create trigger note_types_announce_inserts after insert on public.note_types
  referencing new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');
create trigger note_types_announce_updates after update on public.note_types
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');
create trigger note_types_announce_deletes after delete on public.note_types
  referencing old table as old_rows
  for each statement execute function private.announce_changes('deck', 'deck_id', 'id', 'top-level', 'public.decks', 'deck_id');
