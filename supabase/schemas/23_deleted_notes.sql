-- Recently deleted notes (docs/product.md §3): a deleted note is kept for 30
-- days with its cards, every member's schedule and the answers to its cards,
-- so an editor can bring it all back with restore_notes. Notes that go with
-- their deck are not kept: there is nothing left to restore them into.

-- One row per deleted note: the rows as they were, as JSON, readable by no
-- API role (the deck's members list them through deleted_notes()).
create table private.deleted_notes (
  note_id uuid primary key,
  deck_id uuid not null references public.decks (id) on delete cascade,
  note jsonb not null,
  cards jsonb not null,
  card_states jsonb not null,
  review_logs jsonb not null,
  deleted_by uuid references auth.users (id) on delete set null,
  deleted_at timestamptz not null default now()
);
alter table private.deleted_notes enable row level security;
revoke all on private.deleted_notes from public, anon, authenticated, service_role;
create index deleted_notes_deck_id_deleted_at_idx on private.deleted_notes (deck_id, deleted_at, note_id);
create index deleted_notes_deleted_at_idx on private.deleted_notes (deleted_at);
create index deleted_notes_deleted_by_idx on private.deleted_notes (deleted_by) where deleted_by is not null;

-- A row trigger before the delete, as the cards, schedules and answers go by
-- cascade once the note row is gone. During a deck's deletion its row is
-- already gone when the cascade reaches the notes, which is how those are
-- told apart. The schedules and answers are looked up by card id, which the
-- planner serves from their card_id indexes even before the tables have
-- statistics (a join there read every schedule once per note). Measured on
-- PostgreSQL 15 on a shared two-core machine, 500 notes of two cards with
-- three members and 300 answers: 0.4-1.5 s to delete, against 0.1-0.4 s
-- without keeping them, and 0.4-2.6 s to restore; PGlite takes 2-5 s each.
create function private.archive_deleted_note() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  card_ids uuid[];
begin
  if not exists (select 1 from public.decks d where d.id = old.deck_id) then
    return old;
  end if;
  card_ids := array(select c.id from public.cards c where c.note_id = old.id);
  insert into private.deleted_notes as d (note_id, deck_id, note, cards, card_states, review_logs, deleted_by)
  values (
    old.id,
    old.deck_id,
    to_jsonb(old) - 'search',
    coalesce((select jsonb_agg(to_jsonb(c) order by c.ordinal) from public.cards c where c.note_id = old.id), '[]'),
    coalesce((select jsonb_agg(to_jsonb(s)) from public.card_states s where s.card_id = any (card_ids)), '[]'),
    coalesce((select jsonb_agg(to_jsonb(l)) from public.review_logs l where l.card_id = any (card_ids)), '[]'),
    auth.uid()
  )
  on conflict (note_id) do update
    set deck_id = excluded.deck_id, note = excluded.note, cards = excluded.cards, card_states = excluded.card_states,
      review_logs = excluded.review_logs, deleted_by = excluded.deleted_by, deleted_at = excluded.deleted_at;
  return old;
end
$$;

-- Deletions older than 30 days go, in one indexed statement: run after every
-- statement that deletes notes and before every list or restore, so no
-- scheduled job is needed.
create function private.purge_deleted_notes() returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  delete from private.deleted_notes where deleted_at <= now() - interval '30 days';
end
$$;

create function private.purge_deleted_notes_after_delete() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.purge_deleted_notes();
  return null;
end
$$;

revoke execute on function private.archive_deleted_note(), private.purge_deleted_notes(),
  private.purge_deleted_notes_after_delete() from public, anon, authenticated, service_role;

create trigger notes_archive_deleted before delete on public.notes
  for each row execute function private.archive_deleted_note();
create trigger notes_purge_deleted after delete on public.notes
  for each statement execute function private.purge_deleted_notes_after_delete();

-- A deck's notes deleted in the last 30 days, newest first, for its members
-- (viewers included): each note's sort field, kind, number of cards, who
-- deleted it and when, and the whole days left before it goes for good.
create function public.deleted_notes(p_deck_id uuid)
returns table (
  note_id uuid,
  kind public.note_kind,
  note_type_id uuid,
  sort_field text,
  card_count integer,
  deleted_by uuid,
  deleted_by_name text,
  deleted_at timestamptz,
  days_left integer
)
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if p_deck_id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif private.deck_role(p_deck_id) is null then
    perform private.fail('42501', 'only members of a deck see its deleted notes');
  end if;
  perform private.purge_deleted_notes();
  return query
    select d.note_id, (d.note ->> 'kind')::public.note_kind, (d.note ->> 'note_type_id')::uuid,
      coalesce(d.note ->> 'sort_field', ''), jsonb_array_length(d.cards), d.deleted_by,
      p.display_name, d.deleted_at,
      greatest(0, ceil(extract(epoch from d.deleted_at + interval '30 days' - now()) / 86400))::integer
    from private.deleted_notes d
    left join public.profiles p on p.id = d.deleted_by
    where d.deck_id = p_deck_id
    order by d.deleted_at desc, d.note_id;
end
$$;

revoke execute on function public.deleted_notes(uuid) from public, anon;
grant execute on function public.deleted_notes(uuid) to authenticated, service_role;

-- Brings deleted notes back, all or nothing, for the owner and editors of
-- their deck: each note with its id, its cards with theirs, the schedules of
-- those still members of the deck (members who joined since get new cards,
-- as for any new card) and the answers of users who still exist. A restored
-- note's version is two past the one it was deleted at, as its history has
-- the deletion and the restore as versions of their own. A note already back
-- (a retry) is left as it is and not counted; an id that is neither is
-- PT404 note_ids, and a custom note whose note type was deleted since is
-- PT404 note_type_id. Returns how many notes came back.
create function public.restore_notes(p_note_ids uuid[])
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  restored integer;
begin
  if coalesce(cardinality(p_note_ids), 0) = 0 then
    perform private.fail('22023', 'choose at least one note', 'note_ids');
  elsif cardinality(p_note_ids) > 500 then
    perform private.fail('22023', 'choose at most 500 notes at once', 'note_ids');
  end if;
  perform private.purge_deleted_notes();
  -- Locked first: of two restores of one note, the second finds it back.
  perform 1 from private.deleted_notes d where d.note_id = any (p_note_ids) order by d.note_id for update;
  if exists (
    select 1 from unnest(p_note_ids) as wanted(id)
    left join private.deleted_notes d on d.note_id = wanted.id
    left join public.notes n on n.id = wanted.id
    where coalesce(d.deck_id, n.deck_id) is null or not private.can_read_deck(coalesce(d.deck_id, n.deck_id))
  ) then
    perform private.fail('PT404', 'note not found', 'note_ids');
  end if;
  if exists (
    select 1 from unnest(p_note_ids) as wanted(id)
    left join private.deleted_notes d on d.note_id = wanted.id
    left join public.notes n on n.id = wanted.id
    where not private.can_edit_deck(coalesce(d.deck_id, n.deck_id))
  ) then
    perform private.fail('42501', 'only the owner and editors of a deck can restore its notes');
  end if;
  if exists (
    select 1 from private.deleted_notes d
    where d.note_id = any (p_note_ids) and d.note ->> 'note_type_id' is not null
      and not exists (select 1 from public.note_types t where t.id = (d.note ->> 'note_type_id')::uuid)
  ) then
    perform private.fail('PT404', 'the note type of a deleted note no longer exists', 'note_type_id');
  end if;

  -- The cards come back with their own ids below, not made anew by the sync.
  perform set_config('engram.adding_cards_in_bulk', 'on', true);
  insert into public.notes
  select restored_note.*
  from private.deleted_notes d
  cross join lateral jsonb_populate_record(null::public.notes, d.note || jsonb_build_object(
    'version', (d.note ->> 'version')::integer + 2,
    'updated_by', uid,
    'co_author_id', null,
    -- A note imported again meanwhile holds its origin now.
    'source_guid', case when not exists (
      select 1 from public.notes o where o.deck_id = d.deck_id and o.source_guid = d.note ->> 'source_guid'
    ) then d.note -> 'source_guid' end
  )) as restored_note
  where d.note_id = any (p_note_ids)
  order by d.note_id;
  get diagnostics restored = row_count;
  perform set_config('engram.adding_cards_in_bulk', 'off', true);

  insert into public.cards
  select c.*
  from private.deleted_notes d
  cross join lateral jsonb_populate_recordset(null::public.cards, d.cards) as c
  where d.note_id = any (p_note_ids);

  -- The cards' insert gave every member a new schedule; members then get theirs back.
  insert into public.card_states as s
  select a.*
  from private.deleted_notes d
  cross join lateral jsonb_array_elements(d.card_states) as e(state)
  join public.cards c on c.id = (e.state ->> 'card_id')::uuid
  -- The card's note and ordinal as restored (a note deleted before schedules
  -- carried them has none in its copy).
  cross join lateral jsonb_populate_record(null::public.card_states,
    e.state || jsonb_build_object('note_id', c.note_id, 'ordinal', c.ordinal)) as a
  where d.note_id = any (p_note_ids)
    and exists (select 1 from public.deck_members m where m.deck_id = d.deck_id and m.user_id = a.user_id)
  on conflict (user_id, card_id) do update set
    deck_id = excluded.deck_id, state = excluded.state, due = excluded.due, stability = excluded.stability,
    difficulty = excluded.difficulty, elapsed_days = excluded.elapsed_days,
    scheduled_days = excluded.scheduled_days, learning_steps = excluded.learning_steps, reps = excluded.reps,
    lapses = excluded.lapses, last_review = excluded.last_review, suspended = excluded.suspended,
    buried_until = excluded.buried_until, flag = excluded.flag, version = excluded.version,
    updated_at = excluded.updated_at, leech_at = excluded.leech_at;

  insert into public.review_logs
  select l.*
  from private.deleted_notes d
  cross join lateral jsonb_populate_recordset(null::public.review_logs, d.review_logs) as l
  where d.note_id = any (p_note_ids)
    and exists (select 1 from auth.users u where u.id = l.user_id);

  -- The history's row for the note's return says so, by whom.
  update public.note_history h
  set action = 'restore', author_id = uid
  from private.deleted_notes d
  where d.note_id = any (p_note_ids)
    and h.note_id = d.note_id and h.version = (d.note ->> 'version')::integer + 2 and h.action = 'create';

  delete from private.deleted_notes d where d.note_id = any (p_note_ids);
  return restored;
end
$$;

revoke execute on function public.restore_notes(uuid[]) from public, anon;
grant execute on function public.restore_notes(uuid[]) to authenticated, service_role;
