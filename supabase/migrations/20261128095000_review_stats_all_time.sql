-- The stats screen's answer figures over the last p_days study days (30, 90
-- or 365; null for all time, from the caller's first answer, so an imported
-- history of years is seen whole) for all the caller's decks or one: answers
-- per day by the card's state before the answer, with their time; true
-- retention for young and mature cards per period; and the answer buttons
-- pressed. `days` is the period's length in study days.
create or replace function public.review_stats(p_deck_id uuid default null, p_days integer default 30, p_now timestamptz default null)
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

