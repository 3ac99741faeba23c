-- reschedule_cards as in 20261127090300, in fewer passes over 100,000 rows:
-- the JSON is checked once and parsed once into arrays (a uuid regex per row
-- cost as much as the update), and the cards the batch may not name (not the
-- caller's, never studied) are counted by the update's own join and refused
-- after it, which rolls it back, instead of being looked up first. The update
-- finds each row again by its ctid, not through the index a second time.
create or replace function public.reschedule_cards(p_schedules jsonb) returns jsonb
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
