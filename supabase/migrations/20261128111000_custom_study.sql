-- Custom study: more new cards today per deck (study_day_extras, read by the
-- study queue and the deck list's figures), custom_study_cards and
-- extend_study_day.

-- More new cards today (custom study): what a user added to one deck's
-- new-card limit for one study day, as if the deck's limit were that much
-- higher that day. Written by public.extend_study_day, read by
-- private.session_cards and the deck list's figures; a past day's row is
-- never read again.
create table public.study_day_extras (
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  study_date date not null,
  extra_new integer not null constraint study_day_extras_extra_new_range check (extra_new between 1 and 9999),
  updated_at timestamptz not null default now(),
  primary key (user_id, deck_id, study_date)
);
alter table public.study_day_extras enable row level security;
create index study_day_extras_deck_id_idx on public.study_day_extras (deck_id);

create policy "users read their own study day extras" on public.study_day_extras
  for select to authenticated using (user_id = (select auth.uid()));
create policy "two-factor sessions only" on public.study_day_extras as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.study_day_extras from anon, authenticated, service_role;
grant select, insert, update, delete on public.study_day_extras to service_role;
grant select on public.study_day_extras to authenticated;

-- The study queue reads today's extra new cards.
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
  my_decks as (
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
  ),
  -- Each queue's cards in study order, to stop at the cap.
  ranked as (
    select p.*, row_number() over (partition by p.queue order by p.due, p.card_id) as in_queue
    from picked p
  )
  select (row_number() over (order by p.rank, p.due, p.card_id))::integer, p.queue,
         p.card_id, p.deck_id, p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
         p.learning_steps, p.reps, p.lapses, p.last_review, p.version
  from ranked p
  where p.queue = 'learning'
     or not exists (select 1 from cap)
     or p.in_queue <= (select case p.queue when 'new' then cap.new_cap else cap.reviews_cap end from cap)
$$;

-- The deck list's figures read them too.
create or replace function private.deck_stats_for_caller(p_now timestamptz default null)
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
  review_today integer,
  parent_id uuid,
  tree_due_count integer,
  tree_new_today integer,
  tree_learning_today integer,
  tree_review_today integer
)
language sql stable security definer
set search_path = ''
-- Planned without its arguments it looks expensive enough to JIT compile,
-- which took ~230 ms a call at 100,000 cards (supabase/bench), several times
-- the query itself.
set jit = off
as $$
  with recursive me as (
    select p.id, p.new_per_day, p.reviews_per_day, d.day_start, d.day_end,
           private.study_date(coalesce(p_now, now()), p.timezone, p.day_starts_at) as study_date
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, coalesce(p_now, now())) d
    where p.id = auth.uid()
  ),
  -- New cards added to a deck's limit for today (public.extend_study_day).
  extras as (
    select x.deck_id, x.extra_new
    from me join public.study_day_extras x on x.user_id = me.id and x.study_date = me.study_date
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
  ),
  -- Each of the user's decks with every deck of its tree below it, itself
  -- included: studying a deck studies its subdecks, so its figures roll up.
  subtree (root_id, deck_id) as (
    select m.deck_id, m.deck_id from me join public.deck_members m on m.user_id = me.id
    union all
    select s.root_id, d.id from subtree s join public.decks d on d.parent_id = s.deck_id
  ),
  done_today as (
    select c.deck_id,
           coalesce(sum(c.reviews) filter (where c.state = 'new'), 0) as new_done,
           coalesce(sum(c.reviews) filter (where c.state = 'review'), 0) as reviews_done
    from me
    join private.review_deck_counts c on c.user_id = me.id and c.slot >= me.day_start and c.slot < me.day_end
    group by c.deck_id
  ),
  -- What studying each deck gives: its tree's cards, new and review cards
  -- capped by its own limits less what was studied in its tree today (as
  -- private.session_cards caps them).
  tree as (
    select s.root_id,
           coalesce(sum(du.due_count), 0) as due_count,
           coalesce(sum(t.new_today), 0) as new_today,
           coalesce(sum(t.learning_today), 0) as learning_today,
           coalesce(sum(t.review_today), 0) as review_today,
           coalesce(sum(x.new_done), 0) as new_done,
           coalesce(sum(x.reviews_done), 0) as reviews_done
    from subtree s
    join public.decks a on a.id = s.deck_id and a.archived_at is null
    left join due du on du.deck_id = s.deck_id
    left join today t on t.deck_id = s.deck_id
    left join done_today x on x.deck_id = s.deck_id
    group by s.root_id
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
         coalesce(t.review_today, 0)::integer,
         d.parent_id,
         coalesce(r.due_count, 0)::integer,
         least(coalesce(r.new_today, 0),
           greatest(0, coalesce(d.new_per_day, me.new_per_day) + coalesce(x.extra_new, 0)
             - coalesce(r.new_done, 0)))::integer,
         coalesce(r.learning_today, 0)::integer,
         least(coalesce(r.review_today, 0),
           greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day) - coalesce(r.reviews_done, 0)))::integer
  from me
  join public.deck_members m on m.user_id = me.id
  join public.decks d on d.id = m.deck_id and d.archived_at is null
  left join counts k on k.deck_id = d.id
  left join due du on du.deck_id = d.id
  left join today t on t.deck_id = d.id
  left join tree r on r.root_id = d.id
  left join extras x on x.deck_id = d.id
  order by d.name, d.id
$$;

-- Custom study: studying outside the schedule (docs/product.md, "Custom
-- study"). Cards due in the next days, cards forgotten lately and cards a
-- search finds come from public.custom_study_cards; more new cards today is
-- public.extend_study_day, which the normal study queue then reads
-- (public.study_day_extras in 40_study.sql).

-- The caller's own schedules for a custom session, in the row shape of
-- public.study_queue plus `matched`: how many cards matched before the
-- limit. Modes:
--   ahead     cards studied before (not new) due before the end of the study
--             day p_days days from today, earliest first;
--   forgotten cards the caller answered Again in the last p_days study days
--             (Anki's rated:N:1);
--   search    cards of the notes a search tree from @engram/core's
--             parseSearch finds (private.search_condition, as search_notes).
-- p_deck_id and its subdecks (every deck the caller is a member of when null);
-- archived decks, suspended cards and cards buried until later are left out.
-- Security invoker: RLS keeps it to the caller's own schedules and the notes
-- of decks they read.
create function public.custom_study_cards(
  p_deck_id uuid,
  p_mode text,
  p_days integer default null,
  p_query jsonb default null,
  p_limit integer default 1000
)
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
  version integer,
  matched integer
)
language plpgsql stable security invoker
set search_path = ''
set jit = off
as $$
declare
  uid uuid := private.require_user();
  profile record;
  today record;
  decay double precision;
  condition text;
begin
  if p_mode is null or p_mode not in ('ahead', 'forgotten', 'search') then
    perform private.fail('22023', 'mode must be ahead, forgotten or search', 'p_mode');
  elsif p_limit is null or p_limit not between 1 and 1000 then
    perform private.fail('22023', 'limit must be a whole number from 1 to 1000', 'p_limit');
  elsif p_mode in ('ahead', 'forgotten') and (p_days is null or p_days not between 1 and 365) then
    perform private.fail('22023', 'days must be a whole number from 1 to 365', 'p_days');
  elsif p_mode in ('ahead', 'forgotten') and p_query is not null then
    perform private.fail('22023', format('a search is only for mode search, not %s', p_mode), 'p_query');
  elsif p_mode = 'search' and (p_query is null or p_query = 'null'::jsonb) then
    perform private.fail('22023', 'mode search needs a search', 'p_query');
  elsif p_mode = 'search' and p_days is not null then
    perform private.fail('22023', 'days are only for modes ahead and forgotten', 'p_days');
  end if;
  if p_deck_id is not null and not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'p_deck_id');
  elsif p_deck_id is not null and private.deck_role(p_deck_id) is null then
    perform private.fail('42501', 'only members of a deck study it; add the deck to your decks first');
  end if;

  select p.timezone, p.day_starts_at, p.fsrs_params into profile from public.profiles p where p.id = uid;
  select * into today
  from private.study_day(coalesce(profile.timezone, 'UTC'), coalesce(profile.day_starts_at, 4), now());
  condition := case p_mode
    when 'ahead' then
      format($sql$(s.state <> 'new' and s.due < %L::timestamptz)$sql$, today.day_end + make_interval(days => p_days))
    when 'forgotten' then
      format('exists (select 1 from public.review_logs l where l.user_id = %L::uuid and l.card_id = s.card_id '
        'and l.rating = 1 and l.reviewed_at >= %L::timestamptz)',
        uid, today.day_start - make_interval(days => p_days - 1))
  end;
  if p_mode = 'search' then
    perform private.search_check(p_query, 1);
    decay := coalesce(profile.fsrs_params[21], 0.1542);
    condition := private.search_condition(p_query, jsonb_build_object(
      'uid', uid,
      'day_start', today.day_start,
      'day_end', today.day_end,
      'decay', decay,
      'factor', power(0.9, -1 / decay) - 1));
  end if;

  return query execute format($sql$
    with recursive tree (id) as (
      select d.id from public.decks d where d.id = $1
      union all
      select d.id from tree t join public.decks d on d.parent_id = t.id
    ),
    studied as (
      select d.id
      from public.deck_members m
      join public.decks d on d.id = m.deck_id and d.archived_at is null
      where m.user_id = $2 and ($1 is null or d.id in (select tree.id from tree))
    ),
    found as (
      select s.*, c.note_id, c.ordinal, n.kind
      from public.card_states s
      join studied k on k.id = s.deck_id
      join public.cards c on c.id = s.card_id
      join public.notes n on n.id = c.note_id
      where s.user_id = $2 and not s.suspended and (s.buried_until is null or s.buried_until <= now())
        and %s
    ),
    picked as (
      select f.*, (count(*) over ())::integer as matched
      from found f
      order by f.due, f.card_id
      limit $3
    )
    select (row_number() over (order by p.due, p.card_id))::integer,
           case p.state when 'new' then 'new' when 'review' then 'review' else 'learning' end,
           p.card_id, p.note_id, p.deck_id, p.ordinal, p.kind, n.fields, n.tags,
           p.state, p.due, p.stability, p.difficulty, p.elapsed_days, p.scheduled_days,
           p.learning_steps, p.reps, p.lapses, p.last_review, p.version, p.matched
    from picked p
    join public.notes n on n.id = p.note_id
    order by p.due, p.card_id
  $sql$, condition)
  using p_deck_id, uid, p_limit;
end
$$;

revoke execute on function public.custom_study_cards(uuid, text, integer, jsonb, integer) from public, anon;
grant execute on function public.custom_study_cards(uuid, text, integer, jsonb, integer) to authenticated, service_role;

-- More new cards today: adds p_extra_new to the caller's new-card limit of a
-- deck they are a member of, for the current study day only (their timezone
-- and day start). Calling it again adds more, up to 9,999 a day. Returns the
-- day's extra new cards for the deck.
create function public.extend_study_day(p_deck_id uuid, p_extra_new integer) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  today date;
  already integer;
  total integer;
begin
  if p_extra_new is null or p_extra_new not between 1 and 9999 then
    perform private.fail('22023', 'extra new cards must be a whole number from 1 to 9999', 'p_extra_new');
  end if;
  if p_deck_id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'p_deck_id');
  elsif private.deck_role(p_deck_id) is null then
    perform private.fail('42501', 'only members of a deck study it; add the deck to your decks first');
  end if;
  select private.study_date(now(), p.timezone, p.day_starts_at) into today from public.profiles p where p.id = uid;
  select x.extra_new into already from public.study_day_extras x
  where x.user_id = uid and x.deck_id = p_deck_id and x.study_date = today
  for update;
  if coalesce(already, 0) + p_extra_new > 9999 then
    perform private.fail('22023', format('at most 9999 extra new cards a day; %s already added today', already),
      'p_extra_new');
  end if;
  insert into public.study_day_extras as x (user_id, deck_id, study_date, extra_new)
  values (uid, p_deck_id, today, p_extra_new)
  on conflict (user_id, deck_id, study_date) do update
    set extra_new = x.extra_new + excluded.extra_new, updated_at = now()
  returning x.extra_new into total;
  return total;
end
$$;

revoke execute on function public.extend_study_day(uuid, integer) from public, anon;
grant execute on function public.extend_study_day(uuid, integer) to authenticated, service_role;

-- More new cards today (extend_study_day) changes a deck's counts on the user's devices.
create trigger study_day_extras_announce_inserts after insert on public.study_day_extras
  referencing new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'deck_id', 'always');
create trigger study_day_extras_announce_updates after update on public.study_day_extras
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.announce_changes('user', 'user_id', 'deck_id', 'always');
