-- private.session_cards with the caller's decks worked out first: inlined,
-- the planner joined the memberships after reading each deck's cards, which
-- tested every membership against every card of the queue (about 9,000 rows
-- thrown away per call of the all-decks queue at 100,000 cards). Same cards,
-- same order.
create or replace function private.session_cards(p_user_id uuid, p_deck_id uuid, p_now timestamptz)
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
  version integer,
  note_id uuid,
  ordinal integer
)
language plpgsql stable
-- A day's queue is a few hundred cards: with the default guess of 1,000 the
-- callers' joins to cards and notes became hash joins over every card
-- (~55 ms at 100,000 cards, supabase/bench) instead of primary-key lookups.
rows 100
set search_path = ''
-- Planned without its arguments the body looks expensive enough to JIT
-- compile, which took far longer than the query (as for study_queue).
set jit = off
as $$
#variable_conflict use_column
begin
  return query
    with recursive me as (
      select p.id, p.new_per_day, p.reviews_per_day, p_now as now_at, d.day_start, d.day_end,
             private.study_date(p_now, p.timezone, p.day_starts_at) as study_date
      from public.profiles p
      cross join lateral private.study_day(p.timezone, p.day_starts_at, p_now) d
      where p.id = p_user_id
    ),
    -- New cards added to a deck's limit for today (public.extend_study_day).
    extras as (
      select x.deck_id, x.extra_new
      from me join public.study_day_extras x on x.user_id = me.id and x.study_date = me.study_date
    ),
    -- The deck studied and its subdecks, at any depth (a tree has no loops).
    tree (id) as (
      select d.id from public.decks d where d.id = p_deck_id
      union all
      select d.id from tree t join public.decks d on d.parent_id = t.id
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
    -- Materialized: inlined, the planner joined the memberships after
    -- reading the cards, testing every membership against every card.
    my_decks as materialized (
      select d.id, d.bury_new, d.bury_reviews, d.bury_interday_learning,
             greatest(0, coalesce(d.new_per_day, me.new_per_day) + coalesce(x.extra_new, 0) - coalesce(t.new_done, 0))
               as new_left,
             greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day) - coalesce(t.reviews_done, 0)) as reviews_left
      from me
      join public.deck_members m on m.user_id = me.id
      join public.decks d on d.id = m.deck_id and d.archived_at is null
      left join done_today t on t.deck_id = d.id
      left join extras x on x.deck_id = d.id
      where p_deck_id is null or d.id in (select tree.id from tree)
    ),
    -- Studying a deck with subdecks, as Anki's v3 scheduler does: each deck
    -- gives its own cards within its own allowance, and the deck studied caps
    -- their sum with its limits less what was studied in its tree today. All
    -- decks (no deck) give the sum of every deck's allowance.
    cap as (
      select greatest(0, coalesce(d.new_per_day, me.new_per_day)
               + coalesce((select x.extra_new from extras x where x.deck_id = p_deck_id), 0)
               - coalesce((select sum(t.new_done) from done_today t where t.deck_id in (select tree.id from tree)), 0))
               as new_cap,
             greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day)
               - coalesce((select sum(t.reviews_done) from done_today t where t.deck_id in (select tree.id from tree)), 0))
               as reviews_cap
      from me join public.decks d on d.id = p_deck_id
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
        select s.*, c.note_id, c.ordinal from public.card_states s
        join public.cards c on c.id = s.card_id
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
              from public.cards sibling
              join public.card_states o on o.user_id = me.id and o.card_id = sibling.id
              where sibling.note_id = c.note_id and sibling.id <> c.id
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
    ),
    -- Each queue's cards in study order, to stop at the cap.
    ranked as (
      select p.*, row_number() over (partition by p.queue order by p.due, p.card_id) as in_queue
      from picked p
    )
    select (row_number() over (order by p.rank, p.due, p.card_id))::integer, p.queue,
           p.card_id, p.deck_id, p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
           p.learning_steps, p.reps, p.lapses, p.last_review, p.version, p.note_id, p.ordinal
    from ranked p
    where p.queue = 'learning'
       or not exists (select 1 from cap)
       or p.in_queue <= (select case p.queue when 'new' then cap.new_cap else cap.reviews_cap end from cap);
end
$$;

revoke execute on function private.session_cards(uuid, uuid, timestamptz) from anon, authenticated, service_role;
