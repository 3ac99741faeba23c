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

insert into private.card_state_counts (user_id, deck_id, state, suspended, cards)
select user_id, deck_id, state, suspended, count(*)::integer
from public.card_states
group by 1, 2, 3, 4;

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
revoke execute on function private.count_card_states() from public;

create trigger card_states_count_inserted after insert on public.card_states
  referencing new table as added_states
  for each statement execute function private.count_card_states();
create trigger card_states_count_deleted after delete on public.card_states
  referencing old table as removed_states
  for each statement execute function private.count_card_states();
create trigger card_states_count_updated after update on public.card_states
  referencing old table as removed_states new table as added_states
  for each statement execute function private.count_card_states();

-- user_stats as in 20261125090100, its card counts from the counts table.
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

-- deck_stats as in 20261125090100 (private since 20261125090300, behind the
-- public wrapper that checks the session first), its card counts from the
-- counts table.
create or replace function private.deck_stats_for_caller(p_now timestamptz default null)
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
  -- card_states_queue_idx, a deck and state at a time, instead of reading
  -- every schedule of the user.
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
  )
  select d.id, d.name, m.role, d.is_public,
         (select count(*) from public.notes n where n.deck_id = d.id)::integer,
         (select count(*) from public.cards c where c.deck_id = d.id)::integer,
         coalesce(k.new_count, 0)::integer,
         coalesce(k.learning_count, 0)::integer,
         coalesce(k.review_count, 0)::integer,
         coalesce(k.suspended_count, 0)::integer,
         coalesce(du.due_count, 0)::integer,
         least(coalesce(k.new_count, 0),
               greatest(0, coalesce(d.new_per_day, me.new_per_day) - coalesce(nd.n, 0)),
               -- the profile's limit spans all decks, as in study_queue
               greatest(0, me.new_per_day - (select coalesce(sum(all_done.n), 0) from new_done all_done)))::integer
  from me
  join public.deck_members m on m.user_id = me.id
  join public.decks d on d.id = m.deck_id and d.archived_at is null
  left join counts k on k.deck_id = d.id
  left join due du on du.deck_id = d.id
  left join new_done nd on nd.deck_id = d.id
  order by d.name, d.id
$$;
