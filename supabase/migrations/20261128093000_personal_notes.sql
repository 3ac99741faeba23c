-- Personal notes: each user's own tags and My notes on a note, announced on
-- their own topic and carried into their copy of a deck.

-- Each user's own layer on a note (docs/product.md §3): their tags and "My
-- notes", seen and changed by them alone and apart from the note, so nobody's
-- edit of the note touches it. "My notes" is plain text (a mnemonic, a page
-- reference): it is shown as text, never as HTML, so it needs no sanitising.
create table public.personal_notes (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  note_id uuid not null references public.notes (id) on delete cascade,
  -- The note's deck, never written by clients: set from the note on every
  -- write and moved with it, so RLS and a deck's list read one column.
  deck_id uuid not null references public.decks (id) on delete cascade,
  tags text[] not null default '{}',
  text text not null default '',
  updated_at timestamptz not null default now(),
  primary key (user_id, note_id),
  constraint personal_notes_tags_count check (cardinality(tags) <= 50),
  constraint personal_notes_tags_format check (private.tags_valid(tags)),
  constraint personal_notes_text_length check (char_length(text) <= 20000)
);
alter table public.personal_notes enable row level security;
create index personal_notes_note_id_idx on public.personal_notes (note_id);
create index personal_notes_user_id_deck_id_idx on public.personal_notes (user_id, deck_id);

-- Takes the note's deck (PT404 when there is no such note) and stamps a
-- change of tags or text.
create function private.prepare_personal_note() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  select n.deck_id into new.deck_id from public.notes n where n.id = new.note_id;
  if new.deck_id is null then
    perform private.fail('PT404', 'note not found', 'note_id');
  end if;
  if tg_op = 'INSERT' or new.tags is distinct from old.tags or new.text is distinct from old.text then
    new.updated_at := now();
  end if;
  return new;
end
$$;

revoke execute on function private.prepare_personal_note() from public, anon, authenticated, service_role;

create trigger personal_notes_prepare before insert or update on public.personal_notes
  for each row execute function private.prepare_personal_note();

-- Notes moved to another deck (move_notes) take everyone's personal layer
-- along, in one statement for all of them.
create function private.move_personal_notes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.personal_notes p set deck_id = n.deck_id
  from new_rows n join old_rows o on o.id = n.id
  where p.note_id = n.id and n.deck_id <> o.deck_id;
  return null;
end
$$;

revoke execute on function private.move_personal_notes() from public, anon, authenticated, service_role;

create trigger notes_move_personal_notes after update on public.notes
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.move_personal_notes();

-- A user reaches their rows only while they can read the note's deck: one who
-- leaves a shared deck keeps them (hidden) and finds them again on rejoining.
create policy "users read their own personal notes on decks they read" on public.personal_notes
  for select to authenticated
  using (user_id = (select auth.uid()) and deck_id in (select private.readable_deck_ids()));
create policy "users add their own personal notes on decks they read" on public.personal_notes
  for insert to authenticated
  with check (user_id = (select auth.uid()) and private.can_read_deck(deck_id));
create policy "users change their own personal notes on decks they read" on public.personal_notes
  for update to authenticated
  using (user_id = (select auth.uid()) and deck_id in (select private.readable_deck_ids()))
  with check (user_id = (select auth.uid()) and private.can_read_deck(deck_id));
create policy "users delete their own personal notes on decks they read" on public.personal_notes
  for delete to authenticated
  using (user_id = (select auth.uid()) and deck_id in (select private.readable_deck_ids()));
create policy "two-factor sessions only" on public.personal_notes as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.personal_notes from anon, authenticated, service_role;
grant select, insert, update, delete on public.personal_notes to service_role;
grant select, delete on public.personal_notes to authenticated;
grant insert (user_id, note_id, tags, text), update (tags, text) on public.personal_notes to authenticated;

-- Saves the caller's tags and My notes on a note they can read, replacing
-- what was there; with no tags and blank text it removes the row instead.
-- Returns the row saved, or none. Bad input is refused with 22023 naming
-- `tags` or `text`; a note the caller cannot read is PT404.
create function public.save_personal_note(p_note_id uuid, p_tags text[], p_text text)
returns setof public.personal_notes
language plpgsql
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  v_tags text[] := coalesce(p_tags, '{}');
  v_text text := coalesce(p_text, '');
begin
  if cardinality(v_tags) > 50 then
    perform private.fail('22023', 'a note can have at most 50 tags', 'tags');
  elsif coalesce(array_ndims(v_tags), 1) <> 1 or not private.tags_valid(v_tags) then
    perform private.fail('22023', 'each tag is 1 to 64 characters without spaces, and appears once', 'tags');
  elsif char_length(v_text) > 20000 then
    perform private.fail('22023', 'my notes can be at most 20000 characters', 'text');
  end if;
  -- Read through RLS: a note of a deck the caller cannot read does not exist for them.
  if not exists (select 1 from public.notes where id = p_note_id) then
    perform private.fail('PT404', 'note not found', 'note_id');
  end if;
  if private.trim_space(v_text) = '' then
    v_text := '';
  end if;
  if cardinality(v_tags) = 0 and v_text = '' then
    delete from public.personal_notes where user_id = uid and note_id = p_note_id;
    return;
  end if;
  return query
  insert into public.personal_notes as p (user_id, note_id, tags, text)
  values (uid, p_note_id, v_tags, v_text)
  on conflict (user_id, note_id) do update set tags = excluded.tags, text = excluded.text
  returning p.*;
end
$$;

revoke execute on function public.save_personal_note(uuid, text[], text) from public, anon;
grant execute on function public.save_personal_note(uuid, text[], text) to authenticated, service_role;

-- A user's personal layer on notes goes to their own devices only; ids are the notes'.
create trigger personal_notes_announce_inserts after insert on public.personal_notes
  referencing new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'note_id', 'top-level', 'public.notes', 'note_id');
create trigger personal_notes_announce_updates after update on public.personal_notes
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'note_id', 'top-level', 'public.notes', 'note_id');
create trigger personal_notes_announce_deletes after delete on public.personal_notes
  referencing old table as old_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'note_id', 'top-level', 'public.notes', 'note_id');

-- Copies a deck the caller can see (their own, shared with them, or public)
-- into a new private deck they own, with the subdecks below it the caller can
-- see, as a tree of the same shape: the notes and so the cards, but nobody's
-- schedule. A subdeck the caller cannot see is left out with everything
-- below it. Each copy keeps its deck's limits and leech settings, its note
-- types, each note's origin (so importing the same file into the copy
-- matches them), and where it came from (cloned_from, which counts it). A
-- note type that notes of the copied decks use from a deck above the one
-- copied is copied into the new top deck, as move_notes would. The caller's
-- own tags and My notes (personal_notes) come along on the copied notes.
-- Returns the new top deck's id.
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
  note_map jsonb;
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
  -- Each copied note's id is chosen first, so the caller's personal layer can follow it.
  select coalesce(jsonb_object_agg(n.id, gen_random_uuid()), '{}') into note_map
  from public.notes n where n.deck_id = any (source_ids);
  insert into public.notes (id, deck_id, kind, fields, tags, created_by, created_at, source_guid, note_type_id)
  select (note_map ->> n.id::text)::uuid, (deck_map ->> n.deck_id::text)::uuid, n.kind, n.fields, n.tags, uid,
    n.created_at, n.source_guid, (type_map ->> n.note_type_id::text)::uuid
  from public.notes n
  where n.deck_id = any (source_ids)
  order by n.created_at, n.id;
  insert into public.personal_notes (user_id, note_id, tags, text)
  select uid, (note_map ->> p.note_id::text)::uuid, p.tags, p.text
  from public.personal_notes p
  where p.user_id = uid and p.deck_id = any (source_ids);
  return (deck_map ->> p_deck_id::text)::uuid;
end
$$;
