-- Studying: the queue for today, recording and undoing answers, suspending.
-- Scheduling itself runs on the client (@engram/core, ts-fsrs); these calls
-- store its results atomically and keep devices from overwriting each other.

-- Stores one answer: the review log and the card's new schedule, in one
-- transaction. Retrying with the same client_review_id returns the stored
-- result and changes nothing. An answer computed from an older schedule than
-- the stored one (another device answered first) is refused with PT409 and
-- the current schedule in the error detail, so the client can recompute.
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
  current_row public.card_states;
  last_elapsed integer;
begin
  -- A retry of a stored answer: return its card's schedule, change nothing.
  select s.* into current_row from public.review_logs l
  join public.card_states s on s.user_id = l.user_id and s.card_id = l.card_id
  where l.user_id = uid and l.client_review_id = p_client_review_id;
  if found then
    return current_row;
  end if;

  if p_rating is null or p_rating not between 1 and 4 then
    perform private.fail('22023', 'rating must be 1, 2, 3 or 4', 'rating');
  elsif p_duration_ms is null or p_duration_ms not between 0 and 3600000 then
    perform private.fail('22023', 'duration_ms must be between 0 and 3600000', 'duration_ms');
  elsif p_reviewed_at is null or p_reviewed_at > now() + interval '5 minutes' then
    perform private.fail('22023', 'reviewed_at must not be in the future', 'reviewed_at');
  elsif p_expected_version is null then
    -- without it the stale-write check below would let any answer through
    perform private.fail('22023', 'expected_version is required', 'expected_version');
  elsif p_state is null or p_state = 'new' or p_due is null or p_due < p_reviewed_at - interval '1 minute' then
    perform private.fail('22023', 'the next schedule must be a studied state due after the answer', 'schedule');
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
    version = current_row.version + 1,
    updated_at = now()
  where user_id = uid and card_id = p_card_id
  returning * into current_row;
  return current_row;
end
$$;

-- Takes back an answer: restores the schedule from before it and deletes its
-- log. Only the latest answer of a card can be undone (PT409 otherwise).
create function public.undo_review(p_client_review_id uuid) returns public.card_states
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  log_row public.review_logs;
  current_row public.card_states;
  before public.card_states;
begin
  select * into log_row from public.review_logs where user_id = uid and client_review_id = p_client_review_id;
  if log_row.id is null then
    perform private.fail('PT404', 'review not found', 'client_review_id');
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
    version = current_row.version + 1,
    updated_at = now()
  where user_id = uid and card_id = log_row.card_id
  returning * into current_row;
  delete from public.review_logs where id = log_row.id;
  return current_row;
end
$$;

-- The cards to study today, in study order: learning cards due today, then
-- reviews due today, then new cards, each within the day's remaining limits
-- (the deck's own, falling back to the profile's, and the profile's across
-- all decks). Skips suspended and buried cards and archived decks.
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
  -- The deck of each of today's answers, by primary key lookup (the limit keeps
  -- it a lookup): a plain join, planned without the day's bounds, became a hash
  -- join over all the user's card_states (~17 ms at 100,000 cards, supabase/bench).
  done_today as (
    select s.deck_id,
           count(*) filter (where l.state = 'new') as new_done,
           count(*) filter (where l.state = 'review') as reviews_done
    from me
    join public.review_logs l on l.user_id = me.id and l.reviewed_at >= me.day_start and l.reviewed_at < me.day_end
    cross join lateral (
      select s.deck_id from public.card_states s where s.user_id = me.id and s.card_id = l.card_id limit 1
    ) s
    group by s.deck_id
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

revoke execute on function public.record_review, public.undo_review, public.study_queue, public.set_suspended from public, anon;
grant execute on function public.record_review, public.undo_review, public.study_queue, public.set_suspended to authenticated, service_role;
