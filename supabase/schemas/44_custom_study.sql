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
--   search    cards a search tree from @engram/core's parseSearch finds
--             (private.search_condition: card-level parts such as is:due
--             hold for the card itself, note-level ones for its note).
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
      'factor', power(0.9, -1 / decay) - 1,
      -- The card-level parts hold for each card itself: `is:due` crams due cards, not their siblings.
      'per_card', true));
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
      select s.*, n.kind
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
