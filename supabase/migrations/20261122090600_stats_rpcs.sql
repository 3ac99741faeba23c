-- Figures for the dashboard and the stats screen, by the caller's study day.

-- The study day (a date) a moment falls in for a user's timezone and day start.
create function private.study_date(p_at timestamptz, p_timezone text, p_day_start integer) returns date
language sql stable parallel safe
set search_path = ''
as $$
  select ((p_at at time zone p_timezone) - make_interval(hours => p_day_start))::date
$$;

revoke execute on all functions in schema private from public;
grant execute on all functions in schema private to anon, authenticated, service_role;

-- The caller's study figures, for all their decks or one:
-- streak, today's counts, a 365-day heatmap, answers per day for 30 days,
-- true retention over 30 days, the 30-day due forecast and card counts by state.
create function public.user_stats(p_deck_id uuid default null, p_now timestamptz default null) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  me public.profiles;
  at_time timestamptz := coalesce(p_now, now());
  today date;
  day_end timestamptz;
  result jsonb;
begin
  select * into me from public.profiles where id = uid;
  if p_deck_id is not null and private.deck_role(p_deck_id) is null then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  today := private.study_date(at_time, me.timezone, me.day_starts_at);
  day_end := (private.study_day(me.timezone, me.day_starts_at, at_time)).day_end;

  with logs as (
    select l.rating, l.state, private.study_date(l.reviewed_at, me.timezone, me.day_starts_at) as day
    from public.review_logs l
    join public.card_states s on s.user_id = l.user_id and s.card_id = l.card_id
    where l.user_id = uid
      and l.reviewed_at >= at_time - interval '367 days'
      and (p_deck_id is null or s.deck_id = p_deck_id)
  ),
  states as (
    select s.* from public.card_states s
    join public.deck_members m on m.deck_id = s.deck_id and m.user_id = uid
    join public.decks d on d.id = s.deck_id and d.archived_at is null
    where s.user_id = uid and (p_deck_id is null or s.deck_id = p_deck_id)
  ),
  active_days as (
    select distinct day from logs where day <= today
  ),
  anchor as (
    select case when exists (select 1 from active_days where day = today) then today else today - 1 end as day
  ),
  streak as (
    select count(*)::integer as days
    from (select day, row_number() over (order by day desc) as n from active_days) d, anchor
    where d.day = anchor.day - (d.n - 1)::integer
  )
  select jsonb_build_object(
    'today', today,
    'streak', (select days from streak),
    'reviewed_today', (select count(*) from logs where day = today),
    'new_today', (select count(*) from logs where day = today and state = 'new'),
    'due_today', (select count(*) from states
                  where state <> 'new' and not suspended and due < day_end),
    'heatmap', coalesce((
      select jsonb_agg(jsonb_build_object('date', day, 'reviews', n) order by day)
      from (select day, count(*) as n from logs where day > today - 365 and day <= today group by day) h
    ), '[]'::jsonb),
    'answers_per_day', coalesce((
      select jsonb_agg(jsonb_build_object(
        'date', day, 'again', again, 'hard', hard, 'good', good, 'easy', easy) order by day)
      from (
        select day,
               count(*) filter (where rating = 1) as again,
               count(*) filter (where rating = 2) as hard,
               count(*) filter (where rating = 3) as good,
               count(*) filter (where rating = 4) as easy
        from logs where day > today - 30 and day <= today group by day
      ) a
    ), '[]'::jsonb),
    'retention', (
      select jsonb_build_object(
        'reviews', count(*),
        'passed', count(*) filter (where rating > 1),
        'rate', case when count(*) = 0 then null else round(count(*) filter (where rating > 1)::numeric / count(*), 4) end)
      from logs where state = 'review' and day > today - 30 and day <= today
    ),
    'forecast', (
      select jsonb_agg(jsonb_build_object('date', f.day, 'due', coalesce(c.n, 0)) order by f.day)
      from generate_series(today, today + 29, interval '1 day') as g(at_day)
      cross join lateral (select g.at_day::date as day) f
      left join (
        select greatest(private.study_date(due, me.timezone, me.day_starts_at), today) as day, count(*) as n
        from states where state <> 'new' and not suspended
        group by 1
      ) c on c.day = f.day
    ),
    'card_counts', (
      select jsonb_build_object(
        'new', count(*) filter (where state = 'new' and not suspended),
        'learning', count(*) filter (where state = 'learning' and not suspended),
        'review', count(*) filter (where state = 'review' and not suspended),
        'relearning', count(*) filter (where state = 'relearning' and not suspended),
        'suspended', count(*) filter (where suspended))
      from states
    )
  ) into result;
  return result;
end
$$;

-- One row per deck the caller belongs to: contents, the caller's card counts
-- by state, what is due today and how many new cards today's limits allow.
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
  new_today integer
)
language sql stable security definer
set search_path = ''
as $$
  with me as (
    select p.id, p.new_per_day, d.day_start, d.day_end
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, coalesce(p_now, now())) d
    where p.id = auth.uid()
  ),
  -- Each answer's deck by primary key lookup, as in study_queue: a plain join
  -- planned without the day's bounds scans all the user's card_states.
  new_done as (
    select s.deck_id, count(*) as n
    from me
    join public.review_logs l on l.user_id = me.id and l.reviewed_at >= me.day_start and l.reviewed_at < me.day_end
    cross join lateral (
      select s.deck_id from public.card_states s where s.user_id = me.id and s.card_id = l.card_id limit 1
    ) s
    where l.state = 'new'
    group by s.deck_id
  ),
  counts as (
    select s.deck_id,
           count(*) filter (where s.state = 'new' and not s.suspended) as new_count,
           count(*) filter (where s.state in ('learning', 'relearning') and not s.suspended) as learning_count,
           count(*) filter (where s.state = 'review' and not s.suspended) as review_count,
           count(*) filter (where s.suspended) as suspended_count,
           count(*) filter (where s.state <> 'new' and not s.suspended and s.due < me.day_end) as due_count
    from me join public.card_states s on s.user_id = me.id
    group by s.deck_id
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

revoke execute on function public.user_stats, public.deck_stats from public, anon;
grant execute on function public.user_stats, public.deck_stats to authenticated, service_role;
