-- Figures for the dashboard, the deck list and the stats screen, by the
-- caller's study day, and what the workload simulator starts from.

-- Cards by state kept by the database: a row per user, deck, state and
-- suspension with how many schedules it holds, so user_stats and deck_stats
-- read a few rows where they counted a user's 100,000 card_states per call.
-- Statement triggers on card_states keep it in step.
--
-- No foreign keys: schedules leaving with their deck or user pass through the
-- card_states trigger, which takes their counts to zero and deletes them,
-- where a cascade could delete a row before that trigger subtracts from it.
create table private.card_state_counts (
  user_id uuid not null,
  deck_id uuid not null,
  state public.card_state not null,
  suspended boolean not null,
  cards integer not null,
  primary key (user_id, deck_id, state, suspended)
);
alter table private.card_state_counts enable row level security;
revoke all on private.card_state_counts from public, anon, authenticated, service_role;

-- Statement-level, so adding a deck's cards for every member is one pass.
-- Inserted schedules count +1 and deleted ones -1; an update is both, so a
-- schedule whose deck, state and suspension stay the same nets to zero and
-- touches no row (an answer usually changes only its due date). Keys are
-- upserted in order, so concurrent statements lock them in the same order;
-- a count that reaches zero is deleted.
create function private.count_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  delta private.card_state_counts[];
begin
  if tg_op = 'INSERT' then
    select array_agg(row(g.user_id, g.deck_id, g.state, g.suspended, g.n)::private.card_state_counts)
    into delta
    from (select user_id, deck_id, state, suspended, count(*)::integer as n from added_states group by 1, 2, 3, 4) g;
  elsif tg_op = 'DELETE' then
    select array_agg(row(g.user_id, g.deck_id, g.state, g.suspended, -g.n)::private.card_state_counts)
    into delta
    from (select user_id, deck_id, state, suspended, count(*)::integer as n from removed_states group by 1, 2, 3, 4) g;
  else
    select array_agg(row(g.user_id, g.deck_id, g.state, g.suspended, g.n)::private.card_state_counts)
    into delta
    from (
      select user_id, deck_id, state, suspended, sum(n)::integer as n
      from (
        select user_id, deck_id, state, suspended, 1 as n from added_states
        union all
        select user_id, deck_id, state, suspended, -1 from removed_states
      ) r
      group by 1, 2, 3, 4
      having sum(n) <> 0
    ) g;
  end if;
  if delta is null then
    return null;
  end if;

  insert into private.card_state_counts as c (user_id, deck_id, state, suspended, cards)
  select d.user_id, d.deck_id, d.state, d.suspended, d.cards from unnest(delta) d
  order by 1, 2, 3, 4
  on conflict (user_id, deck_id, state, suspended) do update set cards = c.cards + excluded.cards;
  delete from private.card_state_counts c
  using unnest(delta) d
  where c.user_id = d.user_id and c.deck_id = d.deck_id and c.state = d.state and c.suspended = d.suspended
    and c.cards <= 0;
  return null;
end
$$;

revoke execute on function private.count_card_states() from anon, authenticated, service_role;

create trigger card_states_count_inserted after insert on public.card_states
  referencing new table as added_states
  for each statement execute function private.count_card_states();
create trigger card_states_count_deleted after delete on public.card_states
  referencing old table as removed_states
  for each statement execute function private.count_card_states();
create trigger card_states_count_updated after update on public.card_states
  referencing old table as removed_states new table as added_states
  for each statement execute function private.count_card_states();

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

revoke execute on function private.answers_by_day(uuid, uuid, text, integer, date, date) from anon;

-- The caller's study figures, for all their decks or one: streak, today's
-- counts, a 365-day heatmap, answers per day for 30 days, true retention over
-- 30 days, the 30-day due forecast and card counts by state. Answers come
-- from the review rollups, card counts from private.card_state_counts.
create function public.user_stats(p_deck_id uuid default null, p_now timestamptz default null) returns jsonb
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
  perform private.check_time(p_now, 'now');
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
  -- From the counts kept by the card_states triggers: a row per deck, state
  -- and suspension instead of every schedule.
  schedules as (
    select c.state, c.suspended, sum(c.cards) as n
    from private.card_state_counts c
    where c.user_id = uid and c.deck_id in (select id from my_decks)
    group by 1, 2
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
-- or 365; null for all time, from the caller's first answer, so an imported
-- history of years is seen whole) for all the caller's decks or one: answers
-- per day by the card's state before the answer, with their time; true
-- retention for young and mature cards per period; and the answer buttons
-- pressed. `days` is the period's length in study days.
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
  days integer := p_days;
  result jsonb;
begin
  if p_days not in (30, 90, 365) then
    perform private.fail('22023', 'days must be 30, 90 or 365, or null for all time', 'days');
  end if;
  perform private.check_time(p_now, 'now');
  if p_deck_id is not null and private.deck_role(p_deck_id) is null then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  select * into me from public.profiles where id = uid;
  today := private.study_date(coalesce(p_now, now()), me.timezone, me.day_starts_at);
  if p_days is null then
    -- All time: from the first answer's study day.
    days := today + 1 - coalesce(private.study_date(
      case when p_deck_id is null
        then (select min(r.slot) from private.review_counts r where r.user_id = uid)
        else (select min(c.slot) from private.review_deck_counts c where c.user_id = uid and c.deck_id = p_deck_id)
      end, me.timezone, me.day_starts_at), today);
  end if;

  -- At least the year the retention table covers is read.
  with answers as materialized (
    select a.day, a.state, a.rating, a.mature, a.reviews, a.duration_ms
    from private.answers_by_day(uid, p_deck_id, me.timezone, me.day_starts_at, least(today - 364, today - days + 1), today) a
  ),
  in_period as (
    select * from answers where day > today - days
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
    'days', days,
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

revoke execute on function public.user_stats(uuid, timestamptz), public.review_stats(uuid, integer, timestamptz)
  from public, anon;
grant execute on function public.user_stats(uuid, timestamptz), public.review_stats(uuid, integer, timestamptz)
  to authenticated, service_role;

-- One row per deck the caller belongs to: contents, the caller's card counts
-- by state, what is due today, and the new, learning and review cards a study
-- session gives today (new_today, learning_today, review_today), so the deck
-- list and the dashboard show what studying gives. Those are the deck's own;
-- tree_due_count and tree_*_today are what studying the deck with its
-- subdecks gives (parent_id places it in its tree). It reads the caller's rows
-- as their owner, so no policy sees them: public.deck_stats checks the
-- session first.
create function private.deck_stats_for_caller(p_now timestamptz default null)
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
  new_today integer,
  learning_today integer,
  review_today integer,
  parent_id uuid,
  tree_due_count integer,
  tree_new_today integer,
  tree_learning_today integer,
  tree_review_today integer
)
language sql stable security definer
set search_path = ''
-- Planned without its arguments it looks expensive enough to JIT compile,
-- which took ~230 ms a call at 100,000 cards (supabase/bench), several times
-- the query itself.
set jit = off
as $$
  with recursive me as (
    select p.id, p.new_per_day, p.reviews_per_day, d.day_start, d.day_end,
           private.study_date(coalesce(p_now, now()), p.timezone, p.day_starts_at) as study_date
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, coalesce(p_now, now())) d
    where p.id = auth.uid()
  ),
  -- New cards added to a deck's limit for today (public.extend_study_day).
  extras as (
    select x.deck_id, x.extra_new
    from me join public.study_day_extras x on x.user_id = me.id and x.study_date = me.study_date
  ),
  -- Cards by state from the counts kept by the card_states triggers.
  counts as (
    select c.deck_id,
           coalesce(sum(c.cards) filter (where c.state = 'new' and not c.suspended), 0) as new_count,
           coalesce(sum(c.cards) filter (where c.state in ('learning', 'relearning') and not c.suspended), 0)
             as learning_count,
           coalesce(sum(c.cards) filter (where c.state = 'review' and not c.suspended), 0) as review_count,
           coalesce(sum(c.cards) filter (where c.suspended), 0) as suspended_count
    from me join private.card_state_counts c on c.user_id = me.id
    group by c.deck_id
  ),
  -- Due schedules (not new, not suspended) by index range in
  -- card_states_queue_idx, a deck and state at a time.
  due as (
    select m.deck_id, count(*) as due_count
    from me
    join public.deck_members m on m.user_id = me.id
    cross join unnest(array['learning', 'review', 'relearning']::public.card_state[]) as st(state)
    cross join lateral (
      select 1 from public.card_states s
      where s.user_id = me.id and s.deck_id = m.deck_id and s.state = st.state and not s.suspended
        and s.due < me.day_end
      offset 0
    ) s
    group by m.deck_id
  ),
  -- What a session of all decks gives, by deck: each deck's share is what
  -- studying that deck alone gives, as every deck has its own allowance.
  today as (
    select s.deck_id,
           count(*) filter (where s.queue = 'new') as new_today,
           count(*) filter (where s.queue = 'learning') as learning_today,
           count(*) filter (where s.queue = 'review') as review_today
    from me cross join lateral private.session_cards(me.id, null, coalesce(p_now, now())) s
    group by s.deck_id
  ),
  -- Each of the user's decks with every deck of its tree below it, itself
  -- included: studying a deck studies its subdecks, so its figures roll up.
  subtree (root_id, deck_id) as (
    select m.deck_id, m.deck_id from me join public.deck_members m on m.user_id = me.id
    union all
    select s.root_id, d.id from subtree s join public.decks d on d.parent_id = s.deck_id
  ),
  done_today as (
    select c.deck_id,
           coalesce(sum(c.reviews) filter (where c.state = 'new'), 0) as new_done,
           coalesce(sum(c.reviews) filter (where c.state = 'review'), 0) as reviews_done
    from me
    join private.review_deck_counts c on c.user_id = me.id and c.slot >= me.day_start and c.slot < me.day_end
    group by c.deck_id
  ),
  -- What studying each deck gives: its tree's cards, new and review cards
  -- capped by its own limits less what was studied in its tree today (as
  -- private.session_cards caps them).
  tree as (
    select s.root_id,
           coalesce(sum(du.due_count), 0) as due_count,
           coalesce(sum(t.new_today), 0) as new_today,
           coalesce(sum(t.learning_today), 0) as learning_today,
           coalesce(sum(t.review_today), 0) as review_today,
           coalesce(sum(x.new_done), 0) as new_done,
           coalesce(sum(x.reviews_done), 0) as reviews_done
    from subtree s
    join public.decks a on a.id = s.deck_id and a.archived_at is null
    left join due du on du.deck_id = s.deck_id
    left join today t on t.deck_id = s.deck_id
    left join done_today x on x.deck_id = s.deck_id
    group by s.root_id
  )
  select d.id, d.name, m.role, d.is_public,
         (select count(*) from public.notes n where n.deck_id = d.id)::integer,
         (select count(*) from public.cards c where c.deck_id = d.id)::integer,
         coalesce(k.new_count, 0)::integer,
         coalesce(k.learning_count, 0)::integer,
         coalesce(k.review_count, 0)::integer,
         coalesce(k.suspended_count, 0)::integer,
         coalesce(du.due_count, 0)::integer,
         coalesce(t.new_today, 0)::integer,
         coalesce(t.learning_today, 0)::integer,
         coalesce(t.review_today, 0)::integer,
         d.parent_id,
         coalesce(r.due_count, 0)::integer,
         least(coalesce(r.new_today, 0),
           greatest(0, coalesce(d.new_per_day, me.new_per_day) + coalesce(x.extra_new, 0)
             - coalesce(r.new_done, 0)))::integer,
         coalesce(r.learning_today, 0)::integer,
         least(coalesce(r.review_today, 0),
           greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day) - coalesce(r.reviews_done, 0)))::integer
  from me
  join public.deck_members m on m.user_id = me.id
  join public.decks d on d.id = m.deck_id and d.archived_at is null
  left join counts k on k.deck_id = d.id
  left join due du on du.deck_id = d.id
  left join today t on t.deck_id = d.id
  left join tree r on r.root_id = d.id
  left join extras x on x.deck_id = d.id
  order by d.name, d.id
$$;

revoke execute on function private.deck_stats_for_caller(timestamptz) from anon, authenticated, service_role;

-- The deck list's figures (private.deck_stats_for_caller), for a session
-- that has passed two-factor sign-in where it is required.
create function public.deck_stats(p_now timestamptz default null)
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
  new_today integer,
  learning_today integer,
  review_today integer,
  parent_id uuid,
  tree_due_count integer,
  tree_new_today integer,
  tree_learning_today integer,
  tree_review_today integer
)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.aal_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  perform private.check_time(p_now, 'now');
  return query select * from private.deck_stats_for_caller(p_now);
end
$$;

revoke execute on function public.deck_stats(timestamptz) from public, anon;
grant execute on function public.deck_stats(timestamptz) to authenticated, service_role;

-- Answers and their time by the card's state before the answer and the rating,
-- over the caller's whole history (from the review rollup, so a million answers
-- cost a few thousand rows).
create function public.answer_times()
returns table (state public.card_state, rating smallint, answers bigint, seconds double precision)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
begin
  return query
  select c.state, c.rating, sum(c.reviews)::bigint, sum(c.duration_ms)::double precision / 1000
  from private.review_counts c
  where c.user_id = uid
  group by c.state, c.rating
  order by c.state, c.rating;
end
$$;

-- The caller's cards as the simulator takes them, in one response however many
-- there are: {"new": cards not yet studied, "cards": [[stability, difficulty,
-- due_day, last_day], ...]} for the studied ones, days counted in the caller's
-- study days from today's (0; negative in the past). Suspended cards are left out.
create function public.workload_cards(p_now timestamptz default null) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  me public.profiles;
  today date;
begin
  perform private.check_time(p_now, 'now');
  select * into me from public.profiles where id = uid;
  today := private.study_date(coalesce(p_now, now()), me.timezone, me.day_starts_at);
  return jsonb_build_object(
    'new', (select count(*) from public.card_states s where s.user_id = uid and s.state = 'new' and not s.suspended),
    'cards', coalesce((
      select jsonb_agg(jsonb_build_array(
        round(s.stability::numeric, 4), round(s.difficulty::numeric, 4),
        private.study_date(s.due, me.timezone, me.day_starts_at) - today,
        private.study_date(s.last_review, me.timezone, me.day_starts_at) - today))
      from public.card_states s
      where s.user_id = uid and s.state <> 'new' and not s.suspended
        and s.last_review is not null and s.stability > 0
    ), '[]'::jsonb)
  );
end
$$;

revoke execute on function public.answer_times(), public.workload_cards(timestamptz) from public, anon;
grant execute on function public.answer_times(), public.workload_cards(timestamptz) to authenticated, service_role;
