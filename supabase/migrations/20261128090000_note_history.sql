-- Who made a note's current version (notes.updated_by, notes.co_author_id),
-- and a note's history: one row per version, written by statement triggers on
-- notes. Existing notes get one `create` row each, at their current version,
-- dated when the note was added and credited to whoever added it.

alter table public.notes
  add column updated_by uuid default auth.uid() references auth.users (id) on delete set null,
  add column co_author_id uuid references auth.users (id) on delete set null;

create or replace function private.prepare_note() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    if new.version is distinct from old.version then
      perform private.fail('PT412', 'this note was changed since it was loaded',
        jsonb_build_object('version', old.version)::text);
    end if;
    if (new.kind, new.fields, new.tags, new.deck_id) is distinct from (old.kind, old.fields, old.tags, old.deck_id) then
      new.version := old.version + 1;
      if auth.uid() is not null then
        new.updated_by := auth.uid();
      end if;
      if new.co_author_id is not distinct from old.co_author_id then
        new.co_author_id := null;
      end if;
    end if;
    new.updated_at := now();
    new.created_by := old.created_by;
  end if;
  new.search := to_tsvector('simple'::regconfig, concat_ws(' ',
    private.strip_markup(new.fields ->> 'front'),
    private.strip_markup(new.fields ->> 'back'),
    private.strip_markup(new.fields ->> 'text'),
    private.strip_markup(new.fields ->> 'extra'),
    case when new.kind = 'custom' then
      (select string_agg(private.strip_markup(v), ' ') from jsonb_each_text(new.fields) as f(k, v))
    end,
    array_to_string(new.tags, ' ')));
  new.sort_field := private.note_sort_field(new.kind, new.fields, new.note_type_id);
  return new;
end
$$;

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

-- One create row per existing note.
insert into public.note_history (note_id, deck_id, version, action, kind, note_type_id, fields, tags, author_id, created_at)
select n.id, n.deck_id, n.version, 'create', n.kind, n.note_type_id, n.fields, n.tags, n.created_by, n.created_at
from public.notes n;

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
