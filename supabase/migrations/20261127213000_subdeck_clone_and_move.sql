-- Subdecks travel with their notes' note types. Cloning a deck copies the
-- subdecks below it the caller can see, as a tree, and copies into the new
-- top deck any note type its notes use from a deck above it. Moving a deck
-- (or handing it over, which takes it out of its tree) copies into it the
-- note types its notes and its subdecks' notes can no longer reach, and
-- points those notes at the copies. move_notes finds or makes its copies
-- with the same function.

-- The note type of deck p_deck_id that stands in for note type p_type_id
-- (of another deck) for notes that can no longer use it: one of p_deck_id's
-- defined alike and named the same (or as an earlier copy, "Name (2)"), else
-- a new copy named "Name (2)" (or the next number free).
create function private.note_type_copy(p_type_id uuid, p_deck_id uuid) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  source_type public.note_types;
  target_type_id uuid;
  copy_name text;
  copy_number integer := 1;
begin
  select * into source_type from public.note_types where id = p_type_id;
  select id into target_type_id from public.note_types
  where deck_id = p_deck_id and kind = source_type.kind and fields = source_type.fields
    and templates = source_type.templates and css = source_type.css
    and (name = source_type.name or (left(name, char_length(source_type.name)) = source_type.name
      and substr(name, char_length(source_type.name) + 1) ~ '^ \([0-9]+\)$'))
  order by name = source_type.name desc, name
  limit 1;
  if target_type_id is null then
    copy_name := source_type.name;
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
  return target_type_id;
end
$$;

revoke execute on function private.note_type_copy(uuid, uuid) from public, anon, authenticated, service_role;

-- Copies a deck the caller can see (their own, shared with them, or public)
-- into a new private deck they own, with the subdecks below it the caller can
-- see, as a tree of the same shape: the notes and so the cards, but nobody's
-- schedule. A subdeck the caller cannot see is left out with everything
-- below it. Each copy keeps its deck's limits and leech settings, its note
-- types, each note's origin (so importing the same file into the copy
-- matches them), and where it came from (cloned_from, which counts it). A
-- note type that notes of the copied decks use from a deck above the one
-- copied is copied into the new top deck, as move_notes would. Returns the
-- new top deck's id.
create or replace function public.clone_deck(p_deck_id uuid, p_name text default null) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  source public.decks;
  copied_id uuid;
  deck_map jsonb := '{}';
  source_ids uuid[];
  type_map jsonb;
  outside_type uuid;
begin
  select * into source from public.decks where id = p_deck_id;
  if source.id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  -- Parents before their subdecks, so each copy goes under its parent's copy.
  for source in
    with recursive tree (id, depth) as (
      select p_deck_id, 1
      union all
      select d.id, tree.depth + 1 from public.decks d join tree on d.parent_id = tree.id
      where tree.depth < 10 and private.can_read_deck(d.id)
    )
    select d.* from tree join public.decks d on d.id = tree.id order by tree.depth, d.created_at, d.id
  loop
    -- The cover stays behind: it lives in the source deck's media folder.
    insert into public.decks (
      owner_id, name, description, new_per_day, reviews_per_day, leech_threshold, leech_action, cloned_from,
      parent_id
    )
    values (
      uid,
      case when source.id = p_deck_id then coalesce(p_name, left(source.name, 113) || ' (copy)') else source.name end,
      source.description, source.new_per_day, source.reviews_per_day, source.leech_threshold, source.leech_action,
      source.id, (deck_map ->> source.parent_id::text)::uuid
    )
    returning id into copied_id;
    deck_map := deck_map || jsonb_build_object(source.id::text, copied_id);
  end loop;
  source_ids := array(select k::uuid from jsonb_object_keys(deck_map) as k);
  -- Each copy has its own note types (names are unique per deck), and its custom notes use them.
  insert into public.note_types (deck_id, name, kind, fields, templates, css, source_id, created_at)
  select (deck_map ->> t.deck_id::text)::uuid, t.name, t.kind, t.fields, t.templates, t.css, t.source_id, t.created_at
  from public.note_types t where t.deck_id = any (source_ids);
  select coalesce(jsonb_object_agg(t.id, c.id), '{}') into type_map
  from public.note_types t
  join public.note_types c on c.deck_id = (deck_map ->> t.deck_id::text)::uuid and c.name = t.name
  where t.deck_id = any (source_ids);
  for outside_type in
    select distinct n.note_type_id from public.notes n
    where n.deck_id = any (source_ids) and n.note_type_id is not null and not (type_map ? n.note_type_id::text)
  loop
    type_map := type_map || jsonb_build_object(
      outside_type::text, private.note_type_copy(outside_type, (deck_map ->> p_deck_id::text)::uuid));
  end loop;
  insert into public.notes (deck_id, kind, fields, tags, created_by, created_at, source_guid, note_type_id)
  select (deck_map ->> n.deck_id::text)::uuid, n.kind, n.fields, n.tags, uid, n.created_at, n.source_guid,
    (type_map ->> n.note_type_id::text)::uuid
  from public.notes n
  where n.deck_id = any (source_ids)
  order by n.created_at, n.id;
  return (deck_map ->> p_deck_id::text)::uuid;
end
$$;

-- Moves notes (with their cards and everyone's schedules) to another deck.
-- The caller must be able to edit both the notes' decks and the target.
-- A custom note whose note type the target cannot use takes a copy of it
-- there (private.note_type_copy).
create or replace function public.move_notes(p_note_ids uuid[], p_deck_id uuid, p_versions integer[] default null)
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  moved integer;
  moving_type uuid;
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
  for moving_type in
    select distinct t.id from public.note_types t
    join public.notes n on n.note_type_id = t.id
    where n.id = any (p_note_ids) and n.deck_id <> p_deck_id and not private.note_type_usable(t.id, p_deck_id)
  loop
    type_map := type_map || jsonb_build_object(moving_type::text, private.note_type_copy(moving_type, p_deck_id));
  end loop;
  update public.notes
  set deck_id = p_deck_id, updated_at = now(),
    note_type_id = coalesce((type_map ->> note_type_id::text)::uuid, note_type_id)
  where id = any (p_note_ids) and deck_id <> p_deck_id;
  get diagnostics moved = row_count;
  return moved;
end
$$;

-- A deck moved in the tree (set_deck_parent, or handed to another owner,
-- which takes it out of its tree) keeps its notes and their cards: a note of
-- it or of its subdecks whose note type belongs to a deck it is no longer
-- under uses a copy of that type in the moved deck (private.note_type_copy),
-- in the statement that moves it.
create function private.keep_note_types_of_moved_deck() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  lost_type uuid;
  type_map jsonb := '{}';
  subtree_ids uuid[];
begin
  with recursive down (id, depth) as (
    select new.id, 1
    union all
    select d.id, down.depth + 1 from public.decks d join down on d.parent_id = down.id where down.depth < 10
  )
  select array_agg(id) into subtree_ids from down;
  for lost_type in
    with recursive up (id, depth) as (
      select new.parent_id, 1 where new.parent_id is not null
      union all
      select d.parent_id, up.depth + 1 from public.decks d join up on d.id = up.id
      where d.parent_id is not null and up.depth < 10
    )
    select distinct t.id from public.notes n
    join public.note_types t on t.id = n.note_type_id
    where n.deck_id = any (subtree_ids) and t.deck_id <> all (subtree_ids)
      and t.deck_id not in (select up.id from up)
  loop
    type_map := type_map || jsonb_build_object(lost_type::text, private.note_type_copy(lost_type, new.id));
  end loop;
  if type_map <> '{}' then
    update public.notes n set note_type_id = (type_map ->> n.note_type_id::text)::uuid
    where n.deck_id = any (subtree_ids) and type_map ? n.note_type_id::text;
  end if;
  return null;
end
$$;

revoke execute on function private.keep_note_types_of_moved_deck() from public, anon, authenticated, service_role;

create trigger decks_keep_note_types after update of parent_id, owner_id on public.decks
  for each row when (old.parent_id is distinct from new.parent_id)
  execute function private.keep_note_types_of_moved_deck();
