-- Leeches, as Anki has them: a card its user keeps forgetting. When an
-- answer of "again" to a review card brings its lapses to the deck's
-- threshold, and again every half threshold after that (8, 12, 16 … for 8),
-- the card is marked a leech and, unless the deck only tags leeches,
-- suspended. Anki tags the note; notes here are shared by every member of a
-- deck, so the mark stays on the user's own schedule (card_states.leech_at)
-- and nobody else sees one member's struggle.

create type public.leech_action as enum ('suspend', 'tag_only');

-- Per deck, set by its owner like the daily limits (the "owners update their
-- decks" policy and the column grants below).
alter table public.decks
  add column leech_threshold integer not null default 8
    constraint decks_leech_threshold_range check (leech_threshold between 1 and 99),
  add column leech_action public.leech_action not null default 'suspend';

grant insert (leech_threshold, leech_action), update (leech_threshold, leech_action)
  on public.decks to authenticated;

-- When an answer last marked the card a leech (its reviewed_at), null for a
-- card that is not one. Equal to last_review right after the answer that
-- marked it, which is how record_review's caller tells that answer apart.
alter table public.card_states add column leech_at timestamptz;

-- Anki's rule: at the threshold, then every half threshold (rounded up) after it.
create function private.is_leech_lapse(p_lapses integer, p_threshold integer) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select p_lapses >= p_threshold and (p_lapses - p_threshold) % greatest(1, ceil(p_threshold / 2.0)::integer) = 0
$$;

-- Marks the card a leech (and suspends it when the deck says so) when the
-- answer is a lapse that reaches the threshold. Otherwise as in 20261123100100.
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

-- Undoing the answer that marked a leech takes the mark back and puts the
-- suspension as it was before that answer. Otherwise as in 20261124090000.
create or replace function public.undo_review(p_client_review_id uuid) returns public.card_states
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  log_row public.review_logs;
  current_row public.card_states;
  before public.card_states;
  marked_leech boolean;
begin
  select * into log_row from public.review_logs where user_id = uid and client_review_id = p_client_review_id;
  if log_row.id is null then
    perform private.fail('PT404', 'review not found', 'client_review_id');
  elsif not (log_row.previous ? 'state') then
    perform private.fail('22023', 'an imported answer cannot be undone', 'client_review_id');
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
  -- Only this answer can have set leech_at to its own time (it is the card's latest).
  marked_leech := coalesce(
    current_row.leech_at = log_row.reviewed_at and before.leech_at is distinct from current_row.leech_at,
    false
  );
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
    leech_at = case when marked_leech then before.leech_at else current_row.leech_at end,
    suspended = case when marked_leech then before.suspended else current_row.suspended end,
    version = current_row.version + 1,
    updated_at = now()
  where user_id = uid and card_id = log_row.card_id
  returning * into current_row;
  delete from public.review_logs where id = log_row.id;
  return current_row;
end
$$;

-- A copy keeps the deck's leech settings with its limits. Otherwise as in 20261125090000.
create or replace function public.clone_deck(p_deck_id uuid, p_name text default null) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  source public.decks;
  new_id uuid;
begin
  select * into source from public.decks where id = p_deck_id;
  if source.id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  -- The cover stays behind: it lives in the source deck's media folder.
  insert into public.decks (
    owner_id, name, description, new_per_day, reviews_per_day, leech_threshold, leech_action, cloned_from
  )
  values (
    uid,
    coalesce(p_name, left(source.name, 113) || ' (copy)'),
    source.description, source.new_per_day, source.reviews_per_day, source.leech_threshold, source.leech_action,
    source.id
  )
  returning id into new_id;
  insert into public.notes (deck_id, kind, fields, tags, created_by, created_at, source_guid)
  select new_id, n.kind, n.fields, n.tags, uid, n.created_at, n.source_guid
  from public.notes n where n.deck_id = p_deck_id
  order by n.created_at, n.id;
  return new_id;
end
$$;

revoke execute on function private.is_leech_lapse(integer, integer) from public;
grant execute on function private.is_leech_lapse(integer, integer) to authenticated, service_role;
