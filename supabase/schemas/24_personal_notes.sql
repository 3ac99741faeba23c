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

-- A deleted note kept for restoring (23_deleted_notes.sql) keeps everyone's
-- personal layer on it too, and restore_notes brings it back with the note.
-- Rows of a note deleted with its deck are not kept, as the note is not.
create table private.deleted_personal_notes (
  note_id uuid not null references private.deleted_notes (note_id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  tags text[] not null,
  text text not null,
  updated_at timestamptz not null,
  primary key (note_id, user_id)
);
alter table private.deleted_personal_notes enable row level security;
revoke all on private.deleted_personal_notes from public, anon, authenticated, service_role;
create index deleted_personal_notes_user_id_idx on private.deleted_personal_notes (user_id);

-- Runs after notes_archive_deleted (triggers of one event fire by name), so the note's archive row exists.
create function private.keep_deleted_personal_notes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into private.deleted_personal_notes (note_id, user_id, tags, text, updated_at)
  select p.note_id, p.user_id, p.tags, p.text, p.updated_at
  from public.personal_notes p
  where p.note_id = old.id and exists (select 1 from private.deleted_notes d where d.note_id = old.id)
  on conflict (note_id, user_id) do update
    set tags = excluded.tags, text = excluded.text, updated_at = excluded.updated_at;
  return old;
end
$$;

revoke execute on function private.keep_deleted_personal_notes() from public, anon, authenticated, service_role;

create trigger notes_keep_personal_notes before delete on public.notes
  for each row execute function private.keep_deleted_personal_notes();

-- A note inserted under a kept note's id is that note restored: its personal layer returns.
create function private.restore_personal_notes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.personal_notes (user_id, note_id, tags, text)
  select k.user_id, k.note_id, k.tags, k.text
  from private.deleted_personal_notes k join new_rows n on n.id = k.note_id
  on conflict (user_id, note_id) do nothing;
  delete from private.deleted_personal_notes k using new_rows n where k.note_id = n.id;
  return null;
end
$$;

revoke execute on function private.restore_personal_notes() from public, anon, authenticated, service_role;

create trigger notes_restore_personal_notes after insert on public.notes
  referencing new table as new_rows
  for each statement execute function private.restore_personal_notes();

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

-- Computed fields of a note (PostgREST's `notes?select=my_tags`): the caller's
-- own tags on it, and those together with the note's, which the note browser's
-- tag filter matches so a user finds notes by either (docs/product.md §3).
-- PL/pgSQL, so a signed-out visitor (anon, who may not read personal_notes)
-- gets none without the query on the table ever being planned.
create function public.my_tags(p_note public.notes) returns text[]
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

create function public.tags_with_mine(p_note public.notes) returns text[]
language sql stable
set search_path = ''
as $$
  select p_note.tags || public.my_tags(p_note)
$$;

revoke execute on function public.my_tags(public.notes), public.tags_with_mine(public.notes) from public;
grant execute on function public.my_tags(public.notes), public.tags_with_mine(public.notes)
  to anon, authenticated, service_role;
