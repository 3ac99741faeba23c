-- A schedule row carries its card's note and ordinal, so the study queue
-- reads them with the schedule instead of looking up every card it gives
-- (about a third of private.session_cards' time at 100,000 cards). A note
-- never changes; an ordinal changes when templates are reordered, and
-- private.copy_card_ordinals follows it.
alter table public.card_states add column note_id uuid, add column ordinal integer;

-- Filling them in changes no schedule: nothing to announce or count.
alter table public.card_states disable trigger card_states_announce_updates;
alter table public.card_states disable trigger card_states_count_updated;
update public.card_states s set note_id = c.note_id, ordinal = c.ordinal
from public.cards c
where c.id = s.card_id;
alter table public.card_states enable trigger card_states_announce_updates;
alter table public.card_states enable trigger card_states_count_updated;

alter table public.card_states alter column note_id set not null, alter column ordinal set not null;

-- New cards get a 'new' schedule row for every member of their deck, in one
-- insert per statement rather than one per card: a note's cards arrive in one
-- statement (private.sync_note_cards), and a cloze note of 500 numbers in a
-- deck of many members would make 500 separate inserts. Moving a card to
-- another deck stays per row (private.add_card_states), since a trigger with
-- a column list cannot see transition tables.
create or replace function private.add_new_cards_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- finish_import writes its caller's schedules of the cards it adds itself.
  insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
  select m.user_id, c.id, c.deck_id, c.created_at, c.note_id, c.ordinal
  from added_cards c
  join public.deck_members m on m.deck_id = c.deck_id
  -- (is distinct from: the setting is null in a session that never set it,
  -- and "not (true and null)" would leave out the caller's own schedule)
  where (m.user_id = auth.uid() and current_setting('engram.writing_own_schedules', true) = 'on') is distinct from true
  on conflict (user_id, card_id) do nothing;
  return null;
end
$$;

-- A card that moves deck takes its schedules along and gains 'new' rows for
-- the new deck's members.
create or replace function private.add_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    update public.card_states set deck_id = new.deck_id where card_id = new.id;
  end if;
  insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
  select m.user_id, new.id, new.deck_id, new.created_at, new.note_id, new.ordinal
  from public.deck_members m
  where m.deck_id = new.deck_id
  on conflict (user_id, card_id) do nothing;
  return null;
end
$$;

-- A new member gets a 'new' schedule row for each card of the deck (kept if
-- they had studied it before, e.g. when rejoining). finish_import revealing a
-- deck to its importer has written all of theirs already.
create or replace function private.add_member_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.user_id = auth.uid() and current_setting('engram.writing_own_schedules', true) = 'on' then
    return null;
  end if;
  insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
  select new.user_id, c.id, c.deck_id, c.created_at, c.note_id, c.ordinal
  from public.cards c
  where c.deck_id = new.deck_id
  on conflict (user_id, card_id) do update set deck_id = excluded.deck_id;
  return null;
end
$$;

-- A card's ordinal changes when its note type's templates are reordered; every
-- member's schedule row keeps the copy the study queue reads.
create or replace function private.copy_card_ordinals() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.card_states s set ordinal = n.ordinal
  from new_cards n
  join old_cards o on o.id = n.id
  where s.card_id = n.id and n.ordinal <> o.ordinal;
  return null;
end
$$;

revoke execute on function private.copy_card_ordinals() from anon;

create trigger cards_copy_ordinals after update on public.cards
  referencing old table as old_cards new table as new_cards
  for each statement execute function private.copy_card_ordinals();

-- Brings deleted notes back, all or nothing, for the owner and editors of
-- their deck: each note with its id, its cards with theirs, the schedules of
-- those still members of the deck (members who joined since get new cards,
-- as for any new card) and the answers of users who still exist. A restored
-- note's version is two past the one it was deleted at, as its history has
-- the deletion and the restore as versions of their own. A note already back
-- (a retry) is left as it is and not counted; an id that is neither is
-- PT404 note_ids, and a custom note whose note type was deleted since is
-- PT404 note_type_id. Returns how many notes came back.
create or replace function public.restore_notes(p_note_ids uuid[])
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

-- Stores one answer: the review log and the card's new schedule, in one
-- transaction. Retrying with the same client_review_id returns the stored
-- result and changes nothing. An answer computed from an older schedule than
-- the stored one (another device answered first) is refused with PT409 and
-- the current schedule in the error detail, so the client can recompute.
-- It names the argument at fault (22023) before the schedule constraints
-- would refuse it (23514). A lapse that reaches the deck's leech threshold
-- marks the card a leech, and suspends it when the deck says so.
create or replace function public.record_review(
  p_card_id uuid,
  p_client_review_id uuid,
  p_rating smallint,
  p_reviewed_at timestamptz,
  p_duration_ms integer,
  p_expected_version integer,
  p_state public.card_state,
  p_due timestamptz,
  p_stability double precision,
  p_difficulty double precision,
  p_elapsed_days integer,
  p_scheduled_days integer,
  p_learning_steps integer,
  p_reps integer,
  p_lapses integer
) returns public.card_states
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  card_deck uuid;
  card_note uuid;
  card_ordinal integer;
  card_role public.deck_role;
  deck_public boolean;
  deck_leech_threshold integer;
  deck_leech_action public.leech_action;
  current_row public.card_states;
  last_elapsed integer;
  leech boolean := false;
begin
  -- A retry of a stored answer: return its card's schedule, change nothing.
  select s.* into current_row from public.review_logs l
  join public.card_states s on s.user_id = l.user_id and s.card_id = l.card_id
  where l.user_id = uid and l.client_review_id = p_client_review_id;
  if found then
    return current_row;
  end if;

  -- First, so that the rules below comparing the two blame the right one.
  perform private.check_time(p_reviewed_at, 'reviewed_at');
  perform private.check_time(p_due, 'due');
  if p_rating is null or p_rating not between 1 and 4 then
    perform private.fail('22023', 'rating must be 1, 2, 3 or 4', 'rating');
  elsif p_duration_ms is null or p_duration_ms not between 0 and 3600000 then
    perform private.fail('22023', 'duration_ms must be between 0 and 3600000', 'duration_ms');
  elsif p_reviewed_at is null or not isfinite(p_reviewed_at) or p_reviewed_at > now() + interval '5 minutes' then
    perform private.fail('22023', 'reviewed_at must not be in the future', 'reviewed_at');
  elsif p_expected_version is null then
    -- without it the stale-write check below would let any answer through
    perform private.fail('22023', 'expected_version is required', 'expected_version');
  elsif p_state is null or p_state = 'new' or p_due is null or p_due < p_reviewed_at - interval '1 minute' then
    perform private.fail('22023', 'the next schedule must be a studied state due after the answer', 'schedule');
  -- The bounds of the review_logs and card_states constraints, named per
  -- argument (reps and lapses, kept only in card_states, are left to its
  -- constraints). NaN fails "between" (Postgres sorts it above every number), as
  -- do both infinities.
  elsif not isfinite(p_due) or p_due > p_reviewed_at + interval '876000 hours' then
    perform private.fail('22023', 'due must be within 36500 days of the answer', 'due');
  elsif p_stability is null or p_stability not between 0 and 36500 then
    perform private.fail('22023', 'stability must be a number from 0 to 36500', 'stability');
  elsif p_difficulty is null or p_difficulty not between 0 and 10 then
    perform private.fail('22023', 'difficulty must be a number from 0 to 10', 'difficulty');
  elsif p_scheduled_days is null or p_scheduled_days not between 0 and 36500 then
    perform private.fail('22023', 'scheduled_days must be between 0 and 36500', 'scheduled_days');
  elsif p_elapsed_days is null or p_elapsed_days < 0 then
    perform private.fail('22023', 'elapsed_days must not be negative', 'elapsed_days');
  elsif p_learning_steps is null or p_learning_steps < 0 then
    perform private.fail('22023', 'learning_steps must not be negative', 'learning_steps');
  end if;

  -- The card's deck and the caller's place in it, in one lookup: a card is
  -- found in a deck the caller is a member of or that is public, and studied
  -- only by members.
  select c.deck_id, c.note_id, c.ordinal, m.role, d.is_public, d.leech_threshold, d.leech_action
  into card_deck, card_note, card_ordinal, card_role, deck_public, deck_leech_threshold, deck_leech_action
  from public.cards c
  join public.decks d on d.id = c.deck_id
  left join public.deck_members m on m.deck_id = c.deck_id and m.user_id = uid
  where c.id = p_card_id;
  if card_deck is null or (card_role is null and not deck_public) then
    perform private.fail('PT404', 'card not found', 'card_id');
  end if;
  if card_role is null then
    perform private.fail('42501', 'only members of a deck study it; add the deck to your decks first');
  end if;

  -- The schedule, made on the card's first answer (an insert that finds it
  -- already there would still run the table's statement triggers).
  select * into current_row from public.card_states where user_id = uid and card_id = p_card_id for update;
  if not found then
    insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
    values (uid, p_card_id, card_deck, p_reviewed_at, card_note, card_ordinal)
    on conflict (user_id, card_id) do nothing;
    select * into current_row from public.card_states where user_id = uid and card_id = p_card_id for update;
  end if;

  if current_row.version <> p_expected_version then
    -- A retry that raced its original waited for the lock above; now it sees
    -- the stored answer (which moved the version on).
    if exists (select 1 from public.review_logs where user_id = uid and client_review_id = p_client_review_id) then
      return current_row;
    end if;
    perform private.fail('PT409', 'this card was answered on another device', to_jsonb(current_row)::text);
  end if;

  -- A lapse is "again" on a card in review; p_lapses is the count it brings the card to.
  if p_rating = 1 and current_row.state = 'review' then
    leech := private.is_leech_lapse(p_lapses, deck_leech_threshold);
  end if;

  last_elapsed := case when current_row.last_review is null then 0
    else greatest(0, floor(extract(epoch from p_reviewed_at - current_row.last_review) / 86400))::integer end;

  insert into public.review_logs (
    user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
    elapsed_days, last_elapsed_days, scheduled_days, learning_steps, reviewed_at, duration_ms, previous
  ) values (
    uid, p_card_id, p_client_review_id, p_rating, current_row.state, current_row.due, p_stability, p_difficulty,
    p_elapsed_days, last_elapsed, p_scheduled_days, p_learning_steps, p_reviewed_at, p_duration_ms,
    -- (the card's note and ordinal are not part of its schedule)
    to_jsonb(current_row) - array['note_id', 'ordinal']
  );

  update public.card_states set
    state = p_state,
    due = p_due,
    stability = p_stability,
    difficulty = p_difficulty,
    elapsed_days = p_elapsed_days,
    scheduled_days = p_scheduled_days,
    learning_steps = p_learning_steps,
    reps = p_reps,
    lapses = p_lapses,
    last_review = p_reviewed_at,
    buried_until = null,
    leech_at = case when leech then p_reviewed_at else current_row.leech_at end,
    suspended = current_row.suspended or (leech and deck_leech_action = 'suspend'),
    version = current_row.version + 1,
    updated_at = now()
  where user_id = uid and card_id = p_card_id
  returning * into current_row;
  return current_row;
end
$$;

-- The cards a study session of p_deck_id (all decks when null) gives the user
-- at p_now, in study order: learning cards due today, then reviews due today,
-- then new cards, each deck within its remaining allowance. Leaves out
-- suspended cards, cards buried until later, archived decks, and siblings the
-- deck buries. Callers check who is asking; this is not exposed.
--
-- Each (deck, state) is one range of card_states_queue_idx read in study
-- order and stopped at the allowance. A schedule row carries its card's note
-- and ordinal, which the callers return, so no card is looked up; the bury
-- test is one probe of the note's other cards, and their schedules and
-- today's answers only for a note that has them.
create or replace function private.session_cards(p_user_id uuid, p_deck_id uuid, p_now timestamptz)
returns table (
  "position" integer,
  queue text,
  card_id uuid,
  deck_id uuid,
  state public.card_state,
  due timestamptz,
  stability double precision,
  difficulty double precision,
  elapsed_days integer,
  scheduled_days integer,
  learning_steps integer,
  reps integer,
  lapses integer,
  last_review timestamptz,
  version integer,
  note_id uuid,
  ordinal integer
)
language plpgsql stable
-- A day's queue is a few hundred cards: with the default guess of 1,000 the
-- callers' joins to cards and notes became hash joins over every card
-- (~55 ms at 100,000 cards, supabase/bench) instead of primary-key lookups.
rows 100
set search_path = ''
-- Planned without its arguments the body looks expensive enough to JIT
-- compile, which took far longer than the query (as for study_queue).
set jit = off
as $$
#variable_conflict use_column
begin
  return query
    with recursive me as (
      select p.id, p.new_per_day, p.reviews_per_day, p_now as now_at, d.day_start, d.day_end,
             private.study_date(p_now, p.timezone, p.day_starts_at) as study_date
      from public.profiles p
      cross join lateral private.study_day(p.timezone, p.day_starts_at, p_now) d
      where p.id = p_user_id
    ),
    -- New cards added to a deck's limit for today (public.extend_study_day).
    extras as (
      select x.deck_id, x.extra_new
      from me join public.study_day_extras x on x.user_id = me.id and x.study_date = me.study_date
    ),
    -- The deck studied and its subdecks, at any depth (a tree has no loops).
    tree (id) as (
      select d.id from public.decks d where d.id = p_deck_id
      union all
      select d.id from tree t join public.decks d on d.parent_id = t.id
    ),
    -- Today's answers per deck from the per-deck rollup (a quarter hour never
    -- straddles a study day).
    done_today as (
      select c.deck_id,
             coalesce(sum(c.reviews) filter (where c.state = 'new'), 0) as new_done,
             coalesce(sum(c.reviews) filter (where c.state = 'review'), 0) as reviews_done
      from me
      join private.review_deck_counts c on c.user_id = me.id and c.slot >= me.day_start and c.slot < me.day_end
      group by c.deck_id
    ),
    -- Materialized: inlined, the planner joined the memberships after
    -- reading the cards, testing every membership against every card.
    my_decks as materialized (
      select d.id, d.bury_new, d.bury_reviews, d.bury_interday_learning,
             greatest(0, coalesce(d.new_per_day, me.new_per_day) + coalesce(x.extra_new, 0) - coalesce(t.new_done, 0))
               as new_left,
             greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day) - coalesce(t.reviews_done, 0)) as reviews_left
      from me
      join public.deck_members m on m.user_id = me.id
      join public.decks d on d.id = m.deck_id and d.archived_at is null
      left join done_today t on t.deck_id = d.id
      left join extras x on x.deck_id = d.id
      where p_deck_id is null or d.id in (select tree.id from tree)
    ),
    -- Studying a deck with subdecks, as Anki's v3 scheduler does: each deck
    -- gives its own cards within its own allowance, and the deck studied caps
    -- their sum with its limits less what was studied in its tree today. All
    -- decks (no deck) give the sum of every deck's allowance.
    cap as (
      select greatest(0, coalesce(d.new_per_day, me.new_per_day)
               + coalesce((select x.extra_new from extras x where x.deck_id = p_deck_id), 0)
               - coalesce((select sum(t.new_done) from done_today t where t.deck_id in (select tree.id from tree)), 0))
               as new_cap,
             greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day)
               - coalesce((select sum(t.reviews_done) from done_today t where t.deck_id in (select tree.id from tree)), 0))
               as reviews_cap
      from me join public.decks d on d.id = p_deck_id
    ),
    -- The queue each state is served in, in order; learning has no daily limit.
    states (state, queue, rank) as (
      values ('learning'::public.card_state, 'learning', 0), ('relearning', 'learning', 0),
             ('review', 'review', 1), ('new', 'new', 2)
    ),
    picked as (
      select s.*, k.queue, k.rank
      from me
      join my_decks d on true
      cross join states k
      cross join lateral (
        select s.* from public.card_states s
        where s.user_id = me.id and s.deck_id = d.id and s.state = k.state and not s.suspended
          -- new cards are offered whatever their due (their creation time)
          and s.due < case when k.state = 'new' then 'infinity'::timestamptz else me.day_end end
          and (s.buried_until is null or s.buried_until <= me.now_at)
          and not (
            case s.state
              when 'new' then d.bury_new
              when 'review' then d.bury_reviews
              -- learning steps under a day are never buried
              else d.bury_interday_learning and s.scheduled_days >= 1
            end
            and exists (
              select 1
              from public.cards sibling
              join public.card_states o on o.user_id = me.id and o.card_id = sibling.id
              where sibling.note_id = s.note_id and sibling.id <> s.card_id
                and (
                  -- answered today: its siblings wait for the next study day
                  exists (
                    select 1 from public.review_logs l
                    where l.card_id = sibling.id and l.user_id = me.id
                      and l.reviewed_at >= me.day_start and l.reviewed_at < me.day_end
                  )
                  -- ahead in today's queue, in Anki's gathering order: learning
                  -- due within the day, learning on day-long steps, reviews,
                  -- new cards; then due and id, as the queue orders them
                  or (not o.suspended and (o.buried_until is null or o.buried_until <= me.now_at)
                      and (o.state = 'new' or o.due < me.day_end)
                      and (case o.state when 'new' then 3 when 'review' then 2
                                        else least(o.scheduled_days, 1) end, o.due, o.card_id)
                        < (case s.state when 'new' then 3 when 'review' then 2
                                        else least(s.scheduled_days, 1) end, s.due, s.card_id))
                )
            )
          )
        order by s.due, s.card_id
        limit case k.queue when 'review' then d.reviews_left when 'new' then d.new_left end
      ) s
    ),
    -- Each queue's cards in study order, to stop at the cap.
    ranked as (
      select p.*, row_number() over (partition by p.queue order by p.due, p.card_id) as in_queue
      from picked p
    )
    select (row_number() over (order by p.rank, p.due, p.card_id))::integer, p.queue,
           p.card_id, p.deck_id, p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
           p.learning_steps, p.reps, p.lapses, p.last_review, p.version, p.note_id, p.ordinal
    from ranked p
    where p.queue = 'learning'
       or not exists (select 1 from cap)
       or p.in_queue <= (select case p.queue when 'new' then cap.new_cap else cap.reviews_cap end from cap);
end
$$;

-- The caller's own schedules for a custom session, in the row shape of
-- public.study_queue plus `matched`: how many cards matched before the
-- limit. Modes:
--   ahead     cards studied before (not new) due before the end of the study
--             day p_days days from today, earliest first;
--   forgotten cards the caller answered Again in the last p_days study days
--             (Anki's rated:N:1);
--   search    cards a search tree from @engram/core's parseSearch finds
--             (private.search_condition: card-level parts such as is:due
--             hold for the card itself, note-level ones for its note).
-- p_deck_id and its subdecks (every deck the caller is a member of when null);
-- archived decks, suspended cards and cards buried until later are left out.
-- Security invoker: RLS keeps it to the caller's own schedules and the notes
-- of decks they read.
create or replace function public.custom_study_cards(
  p_deck_id uuid,
  p_mode text,
  p_days integer default null,
  p_query jsonb default null,
  p_limit integer default 1000
)
returns table (
  "position" integer,
  queue text,
  card_id uuid,
  note_id uuid,
  deck_id uuid,
  ordinal integer,
  note_kind public.note_kind,
  fields jsonb,
  tags text[],
  state public.card_state,
  due timestamptz,
  stability double precision,
  difficulty double precision,
  elapsed_days integer,
  scheduled_days integer,
  learning_steps integer,
  reps integer,
  lapses integer,
  last_review timestamptz,
  version integer,
  matched integer
)
language plpgsql stable security invoker
set search_path = ''
set jit = off
as $$
declare
  uid uuid := private.require_user();
  profile record;
  today record;
  decay double precision;
  condition text;
begin
  if p_mode is null or p_mode not in ('ahead', 'forgotten', 'search') then
    perform private.fail('22023', 'mode must be ahead, forgotten or search', 'p_mode');
  elsif p_limit is null or p_limit not between 1 and 1000 then
    perform private.fail('22023', 'limit must be a whole number from 1 to 1000', 'p_limit');
  elsif p_mode in ('ahead', 'forgotten') and (p_days is null or p_days not between 1 and 365) then
    perform private.fail('22023', 'days must be a whole number from 1 to 365', 'p_days');
  elsif p_mode in ('ahead', 'forgotten') and p_query is not null then
    perform private.fail('22023', format('a search is only for mode search, not %s', p_mode), 'p_query');
  elsif p_mode = 'search' and (p_query is null or p_query = 'null'::jsonb) then
    perform private.fail('22023', 'mode search needs a search', 'p_query');
  elsif p_mode = 'search' and p_days is not null then
    perform private.fail('22023', 'days are only for modes ahead and forgotten', 'p_days');
  end if;
  if p_deck_id is not null and not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'p_deck_id');
  elsif p_deck_id is not null and private.deck_role(p_deck_id) is null then
    perform private.fail('42501', 'only members of a deck study it; add the deck to your decks first');
  end if;

  select p.timezone, p.day_starts_at, p.fsrs_params into profile from public.profiles p where p.id = uid;
  select * into today
  from private.study_day(coalesce(profile.timezone, 'UTC'), coalesce(profile.day_starts_at, 4), now());
  condition := case p_mode
    when 'ahead' then
      format($sql$(s.state <> 'new' and s.due < %L::timestamptz)$sql$, today.day_end + make_interval(days => p_days))
    when 'forgotten' then
      format('exists (select 1 from public.review_logs l where l.user_id = %L::uuid and l.card_id = s.card_id '
        'and l.rating = 1 and l.reviewed_at >= %L::timestamptz)',
        uid, today.day_start - make_interval(days => p_days - 1))
  end;
  if p_mode = 'search' then
    perform private.search_check(p_query, 1);
    decay := coalesce(profile.fsrs_params[21], 0.1542);
    condition := private.search_condition(p_query, jsonb_build_object(
      'uid', uid,
      'day_start', today.day_start,
      'day_end', today.day_end,
      'decay', decay,
      'factor', power(0.9, -1 / decay) - 1,
      -- The card-level parts hold for each card itself: `is:due` crams due cards, not their siblings.
      'per_card', true));
  end if;

  return query execute format($sql$
    with recursive tree (id) as (
      select d.id from public.decks d where d.id = $1
      union all
      select d.id from tree t join public.decks d on d.parent_id = t.id
    ),
    studied as (
      select d.id
      from public.deck_members m
      join public.decks d on d.id = m.deck_id and d.archived_at is null
      where m.user_id = $2 and ($1 is null or d.id in (select tree.id from tree))
    ),
    found as (
      select s.*, n.kind
      from public.card_states s
      join studied k on k.id = s.deck_id
      join public.cards c on c.id = s.card_id
      join public.notes n on n.id = c.note_id
      where s.user_id = $2 and not s.suspended and (s.buried_until is null or s.buried_until <= now())
        and %s
    ),
    picked as (
      select f.*, (count(*) over ())::integer as matched
      from found f
      order by f.due, f.card_id
      limit $3
    )
    select (row_number() over (order by p.due, p.card_id))::integer,
           case p.state when 'new' then 'new' when 'review' then 'review' else 'learning' end,
           p.card_id, p.note_id, p.deck_id, p.ordinal, p.kind, n.fields, n.tags,
           p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
           p.learning_steps, p.reps, p.lapses, p.last_review, p.version, p.matched
    from picked p
    join public.notes n on n.id = p.note_id
    order by p.due, p.card_id
  $sql$, condition)
  using p_deck_id, uid, p_limit;
end
$$;

-- Commits a staged import: finds or creates the note types its custom notes
-- use (import_note_types), adds the new notes (and so their cards and every
-- member's 'new' schedule), updates or skips notes already imported into the
-- deck (by source_guid, as the job's "existing" option says), applies the
-- caller's schedules, suspensions and review history to the cards of the
-- notes it added or updated, and marks the job done with counts the database
-- made. Any invalid note fails the call (22023 naming the note, or 23514
-- naming the constraint) and leaves the job running, so the client can
-- abandon it. Finishing again returns the job.
--
-- Into an existing deck (or a new deck tree) it commits everything in one
-- transaction. Into a new deck it may commit a step a call (p_one_batch:
-- the next notes in order, of the next batch once it is staged, about a
-- quarter of a second of work, while later batches are still being staged;
-- otherwise nothing), so the server answers everyone else between them and
-- no import is bounded by one statement's timeout.
-- The deck has no member meanwhile, so nothing of it is listed, read or
-- announced; the call without p_one_batch commits what is left and makes
-- the caller its owner member. A failure in any step is abandoned as before,
-- and the deck goes with it.
create or replace function public.finish_import(p_job_id uuid, p_summary jsonb default '{}', p_one_batch boolean default false)
returns public.import_jobs
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  job public.import_jobs;
  on_existing text;
  bad record;
  added integer;
  updated integer;
  skipped integer;
  card_count integer;
  reviews_added integer;
  deck_tree boolean;
  deck_path text[];
  tree_deck uuid;
  tree_created boolean;
  in_steps boolean;
  last_batch integer;
  step_batch integer;
  step_from integer;
  step_count integer;
  step_notes integer;
  batch_done boolean;
  seq_base bigint;
  started timestamptz := clock_timestamp();
begin
  job := private.lock_own_import(p_job_id);
  perform private.refuse_expired_import(job);
  if job.status = 'done' then
    return job;
  elsif job.status <> 'running' then
    perform private.fail('22023', 'this import is no longer running', 'job');
  elsif p_summary is null or jsonb_typeof(p_summary) <> 'object' or pg_column_size(p_summary) > 65536 then
    perform private.fail('22023', 'summary must be a small JSON object', 'summary');
  elsif job.deck_id is null then
    perform private.fail('PT404', 'the deck of this import no longer exists', 'deck_id');
  end if;
  on_existing := coalesce(job.options ->> 'existing', 'skip');
  deck_tree := coalesce(job.options ->> 'deck_tree', 'false') = 'true';
  in_steps := job.created_deck and not deck_tree;
  -- The deck of a finish in steps has no member until its last step.
  if not (case when in_steps then exists (select 1 from public.decks d where d.id = job.deck_id and d.owner_id = uid)
              else private.can_edit_deck(job.deck_id) end) then
    perform private.fail('42501', 'you can no longer add notes to this deck');
  end if;
  if deck_tree and not private.is_deck_owner(job.deck_id) then
    perform private.fail('42501', 'only the owner of a deck can import subdecks into it', 'deck_tree');
  end if;
  -- Two imports into one deck commit one after the other, so both see each other's notes.
  perform 1 from public.decks where id = job.deck_id for no key update;

  -- What earlier steps committed is left out: the batches up to "batch",
  -- and the first "offset" notes of the next (a step may commit part of one).
  last_batch := coalesce((job.finishing ->> 'batch')::integer, -1);
  step_from := coalesce((job.finishing ->> 'offset')::integer, 0);
  if coalesce(p_one_batch, false) then
    -- The next batch in order, once it is staged; the call without
    -- p_one_batch commits what is left and reveals the deck.
    step_batch := last_batch + 1;
    select b.notes into step_notes from private.import_batches b where b.job_id = p_job_id and b.batch = step_batch;
    if not in_steps or step_notes is null then
      return job;
    end if;
    -- About a quarter of a second of work at the pace of the step before
    -- (at least 50 notes), so a slower server takes smaller steps.
    step_count := least(step_notes - step_from, greatest(50, coalesce(
      floor(250 / nullif((job.finishing ->> 'ms_per_note')::double precision, 0))::integer, step_notes)));
  end if;
  -- A note's number in the whole file, for the errors that name one.
  seq_base := coalesce((job.finishing ->> 'notes_read')::bigint, 0);

  -- The package's deck tree (deck_tree): each staged note's "deck", its Anki
  -- deck path as a list of names, becomes a deck under the import's deck,
  -- found by name under its parent first, so finishing an import of the
  -- same package again makes no deck twice. Without it every note lands in
  -- the import's deck. import_decks maps each path ('{}' for the import's
  -- deck itself) to its deck; existing notes are looked for in all of them.
  drop table if exists pg_temp.import_decks;
  create temp table import_decks (path text[] primary key, deck_id uuid not null, created boolean not null)
    on commit drop;
  insert into pg_temp.import_decks values ('{}', job.deck_id, job.created_deck);
  if deck_tree then
    if exists (
      select 1
      from private.import_batches b
      cross join lateral jsonb_array_elements(b.payload -> 'notes') as e(note)
      where b.job_id = p_job_id and jsonb_typeof(e.note) = 'object' and e.note ? 'deck'
        and (jsonb_typeof(e.note -> 'deck') <> 'array' or jsonb_array_length(e.note -> 'deck') > 9
          or exists (
            select 1 from jsonb_array_elements(e.note -> 'deck') as c
            where jsonb_typeof(c) <> 'string' or char_length(private.trim_space(c #>> '{}')) not between 1 and 120
          ))
    ) then
      perform private.fail('22023', 'a note''s deck must be a list of 1 to 9 names of 1 to 120 characters', 'notes');
    end if;
    for deck_path in
      select distinct p.path[1:n]
      from (
        select array(select private.trim_space(c) from jsonb_array_elements_text(e.note -> 'deck') as c) as path
        from private.import_batches b
        cross join lateral jsonb_array_elements(b.payload -> 'notes') as e(note)
        where b.job_id = p_job_id and e.note ? 'deck'
      ) p
      cross join lateral generate_series(1, cardinality(p.path)) as n
      order by 1
    loop
      select d.id into tree_deck
      from public.decks d
      join pg_temp.import_decks parent on parent.deck_id = d.parent_id
      where parent.path = deck_path[1:cardinality(deck_path) - 1] and d.name = deck_path[cardinality(deck_path)]
      order by d.created_at, d.id
      limit 1;
      tree_created := tree_deck is null;
      if tree_created then
        insert into public.decks (owner_id, name, parent_id)
        select uid, deck_path[cardinality(deck_path)], parent.deck_id
        from pg_temp.import_decks parent
        where parent.path = deck_path[1:cardinality(deck_path) - 1]
        returning id into tree_deck;
      end if;
      insert into pg_temp.import_decks values (deck_path, tree_deck, tree_created);
    end loop;
  end if;
  if job.finishing is null then
    -- The presets of the decks it made, found or created among the user's.
    perform private.import_presets(p_job_id, uid);
    -- The note types the custom notes use, found or created in the import's deck.
    perform private.import_note_types(p_job_id, job.deck_id);
  else
    -- A later step: the note types the first one found or made.
    drop table if exists pg_temp.import_note_types;
    create temp table import_note_types on commit drop as
    select t.key, t.id as note_type_id, t.name, t.created
    from jsonb_to_recordset(job.finishing -> 'note_types') as t(key text, id uuid, name text, created boolean);
  end if;

  begin
    -- The staged notes in file order, each with what happens to it: the first
    -- of each guid counts, later ones are skipped.
    drop table if exists pg_temp.import_notes;
    create temp table import_notes on commit drop as
    select t.seq, t.guid, t.kind, t.fields, t.tags, t.cards, t.deck_id, t.note_type_id,
           coalesce(n.id, gen_random_uuid()) as note_id,
           now() + (t.seq - 1) * interval '1 microsecond' as created_at,
           case
             when t.guid is not null and row_number() over (partition by t.guid order by t.seq) > 1 then 'duplicate'
             when n.id is null then 'insert'
             -- In a new deck, only an earlier step can have added it.
             when in_steps then 'duplicate'
             else on_existing
           end as action
    from (
      select seq_base + row_number() over (order by b.batch, e.ord) as seq,
             nullif(e.note ->> 'guid', '') as guid,
             (e.note ->> 'kind')::public.note_kind as kind,
             e.note -> 'fields' as fields,
             coalesce(array(select jsonb_array_elements_text(nullif(e.note -> 'tags', 'null'))), '{}') as tags,
             coalesce(nullif(e.note -> 'cards', 'null'), '[]') as cards,
             (select nt.note_type_id from pg_temp.import_note_types nt where nt.key = e.note ->> 'note_type')
               as note_type_id,
             (select d.deck_id from pg_temp.import_decks d
              where d.path = case when deck_tree and e.note ? 'deck' then array(
                select private.trim_space(c) from jsonb_array_elements_text(e.note -> 'deck') as c) else '{}' end
             ) as deck_id
      from private.import_batches b
      cross join lateral jsonb_array_elements(b.payload -> 'notes') with ordinality as e(note, ord)
      where b.job_id = p_job_id
        and (b.batch > last_batch + 1 or (b.batch = last_batch + 1 and e.ord > step_from))
        and (step_batch is null or (b.batch = step_batch and e.ord <= step_from + step_count))
    ) t
    -- The deck's notes from the same source, the first of each guid, in one
    -- join (a lookup per note scans the (deck_id, source_guid) index by its second column).
    left join (
      select distinct on (n.source_guid) n.source_guid, n.id
      from public.notes n
      where n.deck_id in (select d.deck_id from pg_temp.import_decks d) and n.source_guid is not null
      order by n.source_guid, n.created_at, n.id
    ) n on n.source_guid = t.guid;
    -- A temporary table has no statistics until analysed, and the joins below
    -- would each be planned for a few hundred rows.
    analyze pg_temp.import_notes (seq, note_id, action);
    -- A custom note naming a note type the import does not hold is refused before any note is added.
    select i.seq, i.guid into bad
    from pg_temp.import_notes i
    where i.kind = 'custom' and i.note_type_id is null
    order by i.seq limit 1;
    if bad.seq is not null then
      perform private.fail('22023', format('note %s%s: its note type is not in the import', bad.seq,
        case when bad.guid is null then '' else format(' (%s)', bad.guid) end), 'notes');
    end if;

    -- created_at a microsecond apart keeps the file's order in the deck and
    -- in the order new cards are studied (new cards are due at creation).
    -- Their cards are added below in one statement instead of one per note
    -- by the sync trigger (a third of the time on 10,000 notes).
    begin
      perform set_config('engram.adding_cards_in_bulk', 'on', true);
      insert into public.notes (id, deck_id, kind, fields, tags, created_by, source_guid, created_at, note_type_id)
      select i.note_id, i.deck_id, i.kind, i.fields, i.tags, uid, i.guid, i.created_at, i.note_type_id
      from pg_temp.import_notes i
      where i.action = 'insert'
      order by i.seq;
      get diagnostics added = row_count;
      perform set_config('engram.adding_cards_in_bulk', 'off', true);

      -- The card sync trigger keeps the cards (and schedules) of surviving ordinals.
      update public.notes n set kind = i.kind, fields = i.fields, tags = i.tags, note_type_id = i.note_type_id
      from pg_temp.import_notes i
      where n.id = i.note_id and i.action = 'update'
        and (n.kind, n.fields, n.tags, n.note_type_id) is distinct from (i.kind, i.fields, i.tags, i.note_type_id);
    exception when check_violation then
      -- Which note broke which rule, looked for only once one did; a rule
      -- import_content_problem does not mirror keeps its constraint's error.
      select i.seq, i.guid, private.import_content_problem(i.kind, i.fields, i.tags) as problem into bad
      from pg_temp.import_notes i
      where i.action in ('insert', 'update') and private.import_content_problem(i.kind, i.fields, i.tags) is not null
      order by i.seq limit 1;
      if bad.seq is null then
        raise;
      end if;
      perform private.fail('22023', format('note %s%s: %s', bad.seq,
        case when bad.guid is null then '' else format(' (%s)', bad.guid) end, bad.problem), 'notes');
    end;

    -- Every other member of the deck gets a 'new' schedule for these
    -- (cards_add_states); the caller's are written below with the file's schedule.
    perform set_config('engram.writing_own_schedules', 'on', true);
    insert into public.cards (note_id, deck_id, ordinal, created_at)
    select i.note_id, i.deck_id, o, i.created_at
    from pg_temp.import_notes i
    cross join lateral unnest(private.import_note_ordinals(i.kind, i.fields, i.tags, i.note_type_id)) as o
    where i.action = 'insert'
    order by i.seq, o;
    perform set_config('engram.writing_own_schedules', 'off', true);

    select count(*) filter (where action = 'update'), count(*) filter (where action in ('skip', 'duplicate'))
    into updated, skipped
    from pg_temp.import_notes;

    -- The staged cards of added and updated notes, matched to the cards their
    -- notes now have (a card of an ordinal the note does not make is ignored).
    drop table if exists pg_temp.import_cards;
    create temp table import_cards on commit drop as
    select c.id as card_id, c.deck_id, e.card, i.action = 'insert' as added
    from pg_temp.import_notes i
    cross join lateral jsonb_array_elements(i.cards) as e(card)
    join public.cards c on c.note_id = i.note_id and c.ordinal = (e.card ->> 'ordinal')::integer
    where i.action in ('insert', 'update');
    analyze pg_temp.import_cards (card_id, added);

    -- The caller's schedules of the cards just added, in one insert: the
    -- file's schedule, suspension and burial, else 'new' and due at creation,
    -- as the member trigger writes it (a schedule written then changed has version 1).
    insert into public.card_states (
      user_id, card_id, deck_id, note_id, ordinal, state, due, stability, difficulty, elapsed_days, scheduled_days,
      learning_steps, reps, lapses, last_review, suspended, buried_until, version
    )
    select uid, c.id, c.deck_id, c.note_id, c.ordinal,
      coalesce((x.schedule ->> 'state')::public.card_state, 'new'),
      coalesce((x.schedule ->> 'due')::timestamptz, c.created_at),
      coalesce((x.schedule ->> 'stability')::double precision, 0),
      coalesce((x.schedule ->> 'difficulty')::double precision, 0),
      coalesce((x.schedule ->> 'elapsed_days')::integer, 0),
      coalesce((x.schedule ->> 'scheduled_days')::integer, 0),
      coalesce((x.schedule ->> 'learning_steps')::integer, 0),
      coalesce((x.schedule ->> 'reps')::integer, 0),
      coalesce((x.schedule ->> 'lapses')::integer, 0),
      (x.schedule ->> 'last_review')::timestamptz,
      coalesce((x.card ->> 'suspended')::boolean, false),
      (x.card ->> 'buried_until')::timestamptz,
      case when x.schedule is not null or coalesce((x.card ->> 'suspended')::boolean, false)
        or (x.card ->> 'buried_until') is not null then 1 else 0 end
    from pg_temp.import_notes i
    join public.cards c on c.note_id = i.note_id
    left join (
      select ic.card_id, ic.card,
        case when jsonb_typeof(ic.card -> 'schedule') = 'object' then ic.card -> 'schedule' end as schedule
      from pg_temp.import_cards ic
      where ic.added
    ) x on x.card_id = c.id
    where i.action = 'insert'
      and (in_steps or exists (select 1 from public.deck_members m where m.deck_id = c.deck_id and m.user_id = uid))
    on conflict (user_id, card_id) do nothing;

    -- The caller's schedules of the notes updated; other members keep theirs. A schedule the
    -- caller has studied since it was last imported is not overwritten, and
    -- a card the file leaves as it is keeps its version. The cards are taken
    -- from import_cards first and each schedule found by its key: planned as
    -- one join, the schedules just inserted (not yet analysed) made PostgreSQL
    -- scan them once per card, a minute for 10,000 cards none of which it changed.
    with x as materialized (
      select ic.card_id, ic.card, case
        when jsonb_typeof(ic.card -> 'schedule') = 'object'
          and (mine.state = 'new' or mine.last_review is null
            or mine.last_review <= coalesce((ic.card -> 'schedule' ->> 'last_review')::timestamptz, '-infinity'))
        then ic.card -> 'schedule'
      end as schedule
      from pg_temp.import_cards ic
      join public.card_states mine on mine.user_id = uid and mine.card_id = ic.card_id
      where not ic.added
    )
    update public.card_states s set
      state = coalesce((x.schedule ->> 'state')::public.card_state, s.state),
      due = coalesce((x.schedule ->> 'due')::timestamptz, s.due),
      stability = coalesce((x.schedule ->> 'stability')::double precision, s.stability),
      difficulty = coalesce((x.schedule ->> 'difficulty')::double precision, s.difficulty),
      elapsed_days = coalesce((x.schedule ->> 'elapsed_days')::integer, s.elapsed_days),
      scheduled_days = coalesce((x.schedule ->> 'scheduled_days')::integer, s.scheduled_days),
      learning_steps = coalesce((x.schedule ->> 'learning_steps')::integer, s.learning_steps),
      reps = coalesce((x.schedule ->> 'reps')::integer, s.reps),
      lapses = coalesce((x.schedule ->> 'lapses')::integer, s.lapses),
      last_review = case when x.schedule is null then s.last_review
        else (x.schedule ->> 'last_review')::timestamptz end,
      suspended = coalesce((x.card ->> 'suspended')::boolean, s.suspended),
      buried_until = case when x.card ? 'buried_until' then (x.card ->> 'buried_until')::timestamptz
        else s.buried_until end,
      version = s.version + 1,
      updated_at = now()
    from x
    where s.user_id = uid and s.card_id = x.card_id
      and (
        x.schedule is not null
        or coalesce((x.card ->> 'suspended')::boolean, s.suspended) <> s.suspended
        or (x.card ? 'buried_until' and (x.card ->> 'buried_until')::timestamptz is distinct from s.buried_until)
      );

    -- Logs made by an import have no schedule to go back to (undo_review
    -- refuses them); the deck they count for is noted in them, as an answer's
    -- own is, so the review rollup needs no row per log. A staged answer is a
    -- tuple (client_review_id, rating, state, due, stability, difficulty,
    -- elapsed_days, last_elapsed_days, scheduled_days, learning_steps,
    -- reviewed_at, duration_ms): half the bytes of an object with those keys,
    -- which is still taken and read as one.
    insert into public.review_logs (
      user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
      elapsed_days, last_elapsed_days, scheduled_days, learning_steps, reviewed_at, duration_ms, previous
    )
    select uid, c.card_id, (r ->> 0)::uuid, (r ->> 1)::smallint,
           (r ->> 2)::public.card_state, (r ->> 3)::timestamptz,
           (r ->> 4)::double precision, (r ->> 5)::double precision,
           (r ->> 6)::integer, coalesce((r ->> 7)::integer, 0),
           (r ->> 8)::integer, coalesce((r ->> 9)::integer, 0),
           (r ->> 10)::timestamptz, coalesce((r ->> 11)::integer, 0),
           jsonb_build_object('imported', true, 'deck_id', c.deck_id)
    from pg_temp.import_cards c
    cross join lateral jsonb_array_elements(coalesce(nullif(c.card -> 'reviews', 'null'), '[]')) as e(staged)
    cross join lateral (
      select case when jsonb_typeof(e.staged) = 'array' then e.staged else jsonb_build_array(
        e.staged -> 'client_review_id', e.staged -> 'rating', e.staged -> 'state', e.staged -> 'due',
        e.staged -> 'stability', e.staged -> 'difficulty', e.staged -> 'elapsed_days', e.staged -> 'last_elapsed_days',
        e.staged -> 'scheduled_days', e.staged -> 'learning_steps', e.staged -> 'reviewed_at', e.staged -> 'duration_ms'
      ) end
    ) as t(r)
    on conflict (user_id, client_review_id) do nothing;
    get diagnostics reviews_added = row_count;

    select count(*) into card_count
    from public.cards c join pg_temp.import_notes i on i.note_id = c.note_id
    where i.action in ('insert', 'update');
  exception when others then
    -- Only once something failed: a malformed note is named, a value the
    -- casts above refused is a bad argument, anything else keeps its error.
    select s.seq, s.guid, s.problem into bad
    from (
      select seq_base + row_number() over (order by b.batch, e.ord) as seq, e.note ->> 'guid' as guid,
             private.import_note_problem(e.note) as problem
      from private.import_batches b
      cross join lateral jsonb_array_elements(b.payload -> 'notes') with ordinality as e(note, ord)
      where b.job_id = p_job_id
        and (b.batch > last_batch + 1 or (b.batch = last_batch + 1 and e.ord > step_from))
        and (step_batch is null or (b.batch = step_batch and e.ord <= step_from + step_count))
    ) s
    where s.problem is not null
    order by s.seq limit 1;
    if bad.seq is not null then
      perform private.fail('22023', format('note %s%s: %s', bad.seq,
        case when bad.guid is null then '' else format(' (%s)', bad.guid) end, bad.problem), 'notes');
    elsif sqlstate in ('22P02', '22007', '22008', '22003', '23502') then
      perform private.fail('22023', 'a staged value is missing or of the wrong type: ' || sqlerrm, 'notes');
    end if;
    raise;
  end;

  if step_batch is not null then
    -- The job says how far the finish has come, and a batch wholly in goes.
    batch_done := step_from + step_count >= step_notes;
    with committed as (
      delete from private.import_batches where batch_done and job_id = p_job_id and batch = step_batch returning bytes
    )
    update public.import_jobs set finishing = jsonb_build_object(
      'batch', case when batch_done then step_batch else last_batch end,
      'offset', case when batch_done then 0 else step_from + step_count end,
      'notes_read', seq_base + (select count(*) from pg_temp.import_notes),
      'bytes_read', coalesce((job.finishing ->> 'bytes_read')::bigint, 0) + coalesce((select sum(bytes) from committed), 0),
      'ms_per_note', round((extract(epoch from clock_timestamp() - started) * 1000 / greatest(step_count, 1))::numeric, 3),
      'notes_added', coalesce((job.finishing ->> 'notes_added')::integer, 0) + added,
      'notes_skipped', coalesce((job.finishing ->> 'notes_skipped')::integer, 0) + skipped,
      'cards', coalesce((job.finishing ->> 'cards')::integer, 0) + card_count,
      'reviews_added', coalesce((job.finishing ->> 'reviews_added')::integer, 0) + reviews_added,
      'note_types', coalesce((
        select jsonb_agg(jsonb_build_object('key', t.key, 'id', t.note_type_id, 'name', t.name, 'created', t.created))
        from pg_temp.import_note_types t
      ), '[]')
    )
    where id = p_job_id
    returning * into job;
    return job;
  end if;

  delete from private.import_batches where job_id = p_job_id;
  if in_steps then
    -- The caller's schedules of the deck's cards are written: the member
    -- trigger would rewrite each (add_member_card_states); only a card added
    -- some other way meanwhile gets its 'new' one here.
    perform set_config('engram.writing_own_schedules', 'on', true);
    insert into public.deck_members (deck_id, user_id, role) values (job.deck_id, uid, 'owner')
    on conflict do nothing;
    perform set_config('engram.writing_own_schedules', 'off', true);
    insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
    select uid, c.id, c.deck_id, c.created_at, c.note_id, c.ordinal
    from public.cards c
    where c.deck_id = job.deck_id
      and not exists (select 1 from public.card_states s where s.user_id = uid and s.card_id = c.id);
  end if;
  update public.import_jobs set
    status = 'done',
    processed = coalesce(total, processed),
    error = null,
    summary = p_summary || jsonb_build_object(
      'notes_added', coalesce((job.finishing ->> 'notes_added')::integer, 0) + added,
      'notes_updated', updated,
      'notes_skipped', coalesce((job.finishing ->> 'notes_skipped')::integer, 0) + skipped,
      'cards', coalesce((job.finishing ->> 'cards')::integer, 0) + card_count,
      'reviews_added', coalesce((job.finishing ->> 'reviews_added')::integer, 0) + reviews_added,
      'note_types', coalesce((
        select jsonb_agg(jsonb_build_object('id', t.note_type_id, 'name', t.name, 'created', t.created) order by t.name)
        from pg_temp.import_note_types t
      ), '[]')
    )
  where id = p_job_id
  returning * into job;
  return job;
end
$$;

alter function public.finish_import(uuid, jsonb, boolean) set statement_timeout = '60s';
alter function public.finish_import(uuid, jsonb, boolean) set jit = off;
