-- Rescheduling after the FSRS parameters change ("reschedule cards on
-- change"), and what the workload simulator starts from: the caller's cards
-- and the time their answers take.
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

create function public.reschedule_cards(p_schedules jsonb) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  problem record;
  result jsonb;
begin
  if p_schedules is null or jsonb_typeof(p_schedules) <> 'array' then
    perform private.fail('22023', 'schedules must be an array of [card_id, version, stability, difficulty, scheduled_days]', 'schedules');
  end if;

  -- The bounds record_review checks, named per field; the first bad row refuses the batch.
  select n, field, message into problem
  from (
    select e.n, case
        when jsonb_typeof(e.v) <> 'array' or jsonb_array_length(e.v) <> 5 then 'schedules'
        when jsonb_typeof(e.v -> 0) <> 'string'
          or (e.v ->> 0) !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then 'card_id'
        when jsonb_typeof(e.v -> 1) <> 'number' or (e.v ->> 1)::numeric not between 0 and 2147483647
          or (e.v ->> 1)::numeric <> trunc((e.v ->> 1)::numeric) then 'version'
        when jsonb_typeof(e.v -> 2) <> 'number' or (e.v ->> 2)::numeric not between 0 and 36500 then 'stability'
        when jsonb_typeof(e.v -> 3) <> 'number' or (e.v ->> 3)::numeric not between 0 and 10 then 'difficulty'
        when jsonb_typeof(e.v -> 4) = 'null' then null
        when jsonb_typeof(e.v -> 4) <> 'number' or (e.v ->> 4)::numeric not between 0 and 36500
          or (e.v ->> 4)::numeric <> trunc((e.v ->> 4)::numeric) then 'scheduled_days'
      end as field
    from jsonb_array_elements(p_schedules) with ordinality as e (v, n)
  ) checked
  cross join lateral (select case field
      when 'schedules' then 'each schedule must be [card_id, version, stability, difficulty, scheduled_days]'
      when 'card_id' then 'card_id must be a uuid'
      when 'version' then 'version must be a whole number from 0'
      when 'stability' then 'stability must be a number from 0 to 36500'
      when 'difficulty' then 'difficulty must be a number from 0 to 10'
      else 'scheduled_days must be null or a whole number from 0 to 36500'
    end as message) words
  where field is not null
  order by n
  limit 1;
  if found then
    perform private.fail('22023', format('schedule %s: %s', problem.n, problem.message), problem.field);
  end if;

  -- Only the caller's own schedules, each once, and only of cards already studied:
  -- anything else refuses the batch.
  -- (A card reset since the batch was computed is skipped below, as stale.)
  select i.card_id, s.card_id is null as missing
  into problem
  from (select (v ->> 0)::uuid as card_id, (v ->> 1)::integer as version from jsonb_array_elements(p_schedules) as v) i
  left join public.card_states s on s.user_id = uid and s.card_id = i.card_id
  where s.card_id is null or ((s.state = 'new' or s.last_review is null) and s.version = i.version)
  limit 1;
  if found and problem.missing then
    perform private.fail('PT404', format('card %s not found', problem.card_id), 'card_id');
  elsif found then
    perform private.fail('22023', format('card %s has no answer to schedule from', problem.card_id), 'card_id');
  end if;
  select card_id into problem
  from (select (v ->> 0)::uuid as card_id from jsonb_array_elements(p_schedules) as v) i
  group by card_id having count(*) > 1
  limit 1;
  if found then
    perform private.fail('22023', format('card %s is scheduled twice', problem.card_id), 'card_id');
  end if;

  -- One set-based update. A schedule computed from an older version (the card was
  -- answered meanwhile) is skipped; one the card already has changes nothing, so a
  -- retry of the same batch reports those cards unchanged.
  with input as (
    select (v ->> 0)::uuid as card_id, (v ->> 1)::integer as version,
      (v ->> 2)::double precision as stability, (v ->> 3)::double precision as difficulty,
      (v ->> 4)::integer as scheduled_days
    from jsonb_array_elements(p_schedules) as v
  ),
  target as (
    select i.card_id, i.version, s.version as current_version, s.due as old_due,
      i.stability, i.difficulty,
      coalesce(s.last_review + make_interval(hours => 24 * i.scheduled_days), s.due) as due,
      coalesce(i.scheduled_days, s.scheduled_days) as scheduled_days,
      (s.stability, s.difficulty, s.due, s.scheduled_days) is not distinct from
        (i.stability, i.difficulty, coalesce(s.last_review + make_interval(hours => 24 * i.scheduled_days), s.due),
         coalesce(i.scheduled_days, s.scheduled_days)) as same
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
    where s.user_id = uid and s.card_id = t.card_id and s.version = t.version and not t.same
    returning t.old_due, t.due
  ),
  moved as (
    select count(*) filter (where due < old_due) as earlier, count(*) filter (where due > old_due) as later
    from applied
  ),
  skipped as (
    select count(*) filter (where version <> current_version and not same) as skipped, count(*) as total
    from target
  )
  select jsonb_build_object(
    'earlier', m.earlier,
    'later', m.later,
    'unchanged', k.total - m.earlier - m.later - k.skipped,
    'skipped', k.skipped
  )
  into result
  from moved m, skipped k;
  return result;
end
$$;

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

revoke execute on function public.reschedule_cards(jsonb), public.answer_times(), public.workload_cards(timestamptz)
  from public, anon;
grant execute on function public.reschedule_cards(jsonb), public.answer_times(), public.workload_cards(timestamptz)
  to authenticated, service_role;
