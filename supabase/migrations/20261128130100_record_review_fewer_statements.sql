-- record_review as in 20261127110000 with fewer statements: the card's deck,
-- the caller's role in it and the deck's leech settings in one lookup instead
-- of four; the schedule inserted only when the card has none (an insert doing
-- nothing still ran card_states' statement triggers); the check for a retry
-- that raced its original only when the version has moved on, as it then
-- has. Same answers, same errors.
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
  select c.deck_id, m.role, d.is_public, d.leech_threshold, d.leech_action
  into card_deck, card_role, deck_public, deck_leech_threshold, deck_leech_action
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
    insert into public.card_states (user_id, card_id, deck_id, due)
    values (uid, p_card_id, card_deck, p_reviewed_at)
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
    suspended = current_row.suspended or (leech and deck_leech_action = 'suspend'),
    version = current_row.version + 1,
    updated_at = now()
  where user_id = uid and card_id = p_card_id
  returning * into current_row;
  return current_row;
end
$$;
