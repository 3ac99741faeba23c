-- A note's history: one row per version of every note, as it was after that
-- version's change (its fields, tags, kind and note type, the deck it was in,
-- who made it). Written only by the statement triggers below, one
-- INSERT ... SELECT per statement on notes, so an import of 10,000 notes adds
-- its 10,000 rows in one statement.
--
-- Versions follow the note's own: `create` holds the version a note was added
-- at, each change that bumps the version adds `edit` (or `move` when only the
-- deck changed, `revert` when revert_note wrote it). A deleted note's last row
-- is `delete` at the version after its last, holding the note as it was when
-- deleted. Rows keep no link to the note, so they outlive it; they go with the
-- deck they name.
create table public.note_history (
  note_id uuid not null,
  deck_id uuid not null references public.decks (id) on delete cascade,
  version integer not null,
  action text not null constraint note_history_action_valid
    check (action in ('create', 'edit', 'move', 'delete', 'restore', 'revert')),
  kind public.note_kind not null,
  note_type_id uuid,
  fields jsonb not null,
  tags text[] not null default '{}',
  author_id uuid,
  co_author_id uuid,
  -- For a `revert`: the version whose content it brought back.
  reverted_from integer,
  created_at timestamptz not null default now(),
  primary key (note_id, version)
);
alter table public.note_history enable row level security;
-- A deck's changes in a period, newest first.
create index note_history_deck_id_created_at_idx on public.note_history (deck_id, created_at, note_id, version);

-- Readable with the deck it names: a member who leaves a private deck loses
-- its history with it.
create policy "readers of a deck read its notes' history" on public.note_history
  for select to anon, authenticated using (deck_id in (select private.readable_deck_ids()));
create policy "two-factor sessions only" on public.note_history as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.note_history from anon, authenticated, service_role;
grant select on public.note_history to anon, authenticated, service_role;

-- The revert under way in this transaction, as {"note": id, "version": n}
-- (set by revert_note, not reachable through the API), or null.
create function private.reverting_note() returns jsonb
language sql stable
set search_path = ''
as $$
  select nullif(current_setting('engram.reverting_note', true), '')::jsonb
$$;

revoke execute on function private.reverting_note() from public, anon, authenticated;

create function private.record_added_notes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.note_history
    (note_id, deck_id, version, action, kind, note_type_id, fields, tags, author_id, co_author_id)
  select n.id, n.deck_id, n.version, 'create', n.kind, n.note_type_id, n.fields, n.tags, n.updated_by, n.co_author_id
  from added_notes n;
  return null;
end
$$;

-- Only rows whose version changed: an update that makes no new version
-- (a deleted author set null, a note type's unchanged fields) records nothing.
create function private.record_changed_notes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  reverting jsonb := private.reverting_note();
begin
  insert into public.note_history
    (note_id, deck_id, version, action, kind, note_type_id, fields, tags, author_id, co_author_id, reverted_from)
  select n.id, n.deck_id, n.version,
    case
      when n.id = (reverting ->> 'note')::uuid then 'revert'
      when n.deck_id <> o.deck_id and (n.kind, n.fields, n.tags) = (o.kind, o.fields, o.tags) then 'move'
      else 'edit'
    end,
    n.kind, n.note_type_id, n.fields, n.tags, n.updated_by, n.co_author_id,
    case when n.id = (reverting ->> 'note')::uuid then (reverting ->> 'version')::int end
  from changed_notes n
  join old_notes o on o.id = n.id
  where n.version <> o.version;
  return null;
end
$$;

-- A deck's deletion takes its notes' history along, so notes deleted with
-- their deck are not recorded.
create function private.record_deleted_notes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.note_history
    (note_id, deck_id, version, action, kind, note_type_id, fields, tags, author_id)
  select o.id, o.deck_id, o.version + 1, 'delete', o.kind, o.note_type_id, o.fields, o.tags, auth.uid()
  from deleted_notes o
  where exists (select 1 from public.decks d where d.id = o.deck_id);
  return null;
end
$$;

revoke execute on function private.record_added_notes(), private.record_changed_notes(), private.record_deleted_notes()
  from public, anon, authenticated;

create trigger notes_record_inserts after insert on public.notes
  referencing new table as added_notes
  for each statement execute function private.record_added_notes();
create trigger notes_record_updates after update on public.notes
  referencing old table as old_notes new table as changed_notes
  for each statement execute function private.record_changed_notes();
create trigger notes_record_deletes after delete on public.notes
  referencing old table as deleted_notes
  for each statement execute function private.record_deleted_notes();
