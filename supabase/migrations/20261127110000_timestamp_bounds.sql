-- Every timestamp that reaches the database lies from 1970 to year 9999.
-- The stats and the study queue work over day ranges around p_now, which
-- never end (generate_series) or overflow over an infinite or extreme time;
-- record_review's bounds compared its two times with each other only, and
-- imports wrote schedules and logs with no bounds but finiteness.

-- Refuses a timestamp argument outside 1970 (the Unix epoch: no answer or
-- Anki collection is older) to year 9999 (four-digit ISO years), naming the
-- argument; null passes. Day ranges and generate_series over an infinite or
-- extreme time never end or overflow. The card_states and review_logs
-- constraints hold the same bounds.
create function private.check_time(p_at timestamptz, p_name text) returns void
language plpgsql
set search_path = ''
as $$
begin
  if p_at < '1970-01-01 00:00:00+00' or p_at >= '10000-01-01 00:00:00+00' then
    perform private.fail('22023', p_name || ' must be a time from 1970 to 9999', p_name);
  end if;
end
$$;

-- Rows stored before these bounds are brought inside them so the
-- constraints below hold (clamping keeps due within 36,500 days of
-- last_review).
update public.card_states set
  due = least(greatest(due, '1970-01-01 00:00:00+00'), '9999-12-31 23:59:59+00'),
  last_review = least(greatest(last_review, '1970-01-01 00:00:00+00'), '9999-12-31 23:59:59+00'),
  buried_until = least(greatest(buried_until, '1970-01-01 00:00:00+00'), '9999-12-31 23:59:59+00'),
  leech_at = least(greatest(leech_at, '1970-01-01 00:00:00+00'), '9999-12-31 23:59:59+00')
where not (due >= '1970-01-01 00:00:00+00' and due < '10000-01-01 00:00:00+00')
  or not (last_review >= '1970-01-01 00:00:00+00' and last_review < '10000-01-01 00:00:00+00')
  or not (buried_until >= '1970-01-01 00:00:00+00' and buried_until < '10000-01-01 00:00:00+00')
  or not (leech_at >= '1970-01-01 00:00:00+00' and leech_at < '10000-01-01 00:00:00+00');

update public.review_logs set
  due = least(greatest(due, '1970-01-01 00:00:00+00'), '9999-12-31 23:59:59+00'),
  reviewed_at = least(greatest(reviewed_at, '1970-01-01 00:00:00+00'), '9999-12-31 23:59:59+00')
where not (due >= '1970-01-01 00:00:00+00' and due < '10000-01-01 00:00:00+00')
  or not (reviewed_at >= '1970-01-01 00:00:00+00' and reviewed_at < '10000-01-01 00:00:00+00');

alter table public.card_states
  -- The range private.check_time allows the API's timestamp arguments.
  -- Checks run in name order: this one before card_states_due_range, whose
  -- sum would overflow on a last_review past the range.
  add constraint card_states_dates_range check (
    due >= '1970-01-01 00:00:00+00' and due < '10000-01-01 00:00:00+00'
    and (last_review is null or (last_review >= '1970-01-01 00:00:00+00' and last_review < '10000-01-01 00:00:00+00'))
    and (buried_until is null or (buried_until >= '1970-01-01 00:00:00+00' and buried_until < '10000-01-01 00:00:00+00'))
    and (leech_at is null or (leech_at >= '1970-01-01 00:00:00+00' and leech_at < '10000-01-01 00:00:00+00'))
  );

alter table public.review_logs
  -- The range private.check_time allows the API's timestamp arguments.
  add constraint review_logs_times_range check (
    due >= '1970-01-01 00:00:00+00' and due < '10000-01-01 00:00:00+00'
    and reviewed_at >= '1970-01-01 00:00:00+00' and reviewed_at < '10000-01-01 00:00:00+00'
  );

-- The RPCs taking a timestamp check it first.

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
  current_row public.card_states;
  last_elapsed integer;
  deck_row public.decks;
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

  select deck_id into card_deck from public.cards where id = p_card_id;
  if card_deck is null or not private.can_read_deck(card_deck) then
    perform private.fail('PT404', 'card not found', 'card_id');
  end if;
  if private.deck_role(card_deck) is null then
    perform private.fail('42501', 'only members of a deck study it; add the deck to your decks first');
  end if;

  insert into public.card_states (user_id, card_id, deck_id, due)
  values (uid, p_card_id, card_deck, p_reviewed_at)
  on conflict (user_id, card_id) do nothing;
  select * into current_row from public.card_states where user_id = uid and card_id = p_card_id for update;
  -- A retry that raced its original waited for the lock above; now it sees the stored answer.
  if exists (select 1 from public.review_logs where user_id = uid and client_review_id = p_client_review_id) then
    return current_row;
  end if;

  if current_row.version <> p_expected_version then
    perform private.fail('PT409', 'this card was answered on another device', to_jsonb(current_row)::text);
  end if;

  -- A lapse is "again" on a card in review; p_lapses is the count it brings the card to.
  if p_rating = 1 and current_row.state = 'review' then
    select * into deck_row from public.decks where id = card_deck;
    leech := private.is_leech_lapse(p_lapses, deck_row.leech_threshold);
  end if;

  last_elapsed := case when current_row.last_review is null then 0
    else greatest(0, floor(extract(epoch from p_reviewed_at - current_row.last_review) / 86400))::integer end;

  insert into public.review_logs (
    user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
    elapsed_days, last_elapsed_days, scheduled_days, learning_steps, reviewed_at, duration_ms, previous
  ) values (
    uid, p_card_id, p_client_review_id, p_rating, current_row.state, current_row.due, p_stability, p_difficulty,
    p_elapsed_days, last_elapsed, p_scheduled_days, p_learning_steps, p_reviewed_at, p_duration_ms, to_jsonb(current_row)
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
    suspended = current_row.suspended or (leech and deck_row.leech_action = 'suspend'),
    version = current_row.version + 1,
    updated_at = now()
  where user_id = uid and card_id = p_card_id
  returning * into current_row;
  return current_row;
end
$$;

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
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if not private.aal_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  perform private.check_time(p_now, 'now');
  return query select * from private.study_queue_for_caller(p_deck_id, p_now);
end
$$;

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
  result jsonb;
begin
  if p_days is null or p_days not in (30, 90, 365) then
    perform private.fail('22023', 'days must be 30, 90 or 365', 'days');
  end if;
  perform private.check_time(p_now, 'now');
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
  new_today integer,
  learning_today integer,
  review_today integer
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

create or replace function public.workload_cards(p_now timestamptz default null) returns jsonb
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
