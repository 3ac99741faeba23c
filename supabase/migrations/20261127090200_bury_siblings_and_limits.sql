-- Bury siblings, and daily limits counted as a session gives them.
--
-- Cards of one note (a reversed pair, the cards of a cloze note) are not
-- studied the same day, as Anki's "bury siblings" deck options do it: today's
-- queue takes one card of a note from each buried category and leaves the
-- others for another day, and once a card of a note is answered its siblings
-- of the buried categories wait until the next study day.
--
-- Burying is derived, not stored: a sibling is left out while the note has an
-- answer today (in review_logs) or a card ahead of it in today's queue. So
-- undo_review, which deletes the answer, brings the siblings back with no
-- bookkeeping, and a new study day ends every bury by itself.
--
-- The queue and the deck list's counts read one definition of what a session
-- gives, private.session_cards. Each deck has its own allowance (its limit, or
-- the profile's as a default, less what was studied in it today) and studying
-- all decks gives the sum, as Anki's presets do: a deck imported today gets
-- its full new-card allowance.

-- Per deck, set by its owner like the daily limits (the "owners update their
-- decks" policy and the column grants below). Learning cards on steps of a
-- day or more are buried only when asked, as in Anki; those due within the
-- day never are.
alter table public.decks
  add column bury_new boolean not null default true,
  add column bury_reviews boolean not null default true,
  add column bury_interday_learning boolean not null default false;

grant insert (bury_new, bury_reviews, bury_interday_learning),
  update (bury_new, bury_reviews, bury_interday_learning)
  on public.decks to authenticated;

-- The cards a study session of p_deck_id (all decks when null) gives the user
-- at p_now, in study order: learning cards due today, then reviews due today,
-- then new cards, each deck within its remaining allowance. Leaves out
-- suspended cards, cards buried until later, archived decks, and siblings the
-- deck buries. Callers check who is asking; this is not exposed.
--
-- Each (deck, state) is one range of card_states_queue_idx read in study
-- order and stopped at the allowance; the bury test is a filter on that scan,
-- a few primary-key lookups per card (the note's cards, their schedules and
-- today's answers to them).
create function private.session_cards(p_user_id uuid, p_deck_id uuid, p_now timestamptz)
returns table (
  "position" integer,
  queue text,
  card_id uuid,
  deck_id uuid,
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
language sql stable
-- A day's queue is a few hundred cards: with the default guess of 1,000 the
-- callers' joins to cards and notes became hash joins over every card
-- (~55 ms at 100,000 cards, supabase/bench) instead of primary-key lookups.
rows 100
set search_path = ''
-- Planned without its arguments the body looks expensive enough to JIT
-- compile, which took far longer than the query (as for study_queue).
set jit = off
as $$
  with me as (
    select p.id, p.new_per_day, p.reviews_per_day, p_now as now_at, d.day_start, d.day_end
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, p_now) d
    where p.id = p_user_id
  ),
  -- Today's answers per deck from the per-deck rollup (a quarter hour never
  -- straddles a study day).
  done_today as (
    select c.deck_id,
           coalesce(sum(c.reviews) filter (where c.state = 'new'), 0) as new_done,
           coalesce(sum(c.reviews) filter (where c.state = 'review'), 0) as reviews_done
    from me
    join private.review_deck_counts c on c.user_id = me.id and c.slot >= me.day_start and c.slot < me.day_end
    group by c.deck_id
  ),
  my_decks as (
    select d.id, d.bury_new, d.bury_reviews, d.bury_interday_learning,
           greatest(0, coalesce(d.new_per_day, me.new_per_day) - coalesce(t.new_done, 0)) as new_left,
           greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day) - coalesce(t.reviews_done, 0)) as reviews_left
    from me
    join public.deck_members m on m.user_id = me.id
    join public.decks d on d.id = m.deck_id and d.archived_at is null
    left join done_today t on t.deck_id = d.id
    where p_deck_id is null or d.id = p_deck_id
  ),
  -- The queue each state is served in, in order; learning has no daily limit.
  states (state, queue, rank) as (
    values ('learning'::public.card_state, 'learning', 0), ('relearning', 'learning', 0),
           ('review', 'review', 1), ('new', 'new', 2)
  ),
  picked as (
    select s.*, k.queue, k.rank
    from me
    join my_decks d on true
    cross join states k
    cross join lateral (
      select s.* from public.card_states s
      where s.user_id = me.id and s.deck_id = d.id and s.state = k.state and not s.suspended
        -- new cards are offered whatever their due (their creation time)
        and s.due < case when k.state = 'new' then 'infinity'::timestamptz else me.day_end end
        and (s.buried_until is null or s.buried_until <= me.now_at)
        and not (
          case s.state
            when 'new' then d.bury_new
            when 'review' then d.bury_reviews
            -- learning steps under a day are never buried
            else d.bury_interday_learning and s.scheduled_days >= 1
          end
          and exists (
            select 1
            from public.cards c
            join public.cards sibling on sibling.note_id = c.note_id and sibling.id <> c.id
            join public.card_states o on o.user_id = me.id and o.card_id = sibling.id
            where c.id = s.card_id
              and (
                -- answered today: its siblings wait for the next study day
                exists (
                  select 1 from public.review_logs l
                  where l.card_id = sibling.id and l.user_id = me.id
                    and l.reviewed_at >= me.day_start and l.reviewed_at < me.day_end
                )
                -- ahead in today's queue, in Anki's gathering order: learning
                -- due within the day, learning on day-long steps, reviews,
                -- new cards; then due and id, as the queue orders them
                or (not o.suspended and (o.buried_until is null or o.buried_until <= me.now_at)
                    and (o.state = 'new' or o.due < me.day_end)
                    and (case o.state when 'new' then 3 when 'review' then 2
                                      else least(o.scheduled_days, 1) end, o.due, o.card_id)
                      < (case s.state when 'new' then 3 when 'review' then 2
                                      else least(s.scheduled_days, 1) end, s.due, s.card_id))
              )
          )
        )
      order by s.due, s.card_id
      limit case k.queue when 'review' then d.reviews_left when 'new' then d.new_left end
    ) s
  )
  select (row_number() over (order by p.rank, p.due, p.card_id))::integer, p.queue,
         p.card_id, p.deck_id, p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
         p.learning_steps, p.reps, p.lapses, p.last_review, p.version
  from picked p
$$;

revoke execute on function private.session_cards(uuid, uuid, timestamptz) from public, anon, authenticated;

-- study_queue as in 20261125090100 (private since 20261125090300, behind the
-- public wrapper that checks the session first): the session's cards with
-- their notes.
create or replace function private.study_queue_for_caller(p_deck_id uuid default null, p_now timestamptz default null)
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
set jit = off
as $$
  select p."position", p.queue, p.card_id, c.note_id, p.deck_id, c.ordinal, n.kind, n.fields, n.tags,
         p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
         p.learning_steps, p.reps, p.lapses, p.last_review, p.version
  from private.session_cards(auth.uid(), p_deck_id, coalesce(p_now, now())) p
  join public.cards c on c.id = p.card_id
  join public.notes n on n.id = c.note_id
  order by p."position"
$$;

-- deck_stats as in 20261125090400, with today's new, learning and review
-- counts counted from the session each deck gives (new_today, learning_today,
-- review_today), so the deck list and the dashboard show what studying gives.
-- Its columns change, so both the private body and the public wrapper are
-- made anew.
drop function public.deck_stats(timestamptz);
drop function private.deck_stats_for_caller(timestamptz);

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
  review_today integer
)
language sql stable security definer
set search_path = ''
-- Planned without its arguments it looks expensive enough to JIT compile,
-- which took ~230 ms a call at 100,000 cards (supabase/bench), several times
-- the query itself.
set jit = off
as $$
  with me as (
    select p.id, d.day_end
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, coalesce(p_now, now())) d
    where p.id = auth.uid()
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
         coalesce(t.review_today, 0)::integer
  from me
  join public.deck_members m on m.user_id = me.id
  join public.decks d on d.id = m.deck_id and d.archived_at is null
  left join counts k on k.deck_id = d.id
  left join due du on du.deck_id = d.id
  left join today t on t.deck_id = d.id
  order by d.name, d.id
$$;

revoke execute on function private.deck_stats_for_caller(timestamptz) from public, anon, authenticated;

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
  return query select * from private.deck_stats_for_caller(p_now);
end
$$;

revoke execute on function public.deck_stats(timestamptz) from public, anon;
grant execute on function public.deck_stats(timestamptz) to authenticated, service_role;
