-- Personal notes are kept with a deleted note and come back when it is restored.

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
