-- Subdecks: decks.parent_id makes Anki's deck tree. Studying a deck studies
-- its subdecks (session_cards), and deck_stats rolls their figures up.

alter table public.decks add column parent_id uuid references public.decks (id) on delete cascade;
create index decks_parent_id_idx on public.decks (parent_id) where parent_id is not null;

-- Where a deck may sit in a tree. Only the owner of a deck adds subdecks to
-- it or moves decks under it, and a subdeck has its parent's owner, so
-- deleting a deck (which deletes its subdecks) never takes another user's
-- deck. No deck is its own ancestor and a tree is at most 10 decks deep.
-- Handing a deck to another owner takes it out of its tree, and its
-- subdecks, which stay with the previous owner, out of it.
-- The parent row is locked (for share) so that two moves that would close a
-- loop together wait for each other, and the second one sees the first.
create function private.check_deck_parent() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  parent_owner uuid;
  loops boolean;
  parent_depth integer;
  sub_height integer;
begin
  if tg_op = 'UPDATE' and new.owner_id <> old.owner_id then
    new.parent_id := null;
    update public.decks set parent_id = null where parent_id = new.id and owner_id <> new.owner_id;
    return new;
  end if;
  if new.parent_id is null or (tg_op = 'UPDATE' and new.parent_id is not distinct from old.parent_id) then
    return new;
  end if;
  select owner_id into parent_owner from public.decks where id = new.parent_id for share;
  if not found then
    perform private.fail('PT404', 'the parent deck does not exist', 'parent_id');
  elsif auth.uid() is not null and not private.is_deck_owner(new.parent_id) then
    perform private.fail('42501', 'only the owner of a deck can add subdecks to it', 'parent_id');
  elsif parent_owner <> new.owner_id then
    perform private.fail('22023', 'a subdeck belongs to the owner of its parent', 'parent_id');
  end if;
  -- The parent's ancestors (the parent at depth 1): does the chain reach this deck?
  with recursive up (id, parent_id, depth) as (
    select d.id, d.parent_id, 1 from public.decks d where d.id = new.parent_id
    union all
    select d.id, d.parent_id, up.depth + 1 from public.decks d join up on d.id = up.parent_id
    where up.depth <= 11
  )
  select bool_or(up.id = new.id), max(up.depth) into loops, parent_depth from up;
  if loops then
    perform private.fail('22023', 'a deck cannot go inside itself or one of its subdecks', 'parent_id');
  end if;
  -- How many levels this deck and its subdecks span (1 for a deck without any).
  sub_height := 1;
  if tg_op = 'UPDATE' then
    with recursive down (id, level) as (
      select new.id, 1
      union all
      select d.id, down.level + 1 from public.decks d join down on d.parent_id = down.id
      where down.level <= 11
    )
    select max(down.level) into sub_height from down;
  end if;
  if parent_depth + sub_height > 10 then
    perform private.fail('22023', 'decks nest at most 10 levels deep', 'parent_id');
  end if;
  return new;
end
$$;

create trigger decks_check_parent before insert or update of parent_id, owner_id on public.decks
  for each row execute function private.check_deck_parent();

-- A new subdeck starts with its parent's members in their roles, so a shared
-- tree stays shared as it grows; later invites and role changes are per deck.
-- (Runs after decks_add_owner: triggers fire in name order.)
create function private.copy_parent_members() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.deck_members (deck_id, user_id, role)
  select new.id, m.user_id, m.role
  from public.deck_members m
  where m.deck_id = new.parent_id and m.role <> 'owner' and m.user_id <> new.owner_id
  on conflict do nothing;
  return new;
end
$$;

create trigger decks_copy_parent_members after insert on public.decks
  for each row when (new.parent_id is not null) execute function private.copy_parent_members();

revoke execute on function private.check_deck_parent(), private.copy_parent_members()
  from anon, authenticated, service_role;

grant select (parent_id) on public.decks to anon, authenticated;
grant insert (parent_id), update (parent_id) on public.decks to authenticated;

-- Moves a deck under another (or to the top level with a null parent). The
-- caller owns both; the trigger above refuses loops and trees over 10 deep.
create function public.set_deck_parent(p_deck_id uuid, p_parent_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if p_deck_id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif not private.is_deck_owner(p_deck_id) then
    perform private.fail('42501', 'only the owner of a deck can move it');
  elsif p_parent_id is not null and not private.can_read_deck(p_parent_id) then
    perform private.fail('PT404', 'the parent deck does not exist', 'parent_id');
  end if;
  update public.decks set parent_id = p_parent_id where id = p_deck_id;
end
$$;

revoke execute on function public.set_deck_parent(uuid, uuid) from public, anon;
grant execute on function public.set_deck_parent(uuid, uuid) to authenticated, service_role;

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
    select p.id, p.new_per_day, p.reviews_per_day, p_now as now_at, d.day_start, d.day_end
    from public.profiles p
    cross join lateral private.study_day(p.timezone, p.day_starts_at, p_now) d
    where p.id = p_user_id
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
           greatest(0, coalesce(d.new_per_day, me.new_per_day) - coalesce(t.new_done, 0)) as new_left,
           greatest(0, coalesce(d.reviews_per_day, me.reviews_per_day) - coalesce(t.reviews_done, 0)) as reviews_left
    from me
    join public.deck_members m on m.user_id = me.id
    join public.decks d on d.id = m.deck_id and d.archived_at is null
    left join done_today t on t.deck_id = d.id
    where p_deck_id is null or d.id in (select tree.id from tree)
  ),
  -- Studying a deck with subdecks, as Anki's v3 scheduler does: each deck
  -- gives its own cards within its own allowance, and the deck studied caps
  -- their sum with its limits less what was studied in its tree today. All
  -- decks (no deck) give the sum of every deck's allowance.
  cap as (
    select greatest(0, coalesce(d.new_per_day, me.new_per_day)
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

-- deck_stats gains parent_id and the figures of each deck's tree.
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
    select p.id, p.new_per_day, p.reviews_per_day, d.day_start, d.day_end
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
           greatest(0, coalesce(d.new_per_day, me.new_per_day) - coalesce(r.new_done, 0)))::integer,
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
  order by d.name, d.id
$$;

revoke execute on function private.deck_stats_for_caller(timestamptz) from anon, authenticated, service_role;

-- The deck list's figures (private.deck_stats_for_caller), for a session
-- that has passed two-factor sign-in where it is required.
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
  review_today integer,
  parent_id uuid,
  tree_due_count integer,
  tree_new_today integer,
  tree_learning_today integer,
  tree_review_today integer
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

revoke execute on function public.deck_stats(timestamptz) from public, anon;
grant execute on function public.deck_stats(timestamptz) to authenticated, service_role;
