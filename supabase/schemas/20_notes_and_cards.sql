-- Notes, the cards generated from them, and each member's schedule for them.

-- notes: readable with the deck, written by its owner and editors; the deck
-- and author of a note are fixed.
create table public.notes (
  id uuid primary key default gen_random_uuid(),
  deck_id uuid not null references public.decks (id) on delete cascade,
  kind public.note_kind not null,
  fields jsonb not null,
  tags text[] not null default '{}',
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  search tsvector,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Where a note came from (an Anki note's guid, a CSV key), so importing the
  -- same file again matches notes instead of duplicating them. Set only by
  -- finish_import (and copied by clone_deck); clients read it like any column.
  source_guid text constraint notes_source_guid_length check (char_length(source_guid) between 1 and 200),
  -- Bumped by every change of kind, fields, tags or deck. An update that sets
  -- it states the version it was made from and is refused (PT412) when the
  -- note has changed since, so a stale editor never overwrites another's edit.
  version integer not null default 1,
  constraint notes_fields_shape check (
    case kind
      when 'custom' then jsonb_typeof(fields) = 'object'
      when 'cloze' then jsonb_typeof(fields -> 'text') = 'string'
        and jsonb_typeof(coalesce(fields -> 'extra', '""')) = 'string'
        and fields - array['text', 'extra'] = '{}'::jsonb
      when 'image_occlusion' then jsonb_typeof(fields -> 'image') = 'string'
        and jsonb_typeof(fields -> 'occlusions') = 'string'
        and jsonb_typeof(coalesce(fields -> 'header', '""')) = 'string'
        and jsonb_typeof(coalesce(fields -> 'back_extra', '""')) = 'string'
        and jsonb_typeof(coalesce(fields -> 'comments', '""')) = 'string'
        and fields - array['image', 'occlusions', 'header', 'back_extra', 'comments'] = '{}'::jsonb
      else jsonb_typeof(fields -> 'front') = 'string'
        and jsonb_typeof(fields -> 'back') = 'string'
        and fields - array['front', 'back'] = '{}'::jsonb
    end
  ),
  constraint notes_front_required check (kind in ('cloze', 'image_occlusion', 'custom') or private.has_content(fields ->> 'front')),
  constraint notes_back_required check (kind in ('cloze', 'image_occlusion', 'custom') or private.has_content(fields ->> 'back')),
  constraint notes_cloze_required check (kind <> 'cloze' or cardinality(private.cloze_ordinals(fields ->> 'text')) > 0),
  constraint notes_field_length check (
    char_length(coalesce(fields ->> 'front', '')) <= 20000
    and char_length(coalesce(fields ->> 'back', '')) <= 20000
    and char_length(coalesce(fields ->> 'text', '')) <= 20000
    and char_length(coalesce(fields ->> 'extra', '')) <= 20000
    and char_length(coalesce(fields ->> 'image', '')) <= 20000
    and char_length(coalesce(fields ->> 'occlusions', '')) <= 20000
    and char_length(coalesce(fields ->> 'header', '')) <= 20000
    and char_length(coalesce(fields ->> 'back_extra', '')) <= 20000
    and char_length(coalesce(fields ->> 'comments', '')) <= 20000
  ),
  constraint notes_tags_count check (cardinality(tags) <= 50),
  constraint notes_tags_format check (private.tags_valid(tags)),
  -- A cloze note holds at most 500 distinct numbers nested at most 50 deep
  -- (limits.clozeNumbersPerNote and limits.clozeNestingDepth in @engram/core),
  -- so no single note can make thousands of cards and schedules at once.
  constraint notes_cloze_numbers_limit
    check (kind <> 'cloze' or cardinality(private.cloze_ordinals(fields ->> 'text')) <= 500),
  constraint notes_cloze_nesting_limit
    check (kind <> 'cloze' or private.cloze_nesting(fields ->> 'text') <= 50),
  -- An image occlusion note shows an image and has 1 to 500 groups (its cards).
  constraint notes_occlusion_image_required
    check (kind <> 'image_occlusion' or coalesce(fields ->> 'image', '') ~* '<img\M'),
  constraint notes_occlusion_groups
    check (kind <> 'image_occlusion' or cardinality(private.occlusion_ordinals(fields ->> 'occlusions')) between 1 and 500)
);
alter table public.notes enable row level security;
create index notes_deck_id_created_at_idx on public.notes (deck_id, created_at, id);
create index notes_search_idx on public.notes using gin (search);
create index notes_tags_idx on public.notes using gin (tags);
create unique index notes_deck_id_source_guid_key on public.notes (deck_id, source_guid) where source_guid is not null;

-- Keeps updated_at, the version and the search vector (fields without
-- markup, plus tags). The version check runs on the row as it is when the
-- update takes its lock, so of two concurrent saves from one version the
-- second is refused.
create function private.prepare_note() returns trigger
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
    end if;
    new.updated_at := now();
    new.created_by := old.created_by;
  end if;
  new.search := to_tsvector('simple'::regconfig, concat_ws(' ',
    private.strip_markup(new.fields ->> 'front'),
    private.strip_markup(new.fields ->> 'back'),
    private.strip_markup(new.fields ->> 'text'),
    private.strip_markup(new.fields ->> 'extra'),
    array_to_string(new.tags, ' ')));
  return new;
end
$$;

create trigger notes_prepare before insert or update on public.notes
  for each row execute function private.prepare_note();

-- A note moved into a deck that already has a note from the same source
-- leaves its origin behind: two notes of one deck never share it.
create function private.release_moved_source_guid() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if exists (
    select 1 from public.notes
    where deck_id = new.deck_id and source_guid = new.source_guid and id <> new.id
  ) then
    new.source_guid := null;
  end if;
  return new;
end
$$;

revoke execute on function private.release_moved_source_guid() from anon;

create trigger notes_release_source_guid before update of deck_id on public.notes
  for each row when (new.deck_id is distinct from old.deck_id and new.source_guid is not null)
  execute function private.release_moved_source_guid();

create table public.cards (
  id uuid primary key default gen_random_uuid(),
  note_id uuid not null references public.notes (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  ordinal integer not null constraint cards_ordinal_positive check (ordinal >= 1),
  created_at timestamptz not null default now(),
  unique (note_id, ordinal)
);
alter table public.cards enable row level security;
create index cards_deck_id_idx on public.cards (deck_id);

-- Cards follow their note: one per ordinal the note produces; surviving cards
-- (and so their schedules) are kept, vanished ones deleted, new ones added.
-- finish_import adds the cards of the notes it inserts in one statement of
-- its own; the setting it raises for that insert is not reachable through
-- the API.
create function private.sync_note_cards() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  wanted int[];
begin
  if tg_op = 'INSERT' and current_setting('engram.adding_cards_in_bulk', true) = 'on' then
    return null;
  end if;
  wanted := private.note_ordinals(new.kind, new.fields);
  if tg_op = 'UPDATE' then
    delete from public.cards where note_id = new.id and ordinal <> all (wanted);
    if new.deck_id is distinct from old.deck_id then
      update public.cards set deck_id = new.deck_id where note_id = new.id;
    end if;
  end if;
  insert into public.cards (note_id, deck_id, ordinal, created_at)
  select new.id, new.deck_id, o, new.created_at
  from unnest(wanted) as o
  on conflict (note_id, ordinal) do nothing;
  return null;
end
$$;

create trigger notes_sync_cards after insert or update of kind, fields, deck_id on public.notes
  for each row execute function private.sync_note_cards();

-- The schedule of one card for one user. Every member of a deck has a row for
-- each of its cards (state 'new' until first studied), so the study queue is
-- an index range scan instead of an anti-join over the whole deck.
--
-- Schedules hold only values FSRS can produce: finite stability up to
-- ts-fsrs's 36,500 (S_MAX), difficulty 0-10, intervals up to the maximum of
-- 36,500 days, and a due date at most that far from the review (876,000
-- hours: exact, where "36500 days" would move with daylight saving). NaN
-- breaks "between" because Postgres sorts it above every number.
create table public.card_states (
  user_id uuid not null references auth.users (id) on delete cascade,
  card_id uuid not null references public.cards (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  state public.card_state not null default 'new',
  due timestamptz not null default now(),
  stability double precision not null default 0 constraint card_states_stability_range check (stability between 0 and 36500),
  difficulty double precision not null default 0 constraint card_states_difficulty_range check (difficulty between 0 and 10),
  elapsed_days integer not null default 0 constraint card_states_elapsed_days_range check (elapsed_days >= 0),
  scheduled_days integer not null default 0 constraint card_states_scheduled_days_range check (scheduled_days between 0 and 36500),
  learning_steps integer not null default 0 constraint card_states_learning_steps_range check (learning_steps >= 0),
  reps integer not null default 0 constraint card_states_reps_range check (reps >= 0),
  lapses integer not null default 0 constraint card_states_lapses_range check (lapses >= 0),
  last_review timestamptz,
  suspended boolean not null default false,
  buried_until timestamptz,
  flag smallint not null default 0 constraint card_states_flag_range check (flag between 0 and 7),
  -- Bumped by every schedule change; record_review refuses an answer computed from an older version.
  version integer not null default 0,
  updated_at timestamptz not null default now(),
  -- When an answer last marked the card a leech (its reviewed_at), null for a
  -- card that is not one. Equal to last_review right after the answer that
  -- marked it, which is how record_review's caller tells that answer apart.
  leech_at timestamptz,
  primary key (user_id, card_id),
  constraint card_states_due_range check (
    isfinite(due)
    and (last_review is null or (isfinite(last_review) and due <= last_review + interval '876000 hours'))
  ),
  -- The range private.check_time allows the API's timestamp arguments.
  -- Checks run in name order: this one before card_states_due_range, whose
  -- sum would overflow on a last_review past the range.
  constraint card_states_dates_range check (
    due >= '1970-01-01 00:00:00+00' and due < '10000-01-01 00:00:00+00'
    and (last_review is null or (last_review >= '1970-01-01 00:00:00+00' and last_review < '10000-01-01 00:00:00+00'))
    and (buried_until is null or (buried_until >= '1970-01-01 00:00:00+00' and buried_until < '10000-01-01 00:00:00+00'))
    and (leech_at is null or (leech_at >= '1970-01-01 00:00:00+00' and leech_at < '10000-01-01 00:00:00+00'))
  )
);
alter table public.card_states enable row level security;
create index card_states_queue_idx on public.card_states (user_id, deck_id, state, due, card_id) where not suspended;
create index card_states_card_id_idx on public.card_states (card_id);
create index card_states_due_idx on public.card_states (user_id, due) where state <> 'new';
-- Suspended schedules by user and deck: with card_states_queue_idx (those not
-- suspended) the stats count a user's cards by state from indexes alone.
create index card_states_suspended_idx on public.card_states (user_id, deck_id) where suspended;

-- New cards get a 'new' schedule row for every member of their deck, in one
-- insert per statement rather than one per card: a note's cards arrive in one
-- statement (private.sync_note_cards), and a cloze note of 500 numbers in a
-- deck of many members would make 500 separate inserts. Moving a card to
-- another deck stays per row (private.add_card_states), since a trigger with
-- a column list cannot see transition tables.
create function private.add_new_cards_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.card_states (user_id, card_id, deck_id, due)
  select m.user_id, c.id, c.deck_id, c.created_at
  from added_cards c
  join public.deck_members m on m.deck_id = c.deck_id
  on conflict (user_id, card_id) do nothing;
  return null;
end
$$;

revoke execute on function private.add_new_cards_states() from anon;

create trigger cards_add_states after insert on public.cards
  referencing new table as added_cards
  for each statement execute function private.add_new_cards_states();

-- A card that moves deck takes its schedules along and gains 'new' rows for
-- the new deck's members.
create function private.add_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    update public.card_states set deck_id = new.deck_id where card_id = new.id;
  end if;
  insert into public.card_states (user_id, card_id, deck_id, due)
  select m.user_id, new.id, new.deck_id, new.created_at
  from public.deck_members m
  where m.deck_id = new.deck_id
  on conflict (user_id, card_id) do nothing;
  return null;
end
$$;

create trigger cards_move_states after update of deck_id on public.cards
  for each row execute function private.add_card_states();

-- A new member gets a 'new' schedule row for each card of the deck (kept if
-- they had studied it before, e.g. when rejoining).
create function private.add_member_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.card_states (user_id, card_id, deck_id, due)
  select new.user_id, c.id, c.deck_id, c.created_at
  from public.cards c
  where c.deck_id = new.deck_id
  on conflict (user_id, card_id) do update set deck_id = excluded.deck_id;
  return null;
end
$$;

create trigger deck_members_add_states after insert on public.deck_members
  for each row execute function private.add_member_card_states();

create policy "readers of a deck read its notes" on public.notes
  for select to anon, authenticated using (deck_id in (select private.readable_deck_ids()));
create policy "editors add notes" on public.notes
  for insert to authenticated
  with check (private.can_edit_deck(deck_id) and created_by = (select auth.uid()));
create policy "editors edit notes" on public.notes
  for update to authenticated using (private.can_edit_deck(deck_id)) with check (private.can_edit_deck(deck_id));
create policy "editors delete notes" on public.notes
  for delete to authenticated using (private.can_edit_deck(deck_id));
create policy "two-factor sessions only" on public.notes as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

-- Inserts name their columns, so source_guid stays out of clients' reach.
revoke all on public.notes from anon, authenticated, service_role;
grant select, insert, update, delete on public.notes to service_role;
grant select on public.notes to anon;
grant select, delete on public.notes to authenticated;
grant insert (id, deck_id, kind, fields, tags, created_by, search, created_at, updated_at),
  update (kind, fields, tags, version)
  on public.notes to authenticated;

-- cards: derived from notes, so only readable.
create policy "readers of a deck read its cards" on public.cards
  for select to anon, authenticated using (deck_id in (select private.readable_deck_ids()));
create policy "two-factor sessions only" on public.cards as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.cards from anon, authenticated, service_role;
grant select, insert, update, delete on public.cards to service_role;
grant select on public.cards to anon, authenticated;

-- card_states: private to their user; written through RPCs.
create policy "users read their own card states" on public.card_states
  for select to authenticated using (user_id = (select auth.uid()));
create policy "two-factor sessions only" on public.card_states as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.card_states from anon, authenticated, service_role;
grant select, insert, update, delete on public.card_states to service_role;
grant select on public.card_states to authenticated;

-- The checks every bulk note action starts with: each note exists and is
-- visible (PT404), its deck is one the caller edits (42501), and, when
-- versions are given (one per note, in the same order), no note changed since
-- the caller loaded it. The rows are locked first, so no edit slips in between
-- this check and the action; stale notes refuse the whole action with PT412,
-- the detail naming each with its current version: {"notes": [{id, version}]}.
create function private.lock_notes_for_bulk(p_note_ids uuid[], p_versions integer[], p_action text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  stale jsonb;
begin
  if coalesce(cardinality(p_note_ids), 0) = 0 then
    perform private.fail('22023', 'choose at least one note', 'note_ids');
  elsif cardinality(p_note_ids) > 500 then
    perform private.fail('22023', 'choose at most 500 notes at once', 'note_ids');
  elsif p_versions is not null and cardinality(p_versions) is distinct from cardinality(p_note_ids) then
    perform private.fail('22023', 'give one version for each note', 'versions');
  end if;
  if exists (
    select 1 from unnest(p_note_ids) as wanted(id)
    left join public.notes n on n.id = wanted.id
    where n.id is null or not private.can_read_deck(n.deck_id)
  ) then
    perform private.fail('PT404', 'note not found', 'note_ids');
  end if;
  if exists (select 1 from public.notes n where n.id = any (p_note_ids) and not private.can_edit_deck(n.deck_id)) then
    perform private.fail('42501', format('only the owner and editors of a deck can %s its notes', p_action));
  end if;
  perform 1 from public.notes n where n.id = any (p_note_ids) order by n.id for update;
  if p_versions is null then
    return;
  end if;
  select jsonb_agg(jsonb_build_object('id', n.id, 'version', n.version) order by n.id) into stale
  from unnest(p_note_ids, p_versions) as stated(id, version)
  join public.notes n on n.id = stated.id
  where n.version is distinct from stated.version;
  if stale is not null then
    perform private.fail('PT412', 'some of these notes were changed since they were loaded',
      jsonb_build_object('notes', stale)::text);
  end if;
end
$$;

revoke execute on function private.lock_notes_for_bulk(uuid[], integer[], text) from public;

-- Bulk tagging from the deck screen: add and remove tags on many notes in one
-- statement, so the change is all or nothing (a note that would break the tag
-- rules fails the whole call with the constraint's name). `p_versions` holds
-- each note's version as the caller loaded it; a note changed since refuses
-- the call (PT412).
create function public.tag_notes(
  p_note_ids uuid[],
  p_add text[] default '{}',
  p_remove text[] default '{}',
  p_versions integer[] default null
)
returns setof public.notes
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if coalesce(cardinality(p_add), 0) + coalesce(cardinality(p_remove), 0) = 0 then
    perform private.fail('22023', 'choose tags to add or remove', 'tags');
  end if;
  perform private.lock_notes_for_bulk(p_note_ids, p_versions, 'tag');
  -- Kept tags stay in their order; added ones follow, once each.
  return query
    update public.notes n
    set tags = (
      select coalesce(array_agg(tag order by first_at), '{}')
      from (
        select tag, min(at) as first_at
        from (
          select tag, at from unnest(n.tags) with ordinality as kept(tag, at)
          union all
          select tag, 1000000 + at from unnest(coalesce(p_add, '{}')) with ordinality as added(tag, at)
        ) as candidates
        where tag <> all (coalesce(p_remove, '{}'))
        group by tag
      ) as merged
    ),
    updated_at = now()
    where n.id = any (p_note_ids)
    returning n.*;
end
$$;

revoke execute on function public.tag_notes(uuid[], text[], text[], integer[]) from public, anon;
grant execute on function public.tag_notes(uuid[], text[], text[], integer[]) to authenticated, service_role;

-- Deletes notes with their cards and schedules, all or nothing, when none
-- changed since the caller loaded them (`p_versions`, one per note); returns
-- how many were deleted.
create function public.delete_notes(p_note_ids uuid[], p_versions integer[])
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  deleted integer;
begin
  perform private.require_user();
  if p_versions is null then
    perform private.fail('22023', 'give one version for each note', 'versions');
  end if;
  perform private.lock_notes_for_bulk(p_note_ids, p_versions, 'delete');
  delete from public.notes where id = any (p_note_ids);
  get diagnostics deleted = row_count;
  return deleted;
end
$$;

revoke execute on function public.delete_notes(uuid[], integer[]) from public, anon;
grant execute on function public.delete_notes(uuid[], integer[]) to authenticated, service_role;
