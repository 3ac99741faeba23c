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

insert into private.review_log_decks (log_id, deck_id)
select l.id, coalesce(s.deck_id, c.deck_id)
from public.review_logs l
join public.cards c on c.id = l.card_id
left join public.card_states s on s.user_id = l.user_id and s.card_id = l.card_id
where not (l.previous ? 'deck_id');

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
create index review_deck_counts_deck_idx on private.review_deck_counts (deck_id);
-- today's answers in every deck, for the study queue's limits
create index review_deck_counts_slot_idx on private.review_deck_counts (user_id, slot);

-- Suspended schedules by user and deck: with card_states_queue_idx (those not
-- suspended) the stats count a user's cards by state from indexes alone.
create index card_states_suspended_idx on public.card_states (user_id, deck_id) where suspended;

-- The decks each user has answers in, so the stats find the ones they left
-- without reading the counts.
create table private.review_decks (
  user_id uuid not null references auth.users (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  primary key (user_id, deck_id)
);
create index review_decks_deck_idx on private.review_decks (deck_id);

alter table private.review_counts enable row level security;
alter table private.review_deck_counts enable row level security;
alter table private.review_decks enable row level security;
revoke all on private.review_counts, private.review_deck_counts, private.review_decks
  from public, anon, authenticated, service_role;

create temporary table review_backfill on commit drop as
select l.user_id, coalesce((l.previous ->> 'deck_id')::uuid, n.deck_id) as deck_id,
       private.review_slot(l.reviewed_at) as slot, l.state, l.rating,
       private.review_is_mature(l.state, l.previous, l.elapsed_days) as mature,
       count(*)::integer as reviews, sum(l.duration_ms)::bigint as duration_ms
from public.review_logs l
left join private.review_log_decks n on n.log_id = l.id
group by 1, 2, 3, 4, 5, 6;

insert into private.review_counts (user_id, slot, state, rating, mature, reviews, duration_ms)
select user_id, slot, state, rating, mature, sum(reviews), sum(duration_ms)
from review_backfill group by 1, 2, 3, 4, 5;
insert into private.review_deck_counts (user_id, deck_id, slot, state, rating, mature, reviews, duration_ms)
select b.* from review_backfill b join public.decks d on d.id = b.deck_id;
insert into private.review_decks (user_id, deck_id)
select distinct b.user_id, b.deck_id from review_backfill b join public.decks d on d.id = b.deck_id;
drop table review_backfill;

-- Statement-level, so an import of 100,000 answers adds them in one pass.
create function private.count_added_reviews() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  with added as materialized (
    select l.id, l.user_id, l.previous ? 'deck_id' as deck_in_log,
           coalesce((l.previous ->> 'deck_id')::uuid, s.deck_id, c.deck_id) as deck_id,
           private.review_slot(l.reviewed_at) as slot, l.state, l.rating,
           private.review_is_mature(l.state, l.previous, l.elapsed_days) as mature, l.duration_ms
    from added_logs l
    left join public.card_states s on s.user_id = l.user_id and s.card_id = l.card_id
    left join public.cards c on c.id = l.card_id
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
revoke execute on function private.count_added_reviews(), private.uncount_removed_reviews() from public;
revoke execute on function private.review_slot(timestamptz),
  private.review_is_mature(public.card_state, jsonb, integer) from public;
grant execute on function private.review_slot(timestamptz),
  private.review_is_mature(public.card_state, jsonb, integer) to authenticated, service_role;

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

-- A user's answers by study day, state, rating and maturity, from the
-- rollups: one deck's, or all their decks' (their total less the decks they
-- have left: leaving a deck drops its figures), for the study days p_from to
-- p_to in their timezone and day start. Each study day's bounds are worked out
-- once and its slots read by index range, day by day (lateral, kept apart
-- by "offset 0", so no plan compares every slot with every day): converting every slot's time to the
-- user's timezone instead cost more than reading it.
create function private.answers_by_day(p_user uuid, p_deck_id uuid, p_timezone text, p_day_start integer,
  p_from date, p_to date)
returns table (day date, state public.card_state, rating smallint, mature boolean, reviews bigint, duration_ms bigint)
language sql stable
set search_path = ''
-- Planned without its arguments, the body looks big enough to JIT compile,
-- which took longer than reading the counts (as for study_queue).
set jit = off
as $$
  with days as materialized (
    -- as private.study_day bounds them
    select g.day::date as day,
           (g.day + make_interval(hours => p_day_start)) at time zone p_timezone as day_start,
           (g.day + interval '1 day' + make_interval(hours => p_day_start)) at time zone p_timezone as day_end
    from generate_series(p_from::timestamp, p_to::timestamp, interval '1 day') as g(day)
  ),
  left_decks as materialized (
    select k.deck_id from private.review_decks k
    where p_deck_id is null and k.user_id = p_user
      and not exists (select 1 from public.deck_members m where m.deck_id = k.deck_id and m.user_id = p_user)
  ),
  counts as (
    select d.day, r.state, r.rating, r.mature, r.reviews, r.duration_ms
    from days d
    cross join lateral (
      select r.state, r.rating, r.mature, r.reviews, r.duration_ms from private.review_counts r
      where r.user_id = p_user and r.slot >= d.day_start and r.slot < d.day_end
      offset 0
    ) r
    where p_deck_id is null
    union all
    select d.day, c.state, c.rating, c.mature, -c.reviews, -c.duration_ms
    from left_decks k
    cross join days d
    cross join lateral (
      select c.state, c.rating, c.mature, c.reviews, c.duration_ms from private.review_deck_counts c
      where c.user_id = p_user and c.deck_id = k.deck_id and c.slot >= d.day_start and c.slot < d.day_end
      offset 0
    ) c
    union all
    select d.day, c.state, c.rating, c.mature, c.reviews, c.duration_ms
    from days d
    cross join lateral (
      select c.state, c.rating, c.mature, c.reviews, c.duration_ms from private.review_deck_counts c
      where c.user_id = p_user and c.deck_id = p_deck_id and c.slot >= d.day_start and c.slot < d.day_end
      offset 0
    ) c
    where p_deck_id is not null
  )
  select day, state, rating, mature, sum(reviews)::bigint, sum(duration_ms)::bigint
  from counts
  group by 1, 2, 3, 4
  having sum(reviews) > 0
$$;

revoke execute on function private.answers_by_day(uuid, uuid, text, integer, date, date) from public;
grant execute on function private.answers_by_day(uuid, uuid, text, integer, date, date) to authenticated, service_role;

-- As in 20261122090600, in the same shape: answers come from the rollup, and
-- the schedules are read in one grouped pass (forecast, due today and card
-- counts alike).
create or replace function public.user_stats(p_deck_id uuid default null, p_now timestamptz default null) returns jsonb
language plpgsql stable security definer
set search_path = ''
set jit = off
as $$
declare
  uid uuid := private.require_user();
  me public.profiles;
  at_time timestamptz := coalesce(p_now, now());
  today date;
  result jsonb;
begin
  select * into me from public.profiles where id = uid;
  if p_deck_id is not null and private.deck_role(p_deck_id) is null then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  today := private.study_date(at_time, me.timezone, me.day_starts_at);

  with answers as materialized (
    select a.day, a.state, a.rating, a.reviews
    from private.answers_by_day(uid, p_deck_id, me.timezone, me.day_starts_at, today - 366, today) a
  ),
  active_days as (
    select distinct day from answers
  ),
  anchor as (
    select case when exists (select 1 from active_days where day = today) then today else today - 1 end as day
  ),
  streak as (
    select count(*)::integer as days
    from (select day, row_number() over (order by day desc) as n from active_days) d, anchor
    where d.day = anchor.day - (d.n - 1)::integer
  ),
  my_decks as materialized (
    select d.id from public.deck_members m
    join public.decks d on d.id = m.deck_id and d.archived_at is null
    where m.user_id = uid and (p_deck_id is null or d.id = p_deck_id)
  ),
  -- Counted from indexes alone: card_states_queue_idx holds the schedules
  -- not suspended, card_states_suspended_idx the others.
  schedules as (
    select s.state, false as suspended, count(*) as n
    from public.card_states s
    where s.user_id = uid and not s.suspended and s.deck_id in (select id from my_decks)
    group by 1
    union all
    select null, true, count(*)
    from public.card_states s
    where s.user_id = uid and s.suspended and s.deck_id in (select id from my_decks)
  ),
  -- Only what falls due within the forecast needs its study day worked out
  -- (overdue ones count today).
  due_soon as materialized (
    select greatest(((s.due at time zone me.timezone) - make_interval(hours => me.day_starts_at))::date, today) as due_day,
           count(*) as n
    from public.card_states s
    where s.user_id = uid and s.state <> 'new' and not s.suspended
      and s.due < (private.study_day(me.timezone, me.day_starts_at,
                     (today + 29 + make_interval(hours => me.day_starts_at)) at time zone me.timezone)).day_end
      and s.deck_id in (select id from my_decks)
    group by 1
  )
  select jsonb_build_object(
    'today', today,
    'streak', (select days from streak),
    'reviewed_today', (select coalesce(sum(reviews), 0) from answers where day = today),
    'new_today', (select coalesce(sum(reviews), 0) from answers where day = today and state = 'new'),
    'due_today', (select coalesce(sum(n), 0) from due_soon where due_day = today),
    'heatmap', coalesce((
      select jsonb_agg(jsonb_build_object('date', day, 'reviews', n) order by day)
      from (select day, sum(reviews) as n from answers where day > today - 365 group by day) h
    ), '[]'::jsonb),
    'answers_per_day', coalesce((
      select jsonb_agg(jsonb_build_object(
        'date', day, 'again', again, 'hard', hard, 'good', good, 'easy', easy) order by day)
      from (
        select day,
               coalesce(sum(reviews) filter (where rating = 1), 0) as again,
               coalesce(sum(reviews) filter (where rating = 2), 0) as hard,
               coalesce(sum(reviews) filter (where rating = 3), 0) as good,
               coalesce(sum(reviews) filter (where rating = 4), 0) as easy
        from answers where day > today - 30 group by day
      ) a
    ), '[]'::jsonb),
    'retention', (
      select jsonb_build_object(
        'reviews', coalesce(sum(reviews), 0),
        'passed', coalesce(sum(reviews) filter (where rating > 1), 0),
        'rate', case when coalesce(sum(reviews), 0) = 0 then null
                     else round(coalesce(sum(reviews) filter (where rating > 1), 0)::numeric / sum(reviews), 4) end)
      from answers where state = 'review' and day > today - 30
    ),
    'forecast', (
      select jsonb_agg(jsonb_build_object('date', f.day, 'due', coalesce(c.n, 0)) order by f.day)
      from generate_series(today, today + 29, interval '1 day') as g(at_day)
      cross join lateral (select g.at_day::date as day) f
      left join due_soon c on c.due_day = f.day
    ),
    'card_counts', (
      select jsonb_build_object(
        'new', coalesce(sum(n) filter (where state = 'new' and not suspended), 0),
        'learning', coalesce(sum(n) filter (where state = 'learning' and not suspended), 0),
        'review', coalesce(sum(n) filter (where state = 'review' and not suspended), 0),
        'relearning', coalesce(sum(n) filter (where state = 'relearning' and not suspended), 0),
        'suspended', coalesce(sum(n) filter (where suspended), 0))
      from schedules
    )
  ) into result;
  return result;
end
$$;

-- The stats screen's answer figures over the last p_days study days (30, 90
-- or 365) for all the caller's decks or one: answers per day by the card's
-- state before the answer, with their time; true retention for young and
-- mature cards per period; and the answer buttons pressed.
create function public.review_stats(p_deck_id uuid default null, p_days integer default 30, p_now timestamptz default null)
returns jsonb
language plpgsql stable security definer
set search_path = ''
set jit = off
as $$
declare
  uid uuid := private.require_user();
  me public.profiles;
  today date;
  result jsonb;
begin
  if p_days is null or p_days not in (30, 90, 365) then
    perform private.fail('22023', 'days must be 30, 90 or 365', 'days');
  end if;
  if p_deck_id is not null and private.deck_role(p_deck_id) is null then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  select * into me from public.profiles where id = uid;
  today := private.study_date(coalesce(p_now, now()), me.timezone, me.day_starts_at);

  with answers as materialized (
    select a.day, a.state, a.rating, a.mature, a.reviews, a.duration_ms
    from private.answers_by_day(uid, p_deck_id, me.timezone, me.day_starts_at, today - 364, today) a
  ),
  in_period as (
    select * from answers where day > today - p_days
  ),
  periods (period, first_day, ord) as (
    values ('today', today, 1), ('yesterday', today - 1, 2), ('week', today - 6, 3),
           ('month', today - 29, 4), ('year', today - 364, 5)
  ),
  retention as (
    select p.period, p.ord,
           coalesce(sum(a.reviews) filter (where not a.mature and a.rating > 1), 0) as young_passed,
           coalesce(sum(a.reviews) filter (where not a.mature and a.rating = 1), 0) as young_failed,
           coalesce(sum(a.reviews) filter (where a.mature and a.rating > 1), 0) as mature_passed,
           coalesce(sum(a.reviews) filter (where a.mature and a.rating = 1), 0) as mature_failed
    from periods p
    left join answers a on a.state = 'review' and a.day >= p.first_day
      and a.day <= case when p.period = 'yesterday' then today - 1 else today end
    group by p.period, p.ord
  ),
  buttons as (
    select case when state <> 'review' then 'learning' when mature then 'mature' else 'young' end as kind,
           jsonb_build_array(
             coalesce(sum(reviews) filter (where rating = 1), 0),
             coalesce(sum(reviews) filter (where rating = 2), 0),
             coalesce(sum(reviews) filter (where rating = 3), 0),
             coalesce(sum(reviews) filter (where rating = 4), 0)) as counts
    from in_period
    group by 1
  )
  select jsonb_build_object(
    'today', today,
    'days', p_days,
    'per_day', coalesce((
      select jsonb_agg(jsonb_build_object(
        'date', day, 'new', n_new, 'learning', n_learning, 'review', n_review, 'relearning', n_relearning,
        'duration_ms', duration) order by day)
      from (
        select day,
               coalesce(sum(reviews) filter (where state = 'new'), 0) as n_new,
               coalesce(sum(reviews) filter (where state = 'learning'), 0) as n_learning,
               coalesce(sum(reviews) filter (where state = 'review'), 0) as n_review,
               coalesce(sum(reviews) filter (where state = 'relearning'), 0) as n_relearning,
               sum(duration_ms) as duration
        from in_period group by day
      ) d
    ), '[]'::jsonb),
    'retention', (
      select jsonb_agg(jsonb_build_object(
        'period', period,
        'young', jsonb_build_object('passed', young_passed, 'failed', young_failed),
        'mature', jsonb_build_object('passed', mature_passed, 'failed', mature_failed)) order by ord)
      from retention
    ),
    'buttons', jsonb_build_object(
      'learning', coalesce((select counts from buttons where kind = 'learning'), '[0, 0, 0, 0]'::jsonb),
      'young', coalesce((select counts from buttons where kind = 'young'), '[0, 0, 0, 0]'::jsonb),
      'mature', coalesce((select counts from buttons where kind = 'mature'), '[0, 0, 0, 0]'::jsonb))
  ) into result;
  return result;
end
$$;

revoke execute on function public.review_stats(uuid, integer, timestamptz) from public, anon;
grant execute on function public.review_stats(uuid, integer, timestamptz) to authenticated, service_role;

-- study_queue as in 20261122090400, counting today's answers per deck from
-- the rollup.
create or replace function public.study_queue(p_deck_id uuid default null, p_now timestamptz default null)
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
language sql stable security definer
set search_path = ''
-- The body's generic plan overestimates today's answers (~22,000 at 200,000
-- logs), which crosses jit_above_cost: JIT compiling then took ~700 ms a call.
set jit = off
as $$
  with me as (
    select p.id, p.new_per_day, p.reviews_per_day, coalesce(p_now, now()) as now_at, d.day_start, d.day_end
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, coalesce(p_now, now())) d
    where p.id = auth.uid()
  ),
  -- Today's answers per deck from the per-deck rollup (a quarter hour never
  -- straddles a study day): a few rows a deck, where reading the log took a
  -- schedule lookup per answer.
  done_today as (
    select c.deck_id,
           coalesce(sum(c.reviews) filter (where c.state = 'new'), 0) as new_done,
           coalesce(sum(c.reviews) filter (where c.state = 'review'), 0) as reviews_done
    from me
    join private.review_deck_counts c on c.user_id = me.id and c.slot >= me.day_start and c.slot < me.day_end
    group by c.deck_id
  ),
  totals as (
    select me.new_per_day - coalesce(sum(new_done), 0) as new_left,
           me.reviews_per_day - coalesce(sum(reviews_done), 0) as reviews_left
    from me left join done_today on true
    group by me.new_per_day, me.reviews_per_day
  ),
  my_decks as (
    select d.id,
           greatest(0, coalesce(d.new_per_day, me.new_per_day) - coalesce(t.new_done, 0)) as new_left,
           greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day) - coalesce(t.reviews_done, 0)) as reviews_left
    from me
    join public.deck_members m on m.user_id = me.id
    join public.decks d on d.id = m.deck_id and d.archived_at is null
    left join done_today t on t.deck_id = d.id
    where p_deck_id is null or d.id = p_deck_id
  ),
  learning as (
    select s.*, 0 as rank
    from me
    join my_decks d on true
    join public.card_states s on s.user_id = me.id and s.deck_id = d.id
    where s.state in ('learning', 'relearning') and s.due < me.day_end and not s.suspended
      and (s.buried_until is null or s.buried_until <= me.now_at)
  ),
  reviews as (
    select r.* from (
      select s.*, 1 as rank, row_number() over (order by s.due, s.card_id) as n
      from me
      join my_decks d on true
      cross join lateral (
        select * from public.card_states s
        where s.user_id = me.id and s.deck_id = d.id and s.state = 'review' and s.due < me.day_end
          and not s.suspended and (s.buried_until is null or s.buried_until <= me.now_at)
        order by s.due, s.card_id
        limit d.reviews_left
      ) s
    ) r, totals
    where r.n <= totals.reviews_left
  ),
  new_cards as (
    select c.* from (
      select s.*, 2 as rank, row_number() over (order by s.due, s.card_id) as n
      from me
      join my_decks d on true
      cross join lateral (
        select * from public.card_states s
        where s.user_id = me.id and s.deck_id = d.id and s.state = 'new'
          and not s.suspended and (s.buried_until is null or s.buried_until <= me.now_at)
        order by s.due, s.card_id
        limit d.new_left
      ) s
    ) c, totals
    where c.n <= totals.new_left
  ),
  picked as (
    select user_id, card_id, deck_id, state, due, stability, difficulty, elapsed_days, scheduled_days,
           learning_steps, reps, lapses, last_review, version, rank from learning
    union all
    select user_id, card_id, deck_id, state, due, stability, difficulty, elapsed_days, scheduled_days,
           learning_steps, reps, lapses, last_review, version, rank from reviews
    union all
    select user_id, card_id, deck_id, state, due, stability, difficulty, elapsed_days, scheduled_days,
           learning_steps, reps, lapses, last_review, version, rank from new_cards
  )
  select (row_number() over (order by p.rank, p.due, p.card_id))::integer,
         case p.rank when 0 then 'learning' when 1 then 'review' else 'new' end,
         p.card_id, c.note_id, p.deck_id, c.ordinal, n.kind, n.fields, n.tags,
         p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
         p.learning_steps, p.reps, p.lapses, p.last_review, p.version
  from picked p
  join public.cards c on c.id = p.card_id
  join public.notes n on n.id = c.note_id
  order by 1
$$;

-- deck_stats as in 20261122090600, counting today's new cards from the rollup
-- and never JIT compiled.
create or replace function public.deck_stats(p_now timestamptz default null)
returns table (
  deck_id uuid,
  name text,
  role public.deck_role,
  is_public boolean,
  note_count integer,
  card_count integer,
  new_count integer,
  learning_count integer,
  review_count integer,
  suspended_count integer,
  due_count integer,
  new_today integer
)
language sql stable security definer
set search_path = ''
-- Planned without its arguments it looks expensive enough to JIT compile,
-- which took ~230 ms a call at 100,000 cards (supabase/bench), several times
-- the query itself.
set jit = off
as $$
  with me as (
    select p.id, p.new_per_day, d.day_start, d.day_end
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, coalesce(p_now, now())) d
    where p.id = auth.uid()
  ),
  -- Today's new cards per deck from the per-deck rollup, as in study_queue.
  new_done as (
    select c.deck_id, sum(c.reviews) as n
    from me
    join private.review_deck_counts c on c.user_id = me.id and c.slot >= me.day_start and c.slot < me.day_end
    where c.state = 'new'
    group by c.deck_id
  ),
  -- Counted from indexes alone: card_states_queue_idx holds the schedules
  -- not suspended, card_states_suspended_idx the others.
  active as (
    select s.deck_id,
           count(*) filter (where s.state = 'new') as new_count,
           count(*) filter (where s.state in ('learning', 'relearning')) as learning_count,
           count(*) filter (where s.state = 'review') as review_count,
           count(*) filter (where s.state <> 'new' and s.due < me.day_end) as due_count
    from me join public.card_states s on s.user_id = me.id and not s.suspended
    group by s.deck_id
  ),
  suspended as (
    select s.deck_id, count(*) as suspended_count
    from me join public.card_states s on s.user_id = me.id and s.suspended
    group by s.deck_id
  ),
  counts as (
    select coalesce(a.deck_id, x.deck_id) as deck_id,
           a.new_count, a.learning_count, a.review_count, x.suspended_count, a.due_count
    from active a full join suspended x on x.deck_id = a.deck_id
  )
  select d.id, d.name, m.role, d.is_public,
         (select count(*) from public.notes n where n.deck_id = d.id)::integer,
         (select count(*) from public.cards c where c.deck_id = d.id)::integer,
         coalesce(k.new_count, 0)::integer,
         coalesce(k.learning_count, 0)::integer,
         coalesce(k.review_count, 0)::integer,
         coalesce(k.suspended_count, 0)::integer,
         coalesce(k.due_count, 0)::integer,
         least(coalesce(k.new_count, 0),
               greatest(0, coalesce(d.new_per_day, me.new_per_day) - coalesce(nd.n, 0)),
               -- the profile's limit spans all decks, as in study_queue
               greatest(0, me.new_per_day - (select coalesce(sum(all_done.n), 0) from new_done all_done)))::integer
  from me
  join public.deck_members m on m.user_id = me.id
  join public.decks d on d.id = m.deck_id and d.archived_at is null
  left join counts k on k.deck_id = d.id
  left join new_done nd on nd.deck_id = d.id
  order by d.name, d.id
$$;
