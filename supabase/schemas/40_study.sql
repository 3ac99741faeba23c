-- Studying: answers and their log, the rollups the stats and daily limits
-- read, the queue for today, suspending and rescheduling.
-- Scheduling itself runs on the client (@engram/core, ts-fsrs); these calls
-- store its results atomically and keep devices from overwriting each other.

-- review_logs: one row per answer, private to its user; written through RPCs.
-- Like schedules, logs hold only values FSRS can produce (see card_states).
create table public.review_logs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  card_id uuid not null references public.cards (id) on delete cascade,
  client_review_id uuid not null,
  rating smallint not null constraint review_logs_rating_range check (rating between 1 and 4),
  -- the schedule before the answer ...
  state public.card_state not null,
  due timestamptz not null,
  -- ... and after it
  stability double precision not null,
  difficulty double precision not null,
  elapsed_days integer not null,
  last_elapsed_days integer not null default 0,
  scheduled_days integer not null,
  learning_steps integer not null default 0,
  reviewed_at timestamptz not null
    constraint review_logs_reviewed_at_not_future check (reviewed_at <= created_at + interval '5 minutes'),
  duration_ms integer not null constraint review_logs_duration_range check (duration_ms between 0 and 3600000),
  -- the whole card_states row before the answer, restored by undo_review
  previous jsonb not null,
  created_at timestamptz not null default now(),
  constraint review_logs_client_review_id_key unique (user_id, client_review_id),
  constraint review_logs_stability_range check (stability between 0 and 36500),
  constraint review_logs_difficulty_range check (difficulty between 0 and 10),
  constraint review_logs_elapsed_days_range check (elapsed_days >= 0 and last_elapsed_days >= 0),
  constraint review_logs_scheduled_days_range check (scheduled_days between 0 and 36500),
  constraint review_logs_learning_steps_range check (learning_steps >= 0),
  constraint review_logs_times_finite check (isfinite(due) and isfinite(reviewed_at)),
  -- The range private.check_time allows the API's timestamp arguments.
  constraint review_logs_times_range check (
    due >= '1970-01-01 00:00:00+00' and due < '10000-01-01 00:00:00+00'
    and reviewed_at >= '1970-01-01 00:00:00+00' and reviewed_at < '10000-01-01 00:00:00+00'
  )
);
alter table public.review_logs enable row level security;
create index review_logs_user_reviewed_at_idx on public.review_logs (user_id, reviewed_at);
create index review_logs_card_id_idx on public.review_logs (card_id, reviewed_at);

create policy "users read their own review logs" on public.review_logs
  for select to authenticated using (user_id = (select auth.uid()));
create policy "two-factor sessions only" on public.review_logs as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.review_logs from anon, authenticated, service_role;
grant select, insert, update, delete on public.review_logs to service_role;
grant select on public.review_logs to authenticated;

-- Review figures from rollups instead of the raw log, so the stats stay fast
-- at a million answers: per user (and deck) and quarter hour (UTC), how many
-- answers of each kind there were and how long they took. Every timezone offset in use is a multiple of 15 minutes and a
-- study day starts on the hour, so a quarter hour never straddles a study day,
-- whatever the user's timezone and day start: summing slots by study day is
-- exact.
--
-- The one approximation: an answer counts for the deck its card was in when
-- it was answered. Moving notes to another deck (move_notes) leaves the
-- figures of their past answers with the old deck.

-- The deck of an answer: its card's deck when it was made. An answer through
-- record_review keeps the schedule it found, deck included, in "previous";
-- other logs (imports, the service role) have their deck noted here when
-- stored, so that removing one later (its card, deck or user deleted) takes it
-- off the same deck's figures.
create table private.review_log_decks (
  log_id uuid primary key,
  deck_id uuid not null
);
alter table private.review_log_decks enable row level security;
revoke all on private.review_log_decks from public, anon, authenticated, service_role;

-- The quarter hour (UTC) an answer falls in.
-- These two helpers are inlined into the queries that call them, which a
-- SET search_path clause would prevent; every name in them is qualified.
create function private.review_slot(p_at timestamptz) returns timestamptz
language sql immutable parallel safe
as $$
  select pg_catalog.date_bin('15 minutes'::interval, p_at, '2000-01-01 00:00:00+00'::timestamptz)
$$;

-- Anki's split of answers to review cards: mature when the interval before the
-- answer was 21 days or more. That interval is the schedule the answer found
-- (previous.scheduled_days); an imported answer has no stored schedule, so
-- the days since the card's previous answer (elapsed_days) stand in for it.
create function private.review_is_mature(p_state public.card_state, p_previous jsonb, p_elapsed_days integer)
returns boolean
language sql immutable parallel safe
as $$
  select p_state = 'review'::public.card_state
     and coalesce((p_previous operator(pg_catalog.->>) 'scheduled_days')::integer, p_elapsed_days) >= 21
$$;

revoke execute on function private.review_slot(timestamptz),
  private.review_is_mature(public.card_state, jsonb, integer) from anon;

-- Two rollups of the same answers. review_counts, per user and quarter hour,
-- is what "all my decks" reads: answers interleave decks (the study queue
-- mixes them), so leaving the deck out keeps it to a few rows per quarter
-- hour of study. review_deck_counts splits them by deck, for one deck's
-- figures and for taking out decks the user has left. The counts of a
-- quarter hour that no longer has answers are deleted, never kept at zero.
create table private.review_counts (
  user_id uuid not null references auth.users (id) on delete cascade,
  slot timestamptz not null,
  -- the card's state before the answer
  state public.card_state not null,
  rating smallint not null,
  -- review-state answers with an interval of 21 days or more before them; false for other states
  mature boolean not null,
  reviews integer not null,
  duration_ms bigint not null,
  primary key (user_id, slot, state, rating, mature)
);
alter table private.review_counts enable row level security;
revoke all on private.review_counts from public, anon, authenticated, service_role;

create table private.review_deck_counts (
  user_id uuid not null references auth.users (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  slot timestamptz not null,
  state public.card_state not null,
  rating smallint not null,
  mature boolean not null,
  reviews integer not null,
  duration_ms bigint not null,
  primary key (user_id, deck_id, slot, state, rating, mature)
);
alter table private.review_deck_counts enable row level security;
revoke all on private.review_deck_counts from public, anon, authenticated, service_role;
create index review_deck_counts_deck_idx on private.review_deck_counts (deck_id);
-- today's answers in every deck, for the study queue's limits
create index review_deck_counts_slot_idx on private.review_deck_counts (user_id, slot);

-- The decks each user has answers in, so the stats find the ones they left
-- without reading the counts.
create table private.review_decks (
  user_id uuid not null references auth.users (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  primary key (user_id, deck_id)
);
alter table private.review_decks enable row level security;
revoke all on private.review_decks from public, anon, authenticated, service_role;
create index review_decks_deck_idx on private.review_decks (deck_id);

-- Statement-level, so an import of 100,000 answers adds them in one pass.
create function private.count_added_reviews() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  with added as materialized (
    select l.id, l.user_id, l.previous ? 'deck_id' as deck_in_log,
           -- Answers and imports name their deck in the log; the schedule and
           -- the card are read only for a log that does not (coalesce stops
           -- at the first value), not twice per answer of a 100,000-answer import.
           coalesce(
             (l.previous ->> 'deck_id')::uuid,
             (select s.deck_id from public.card_states s where s.user_id = l.user_id and s.card_id = l.card_id),
             (select c.deck_id from public.cards c where c.id = l.card_id)
           ) as deck_id,
           private.review_slot(l.reviewed_at) as slot, l.state, l.rating,
           private.review_is_mature(l.state, l.previous, l.elapsed_days) as mature, l.duration_ms
    from added_logs l
  ),
  noted as (
    insert into private.review_log_decks (log_id, deck_id)
    select id, deck_id from added where not deck_in_log
    on conflict (log_id) do update set deck_id = excluded.deck_id
  ),
  by_deck as materialized (
    select user_id, deck_id, slot, state, rating, mature, count(*)::integer as reviews, sum(duration_ms) as duration_ms
    from added
    group by 1, 2, 3, 4, 5, 6
  ),
  decks_counted as (
    insert into private.review_deck_counts as r (user_id, deck_id, slot, state, rating, mature, reviews, duration_ms)
    -- (a deck deleted meanwhile has no figures left to add to)
    select b.* from by_deck b join public.decks d on d.id = b.deck_id
    on conflict (user_id, deck_id, slot, state, rating, mature) do update
      set reviews = r.reviews + excluded.reviews, duration_ms = r.duration_ms + excluded.duration_ms
  ),
  decks_listed as (
    insert into private.review_decks (user_id, deck_id)
    select distinct b.user_id, b.deck_id from by_deck b join public.decks d on d.id = b.deck_id
    on conflict do nothing
  )
  insert into private.review_counts as r (user_id, slot, state, rating, mature, reviews, duration_ms)
  select user_id, slot, state, rating, mature, sum(reviews), sum(duration_ms)
  from by_deck
  group by 1, 2, 3, 4, 5
  on conflict (user_id, slot, state, rating, mature) do update
    set reviews = r.reviews + excluded.reviews, duration_ms = r.duration_ms + excluded.duration_ms;
  return null;
end
$$;

-- Undo, and logs leaving with their card, deck or user. When the deck itself
-- is being deleted its counts may already be gone; then only the user's
-- total changes.
create function private.uncount_removed_reviews() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  with removed as materialized (
    select l.id, l.user_id, coalesce((l.previous ->> 'deck_id')::uuid, n.deck_id) as deck_id,
           private.review_slot(l.reviewed_at) as slot, l.state, l.rating,
           private.review_is_mature(l.state, l.previous, l.elapsed_days) as mature, l.duration_ms
    from removed_logs l
    left join private.review_log_decks n on n.log_id = l.id
  ),
  by_deck as materialized (
    select user_id, deck_id, slot, state, rating, mature, count(*)::integer as reviews, sum(duration_ms) as duration_ms
    from removed
    group by 1, 2, 3, 4, 5, 6
  ),
  decks_uncounted as (
    update private.review_deck_counts r
    set reviews = r.reviews - g.reviews, duration_ms = r.duration_ms - g.duration_ms
    from by_deck g
    where r.user_id = g.user_id and r.deck_id = g.deck_id and r.slot = g.slot
      and r.state = g.state and r.rating = g.rating and r.mature = g.mature
  )
  update private.review_counts r
  set reviews = r.reviews - g.reviews, duration_ms = r.duration_ms - g.duration_ms
  from (
    select user_id, slot, state, rating, mature, sum(reviews) as reviews, sum(duration_ms) as duration_ms
    from by_deck group by 1, 2, 3, 4, 5
  ) g
  where r.user_id = g.user_id and r.slot = g.slot
    and r.state = g.state and r.rating = g.rating and r.mature = g.mature;

  delete from private.review_counts r
  using (select distinct l.user_id, private.review_slot(l.reviewed_at) as slot from removed_logs l) g
  where r.user_id = g.user_id and r.slot = g.slot and r.reviews <= 0;
  delete from private.review_deck_counts r
  using (
    select distinct l.user_id, coalesce((l.previous ->> 'deck_id')::uuid, n.deck_id) as deck_id,
           private.review_slot(l.reviewed_at) as slot
    from removed_logs l left join private.review_log_decks n on n.log_id = l.id
  ) g
  where r.user_id = g.user_id and r.deck_id = g.deck_id and r.slot = g.slot and r.reviews <= 0;
  delete from private.review_log_decks n using removed_logs l where n.log_id = l.id;
  return null;
end
$$;

revoke execute on function private.count_added_reviews(), private.uncount_removed_reviews()
  from anon, authenticated, service_role;

create trigger review_logs_count_inserted after insert on public.review_logs
  referencing new table as added_logs
  for each statement execute function private.count_added_reviews();
create trigger review_logs_uncount_deleted after delete on public.review_logs
  referencing old table as removed_logs
  for each statement execute function private.uncount_removed_reviews();
-- Nothing updates logs through the API; the service role may, so an update
-- moves the answer between rows as a delete and an insert would. Triggers
-- fire in name order: the old rows are taken off before the new ones count.
create trigger review_logs_update_1_uncount after update on public.review_logs
  referencing old table as removed_logs
  for each statement execute function private.uncount_removed_reviews();
create trigger review_logs_update_2_count after update on public.review_logs
  referencing new table as added_logs
  for each statement execute function private.count_added_reviews();

-- Leeches, as Anki has them: a card its user keeps forgetting. When an
-- answer of "again" to a review card brings its lapses to the deck's
-- threshold, and again every half threshold after that (8, 12, 16 … for 8),
-- the card is marked a leech and, unless the deck only tags leeches,
-- suspended. Anki tags the note; notes here are shared by every member of a
-- deck, so the mark stays on the user's own schedule (card_states.leech_at)
-- and nobody else sees one member's struggle.
-- Anki's rule: at the threshold, then every half threshold (rounded up) after it.
create function private.is_leech_lapse(p_lapses integer, p_threshold integer) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select p_lapses >= p_threshold and (p_lapses - p_threshold) % greatest(1, ceil(p_threshold / 2.0)::integer) = 0
$$;

revoke execute on function private.is_leech_lapse(integer, integer) from anon;

-- Stores one answer: the review log and the card's new schedule, in one
-- transaction. Retrying with the same client_review_id returns the stored
-- result and changes nothing. An answer computed from an older schedule than
-- the stored one (another device answered first) is refused with PT409 and
-- the current schedule in the error detail, so the client can recompute.
-- It names the argument at fault (22023) before the schedule constraints
-- would refuse it (23514). A lapse that reaches the deck's leech threshold
-- marks the card a leech, and suspends it when the deck says so.
create function public.record_review(
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

-- Takes back an answer: restores the schedule from before it and deletes its
-- log. Only the latest answer of a card can be undone (PT409 otherwise); an
-- imported answer has no schedule stored from before it, so it is refused
-- instead of restoring an empty one. Undoing the answer that marked a leech
-- takes the mark back and puts the suspension as it was before that answer.
-- The restored schedule meets the constraints like any other write.
create function public.undo_review(p_client_review_id uuid) returns public.card_states
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  log_row public.review_logs;
  current_row public.card_states;
  before public.card_states;
  marked_leech boolean;
begin
  select * into log_row from public.review_logs where user_id = uid and client_review_id = p_client_review_id;
  if log_row.id is null then
    perform private.fail('PT404', 'review not found', 'client_review_id');
  elsif not (log_row.previous ? 'state') then
    perform private.fail('22023', 'an imported answer cannot be undone', 'client_review_id');
  end if;
  select * into current_row from public.card_states where user_id = uid and card_id = log_row.card_id for update;
  if exists (
    select 1 from public.review_logs
    where user_id = uid and card_id = log_row.card_id
      and (reviewed_at, created_at) > (log_row.reviewed_at, log_row.created_at)
  ) then
    perform private.fail('PT409', 'a later answer of this card must be undone first', to_jsonb(current_row)::text);
  end if;

  before := jsonb_populate_record(null::public.card_states, log_row.previous);
  -- Only this answer can have set leech_at to its own time (it is the card's latest).
  marked_leech := coalesce(
    current_row.leech_at = log_row.reviewed_at and before.leech_at is distinct from current_row.leech_at,
    false
  );
  update public.card_states set
    state = before.state,
    due = before.due,
    stability = before.stability,
    difficulty = before.difficulty,
    elapsed_days = before.elapsed_days,
    scheduled_days = before.scheduled_days,
    learning_steps = before.learning_steps,
    reps = before.reps,
    lapses = before.lapses,
    last_review = before.last_review,
    buried_until = before.buried_until,
    leech_at = case when marked_leech then before.leech_at else current_row.leech_at end,
    suspended = case when marked_leech then before.suspended else current_row.suspended end,
    version = current_row.version + 1,
    updated_at = now()
  where user_id = uid and card_id = log_row.card_id
  returning * into current_row;
  delete from public.review_logs where id = log_row.id;
  return current_row;
end
$$;

-- Suspends or unsuspends the caller's own schedule of the given cards.
-- Returns how many cards changed.
create function public.set_suspended(p_card_ids uuid[], p_suspended boolean) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  changed integer;
begin
  if p_suspended is null then
    perform private.fail('22023', 'suspended must be true or false', 'suspended');
  end if;
  if exists (
    select 1 from unnest(p_card_ids) as wanted(id)
    left join public.cards c on c.id = wanted.id
    where c.id is null or private.deck_role(c.deck_id) is null
  ) then
    perform private.fail('PT404', 'card not found', 'card_ids');
  end if;
  update public.card_states set suspended = p_suspended, updated_at = now()
  where user_id = uid and card_id = any (p_card_ids) and suspended is distinct from p_suspended;
  get diagnostics changed = row_count;
  return changed;
end
$$;

revoke execute on function public.record_review, public.undo_review, public.set_suspended from public, anon;
grant execute on function public.record_review, public.undo_review, public.set_suspended to authenticated, service_role;

-- Bury siblings, and daily limits counted as a session gives them.
--
-- Cards of one note (a reversed pair, the cards of a cloze note) are not
-- studied the same day, as Anki's "bury siblings" deck options do it: today's
-- queue takes one card of a note from each buried category and leaves the
-- others for another day, and once a card of a note is answered its siblings
-- of the buried categories wait until the next study day.
--
-- Burying is derived, not stored: a sibling is left out while the note has an
-- answer today (in review_logs) or a card ahead of it in today's queue. So
-- undo_review, which deletes the answer, brings the siblings back with no
-- bookkeeping, and a new study day ends every bury by itself.
--
-- The queue and the deck list's counts read one definition of what a session
-- gives, private.session_cards. Each deck has its own allowance (its limit, or
-- the profile's as a default, less what was studied in it today) and studying
-- all decks gives the sum, as Anki's presets do: a deck imported today gets
-- its full new-card allowance.

-- More new cards today (custom study): what a user added to one deck's
-- new-card limit for one study day, as if the deck's limit were that much
-- higher that day. Written by public.extend_study_day, read by
-- private.session_cards and the deck list's figures; a past day's row is
-- never read again.
create table public.study_day_extras (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  study_date date not null,
  extra_new integer not null constraint study_day_extras_extra_new_range check (extra_new between 1 and 9999),
  updated_at timestamptz not null default now(),
  primary key (user_id, deck_id, study_date)
);
alter table public.study_day_extras enable row level security;
create index study_day_extras_deck_id_idx on public.study_day_extras (deck_id);

create policy "users read their own study day extras" on public.study_day_extras
  for select to authenticated using (user_id = (select auth.uid()));
create policy "two-factor sessions only" on public.study_day_extras as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.study_day_extras from anon, authenticated, service_role;
grant select, insert, update, delete on public.study_day_extras to service_role;
grant select on public.study_day_extras to authenticated;

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
create function private.session_cards(p_user_id uuid, p_deck_id uuid, p_now timestamptz)
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

revoke execute on function private.session_cards(uuid, uuid, timestamptz) from anon, authenticated, service_role;

-- The caller's study session (private.session_cards) with each card's note,
-- read by primary key for the cards the session gives.
-- It reads the caller's rows as their owner (security definer, keyed on
-- auth.uid()), so no policy sees them: public.study_queue checks the session
-- first.
create function private.study_queue_for_caller(p_deck_id uuid default null, p_now timestamptz default null)
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
  version integer
)
language plpgsql stable security definer
set search_path = ''
set jit = off
as $$
#variable_conflict use_column
begin
  return query
    select p."position", p.queue, p.card_id, p.note_id, p.deck_id, p.ordinal, n.kind, n.fields, n.tags,
           p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
           p.learning_steps, p.reps, p.lapses, p.last_review, p.version
    from private.session_cards(auth.uid(), p_deck_id, coalesce(p_now, now())) p
    join public.notes n on n.id = p.note_id
    order by p."position";
end
$$;

revoke execute on function private.study_queue_for_caller(uuid, timestamptz) from anon, authenticated;

-- The cards to study today, in study order: learning cards due today, then
-- reviews due today, then new cards, each deck within its own allowance.
-- Refuses a session that still owes its second factor, as the policies do.
-- It joins the session to its notes itself rather than reading
-- private.study_queue_for_caller: one copy of the whole session less.
create function public.study_queue(p_deck_id uuid default null, p_now timestamptz default null)
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
  version integer
)
language plpgsql stable security definer
set search_path = ''
-- Planned without its arguments the query looks expensive enough to JIT
-- compile, which took far longer than the query (as for session_cards).
set jit = off
as $$
#variable_conflict use_column
begin
  if not private.aal_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  perform private.check_time(p_now, 'now');
  return query
    select p."position", p.queue, p.card_id, p.note_id, p.deck_id, p.ordinal, n.kind, n.fields, n.tags,
           p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
           p.learning_steps, p.reps, p.lapses, p.last_review, p.version
    from private.session_cards(auth.uid(), p_deck_id, coalesce(p_now, now())) p
    join public.notes n on n.id = p.note_id
    order by p."position";
end
$$;

revoke execute on function public.study_queue(uuid, timestamptz) from public, anon;
grant execute on function public.study_queue(uuid, timestamptz) to authenticated, service_role;

-- Rescheduling after the FSRS parameters change ("reschedule cards on
-- change").
--
-- The device replays each card's answers with the new parameters and sends
-- the results; reschedule_cards applies them to the caller's own schedules in
-- one statement, all or nothing. A row is
--   [card_id, version, stability, difficulty, scheduled_days | null]
-- (arrays, not objects: 100,000 cards must fit in one request). `version` is
-- the card_states version the schedule was computed from; `scheduled_days`
-- null keeps the card's due date (learning, relearning and suspended cards),
-- otherwise the card comes due that many days after its last answer, as
-- record_review's schedules do (24-hour days: ts-fsrs counts in UTC).
--
-- Few passes over 100,000 rows: the JSON is checked once and parsed once into
-- arrays (a uuid regex per row costs as much as the update), and the cards
-- the batch may not name (not the caller's, never studied) are counted by the
-- update's own join and refused after it, which rolls it back, instead of
-- being looked up first. The update finds each row again by its ctid, not
-- through the index a second time.
create function public.reschedule_cards(p_schedules jsonb) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  problem record;
  card_ids uuid[];
  versions integer[];
  stabilities double precision[];
  difficulties double precision[];
  intervals integer[];
  outcome record;
begin
  if p_schedules is null or jsonb_typeof(p_schedules) <> 'array' then
    perform private.fail('22023', 'schedules must be an array of [card_id, version, stability, difficulty, scheduled_days]', 'schedules');
  end if;

  -- The bounds record_review checks, named per field; the first bad row refuses the batch.
  select n, field into problem
  from (
    select e.n, case
        when jsonb_typeof(e.v) <> 'array' or jsonb_array_length(e.v) <> 5 then 'schedules'
        when jsonb_typeof(e.v -> 0) <> 'string' or length(e.v ->> 0) <> 36 then 'card_id'
        when jsonb_typeof(e.v -> 1) <> 'number' or (e.v -> 1)::numeric not between 0 and 2147483647
          or (e.v -> 1)::numeric <> trunc((e.v -> 1)::numeric) then 'version'
        when jsonb_typeof(e.v -> 2) <> 'number' or (e.v -> 2)::numeric not between 0 and 36500 then 'stability'
        when jsonb_typeof(e.v -> 3) <> 'number' or (e.v -> 3)::numeric not between 0 and 10 then 'difficulty'
        when jsonb_typeof(e.v -> 4) = 'null' then null
        when jsonb_typeof(e.v -> 4) <> 'number' or (e.v -> 4)::numeric not between 0 and 36500
          or (e.v -> 4)::numeric <> trunc((e.v -> 4)::numeric) then 'scheduled_days'
      end as field
    from jsonb_array_elements(p_schedules) with ordinality as e (v, n)
  ) checked
  where field is not null
  order by n
  limit 1;
  if found then
    perform private.fail('22023', format('schedule %s: %s', problem.n, case problem.field
      when 'schedules' then 'each schedule must be [card_id, version, stability, difficulty, scheduled_days]'
      when 'card_id' then 'card_id must be a uuid'
      when 'version' then 'version must be a whole number from 0'
      when 'stability' then 'stability must be a number from 0 to 36500'
      when 'difficulty' then 'difficulty must be a number from 0 to 10'
      else 'scheduled_days must be null or a whole number from 0 to 36500'
    end), problem.field);
  end if;

  begin
    select array_agg((v ->> 0)::uuid), array_agg((v -> 1)::integer), array_agg((v -> 2)::double precision),
      array_agg((v -> 3)::double precision), array_agg((v ->> 4)::integer)
    into card_ids, versions, stabilities, difficulties, intervals
    from jsonb_array_elements(p_schedules) as v;
  exception when invalid_text_representation then
    perform private.fail('22023', 'card_id must be a uuid', 'card_id');
  end;
  if card_ids is null then
    return jsonb_build_object('earlier', 0, 'later', 0, 'unchanged', 0, 'skipped', 0);
  end if;
  if (select count(distinct c) from unnest(card_ids) as c) < cardinality(card_ids) then
    select c into problem from unnest(card_ids) as c group by c having count(*) > 1 limit 1;
    perform private.fail('22023', format('card %s is scheduled twice', problem.c), 'card_id');
  end if;

  -- One set-based update. A schedule computed from an older version (the card was
  -- answered or reset meanwhile) is skipped; one the card already has changes
  -- nothing, so a retry of the same batch reports those cards unchanged.
  with input as (
    select * from unnest(card_ids, versions, stabilities, difficulties, intervals)
      as i (card_id, version, stability, difficulty, scheduled_days)
  ),
  target as (
    select s.ctid as row_id, i.version = s.version as current, s.due as old_due,
      s.state = 'new' or s.last_review is null as unstudied,
      i.stability, i.difficulty,
      coalesce(s.last_review + make_interval(hours => 24 * i.scheduled_days), s.due) as due,
      coalesce(i.scheduled_days, s.scheduled_days) as scheduled_days,
      (s.stability, s.difficulty, s.scheduled_days) is not distinct from
        (i.stability, i.difficulty, coalesce(i.scheduled_days, s.scheduled_days))
        and s.due is not distinct from coalesce(s.last_review + make_interval(hours => 24 * i.scheduled_days), s.due)
        as same
    from input i
    join public.card_states s on s.user_id = uid and s.card_id = i.card_id
  ),
  applied as (
    update public.card_states s set
      stability = t.stability,
      difficulty = t.difficulty,
      due = t.due,
      scheduled_days = t.scheduled_days,
      version = s.version + 1,
      updated_at = now()
    from target t
    where s.ctid = t.row_id and s.user_id = uid and t.current and not t.unstudied and not t.same
    returning t.old_due, t.due
  )
  select
    (select count(*) from target) as found,
    (select count(*) from target where current and unstudied) as unstudied,
    (select count(*) from target where not current and not same) as skipped,
    (select count(*) from applied where due < old_due) as earlier,
    (select count(*) from applied where due > old_due) as later
  into outcome;

  -- Refused after the fact: raising here undoes the update above.
  if outcome.found < cardinality(card_ids) then
    select i.c into problem from unnest(card_ids) as i (c)
    where not exists (select 1 from public.card_states s where s.user_id = uid and s.card_id = i.c)
    limit 1;
    perform private.fail('PT404', format('card %s not found', problem.c), 'card_id');
  elsif outcome.unstudied > 0 then
    select i.c into problem from unnest(card_ids, versions) as i (c, v)
    join public.card_states s on s.user_id = uid and s.card_id = i.c
    where s.version = i.v and (s.state = 'new' or s.last_review is null)
    limit 1;
    perform private.fail('22023', format('card %s has no answer to schedule from', problem.c), 'card_id');
  end if;
  return jsonb_build_object(
    'earlier', outcome.earlier,
    'later', outcome.later,
    'unchanged', outcome.found - outcome.earlier - outcome.later - outcome.skipped,
    'skipped', outcome.skipped
  );
end
$$;

revoke execute on function public.reschedule_cards(jsonb) from public, anon;
grant execute on function public.reschedule_cards(jsonb) to authenticated, service_role;
