-- The note browser's rows: one page of a deck's notes (notes mode) or cards
-- (cards mode), filtered by a search tree (26_search.sql) and the browser's
-- filters, sorted and paged here, so a page costs the same at 100 notes as at
-- 100,000 when the order has an index, and one pass over the deck otherwise.

-- A card's template name as Anki shows it in the browser's Card column.
create function private.card_template_name(p_note public.notes, p_ordinal integer) returns text
language sql stable
set search_path = ''
as $$
  select case p_note.kind
    when 'custom' then (
      select case t.kind when 'cloze' then (t.templates -> 0 ->> 'name') || ' ' || p_ordinal
        else t.templates -> (p_ordinal - 1) ->> 'name' end
      from public.note_types t where t.id = p_note.note_type_id)
    when 'cloze' then 'Cloze ' || p_ordinal
    when 'image_occlusion' then 'Image Occlusion ' || p_ordinal
    else 'Card ' || p_ordinal
  end
$$;

revoke execute on function private.card_template_name(public.notes, integer) from public;
grant execute on function private.card_template_name(public.notes, integer) to anon, authenticated, service_role;

-- One page of the browser. p_mode: 'notes' or 'cards'. p_sort: sort_field,
-- created, modified, deck, tags, due, interval, difficulty, stability,
-- retrievability, lapses, reviews, or field:<name>; nulls last, ties by id.
-- Schedules are the caller's own (none for a signed-out visitor). In notes
-- mode, as Anki's notes mode: due is the earliest due of the note's studied
-- cards that are not suspended; interval, difficulty, stability and
-- retrievability are averages over its studied cards; lapses and reviews
-- are sums. Difficulty is (d - 1) / 9, from 0 to 1; retrievability is FSRS's
-- forgetting curve with the caller's decay, as prop:r. Card-level search
-- parts (is:due, prop:…) hold for a note when any of its cards matches in
-- notes mode, and for each card itself in cards mode.
-- Returns { rows, total, capped }: total is counted on the first page only
-- (null after), up to 10,000 (capped beyond).
create function public.browse_notes(
  p_deck_id uuid,
  p_query jsonb default null,
  p_mode text default 'notes',
  p_sort text default 'created',
  p_descending boolean default true,
  p_limit integer default 100,
  p_offset integer default 0,
  p_kind public.note_kind default null,
  p_note_type_id uuid default null,
  p_tags text[] default null
) returns jsonb
language plpgsql stable security invoker
set search_path = ''
-- Compiling (JIT) a search costs more than it saves on a deck's notes.
set jit = off
as $$
declare
  count_cap constant integer := 10000;
  schedule_columns constant text[] :=
    array['due', 'interval', 'difficulty', 'stability', 'retrievability', 'lapses', 'reviews'];
  uid uuid := (select auth.uid());
  profile record;
  today record;
  decay double precision;
  factor double precision;
  context jsonb;
  conditions text;
  dir text := case when p_descending then 'desc' else 'asc' end;
  null_order text;
  sort_key text;
  retrievability text;
  card_value jsonb;
  schedules text;
  aggregates text;
  page_rows jsonb;
  total bigint;
begin
  if p_deck_id is null then
    perform private.fail('22023', 'choose a deck', 'p_deck_id');
  end if;
  if p_mode is null or p_mode not in ('notes', 'cards') then
    perform private.fail('22023', 'the mode is notes or cards', 'p_mode');
  end if;
  if p_limit is null or p_limit not between 1 and 500 then
    perform private.fail('22023', 'a page holds 1 to 500 rows', 'p_limit');
  end if;
  if p_offset is null or p_offset not between 0 and 1000000 then
    perform private.fail('22023', 'the offset is 0 to 1,000,000', 'p_offset');
  end if;
  if p_descending is null then
    perform private.fail('22023', 'the direction is ascending or descending', 'p_descending');
  end if;
  if p_tags is not null and (cardinality(p_tags) > 50 or array_position(p_tags, null) is not null) then
    perform private.fail('22023', 'filter by at most 50 tags', 'p_tags');
  end if;
  if p_sort is null or not (
    p_sort in ('sort_field', 'created', 'modified', 'deck', 'tags', 'due', 'interval', 'difficulty', 'stability',
      'retrievability', 'lapses', 'reviews')
    or p_sort ~ '^field:[^"]{1,100}$'
  ) then
    perform private.fail('22023', 'unknown order', 'p_sort');
  end if;

  select p.timezone, p.day_starts_at, p.fsrs_params into profile from public.profiles p where p.id = uid;
  select * into today from private.study_day(coalesce(profile.timezone, 'UTC'), coalesce(profile.day_starts_at, 4), now());
  decay := coalesce(profile.fsrs_params[21], 0.1542);
  factor := power(0.9, -1 / decay) - 1;
  -- In cards mode the card-level parts of the search hold for each card itself.
  context := jsonb_build_object('uid', uid, 'deck_id', p_deck_id, 'day_start', today.day_start,
    'day_end', today.day_end, 'decay', decay, 'factor', factor, 'per_card', p_mode = 'cards');
  if p_query is not null and p_query <> 'null'::jsonb then
    perform private.search_check(p_query, 1);
  end if;

  conditions := concat_ws(' and ',
    format('n.deck_id = %L::uuid', p_deck_id),
    case when p_kind is not null then format('n.kind = %L::public.note_kind', p_kind) end,
    case when p_note_type_id is not null then format('n.note_type_id = %L::uuid', p_note_type_id) end,
    case when cardinality(p_tags) > 0 then format('public.tags_with_mine(n) @> %L::text[]', p_tags) end,
    case when p_query is not null and p_query <> 'null'::jsonb then private.search_condition(p_query, context) end);

  -- FSRS's forgetting curve for the schedule st, as prop:r computes it.
  retrievability := format('case when st.state <> ''new'' and st.stability > 0 and st.last_review is not null '
    'then power(1 + %L::float8 * floor(greatest(extract(epoch from now() - st.last_review), 0) / 86400) / st.stability, '
    '-%L::float8) end', factor, decay);
  -- One card's values from its schedule st (a card without one is new); none for a card not
  -- yet studied, nor for a visitor.
  card_value := case when uid is null then jsonb_build_object(
    'state', 'null::public.card_state', 'suspended', 'null::boolean', 'due', 'null::timestamptz',
    'interval', 'null::integer', 'difficulty', 'null::float8', 'stability', 'null::float8',
    'retrievability', 'null::float8', 'lapses', 'null::integer', 'reviews', 'null::integer')
  else jsonb_build_object(
    'state', 'coalesce(st.state, ''new'')', 'suspended', 'coalesce(st.suspended, false)',
    'due', 'case when st.state <> ''new'' then st.due end',
    'interval', 'case when st.state <> ''new'' then st.scheduled_days end',
    'difficulty', 'case when st.state <> ''new'' then (st.difficulty - 1) / 9 end',
    'stability', 'case when st.state <> ''new'' then st.stability end',
    'retrievability', retrievability,
    'lapses', 'coalesce(st.lapses, 0)',
    'reviews', 'coalesce(st.reps, 0)') end;
  schedules := case when uid is null then '' else
    format('left join public.card_states st on st.card_id = c.id and st.user_id = %L::uuid', uid) end;

  -- A column of the note that is never null sorts along its index in either direction.
  null_order := case when p_sort in ('sort_field', 'created', 'modified') then '' else 'nulls last' end;
  sort_key := case
    when p_sort = 'sort_field' then 'lower(n.sort_field)'
    when p_sort = 'created' then 'n.created_at'
    when p_sort = 'modified' then 'n.updated_at'
    when p_sort = 'deck' then '(select lower(d.name) from public.decks d where d.id = n.deck_id)'
    when p_sort = 'tags' then 'lower(array_to_string(n.tags, '' ''))'
    when p_sort like 'field:%' then format('lower(n.fields ->> %L)', substr(p_sort, 7))
    when p_mode = 'notes' then 's.' || p_sort
    else card_value ->> p_sort
  end;

  if p_mode = 'notes' then
    -- Per note, the aggregates of the caller's schedules of its cards. Sorted
    -- by one of them, every note's are needed: one pass over the notes with
    -- their cards, grouped by note. Sorted by a column of the note, the page
    -- is cut from the notes alone and only its notes' are looked up.
    aggregates := format(
      'select c.note_id, count(*) as cards, '
      'min(%s) filter (where not coalesce(%s, false)) as due, avg(%s) as interval, avg(%s) as difficulty, '
      'avg(%s) as stability, avg(%s) as retrievability, sum(%s) as lapses, sum(%s) as reviews '
      'from public.cards c %s',
      card_value ->> 'due', card_value ->> 'suspended', card_value ->> 'interval', card_value ->> 'difficulty',
      card_value ->> 'stability', card_value ->> 'retrievability', card_value ->> 'lapses',
      card_value ->> 'reviews', schedules);
    -- Each row of the page is built by a lookup of its note by id.
    execute format(
      'select coalesce(jsonb_agg(r.row order by r.at), ''[]'') from (select p.at, ('
      '  select to_jsonb(n) - ''search'' || jsonb_build_object(''my_tags'', public.my_tags(n), '
      '    ''deck_name'', (select d.name from public.decks d where d.id = n.deck_id), '
      '    ''card_count'', coalesce(s.cards, 0), ''due'', s.due, ''interval'', s.interval, '
      '    ''difficulty'', s.difficulty, ''stability'', s.stability, ''retrievability'', s.retrievability, '
      '    ''lapses'', s.lapses, ''reviews'', s.reviews) from public.notes n where n.id = p.id) as row '
      'from (select page.*, row_number() over () as at from ('
      '  select n.id%s from public.notes n %s'
      '  where %s order by %s %s %s, n.id %s limit %s offset %s) page) p %s) r',
      case when p_sort = any (schedule_columns) then format(
        ', count(c.id) as cards, min(%s) filter (where not coalesce(%s, false)) as due, avg(%s) as interval, '
        'avg(%s) as difficulty, avg(%s) as stability, avg(%s) as retrievability, sum(%s) as lapses, '
        'sum(%s) as reviews',
        card_value ->> 'due', card_value ->> 'suspended', card_value ->> 'interval', card_value ->> 'difficulty',
        card_value ->> 'stability', card_value ->> 'retrievability', card_value ->> 'lapses',
        card_value ->> 'reviews')
      else '' end,
      -- One pass joining the notes to their cards and schedules, grouped by note.
      case when p_sort = any (schedule_columns) then
        format('left join public.cards c on c.note_id = n.id %s', schedules)
      else '' end,
      conditions || case when p_sort = any (schedule_columns) then ' group by n.id' else '' end,
      case when p_sort = any (schedule_columns) then p_sort else sort_key end, dir, null_order, dir, p_limit, p_offset,
      case when p_sort = any (schedule_columns) then 'cross join lateral (select p.*) s'
      else format('left join lateral (%s where c.note_id = p.id group by c.note_id) s on true', aggregates) end)
    into page_rows;
    if p_offset = 0 then
      execute format('select count(*) from (select 1 from public.notes n where %s limit %s) m',
        conditions, count_cap + 1)
      into total;
    end if;
  else
    -- One row per card, with the caller's own schedule of it. Sorted by a
    -- column of the note, the page is cut without the schedules; each row of
    -- the page is built by a lookup of its card by id.
    execute format(
      'select coalesce(jsonb_agg(r.row order by r.at), ''[]'') from (select p.at, ('
      '  select to_jsonb(n) - ''search'' || jsonb_build_object(''my_tags'', public.my_tags(n), '
      '    ''deck_name'', (select d.name from public.decks d where d.id = n.deck_id), '
      '    ''card_count'', (select count(*) from public.cards k where k.note_id = n.id), '
      '    ''card_id'', c.id, ''ordinal'', c.ordinal, ''template'', private.card_template_name(n, c.ordinal), '
      '    ''state'', %s, ''suspended'', %s, ''due'', %s, ''interval'', %s, '
      '    ''difficulty'', %s, ''stability'', %s, ''retrievability'', %s, '
      '    ''lapses'', %s, ''reviews'', %s) '
      '  from public.cards c join public.notes n on n.id = c.note_id %s where c.id = p.card_id) as row '
      'from (select page.*, row_number() over () as at from ('
      '  select c.id as card_id from public.notes n join public.cards c on c.note_id = n.id %s'
      '  where %s order by %s %s %s, c.id %s limit %s offset %s) page) p) r',
      card_value ->> 'state', card_value ->> 'suspended', card_value ->> 'due', card_value ->> 'interval',
      card_value ->> 'difficulty', card_value ->> 'stability', card_value ->> 'retrievability',
      card_value ->> 'lapses', card_value ->> 'reviews', schedules,
      case when p_sort = any (schedule_columns) then schedules else '' end,
      conditions, sort_key, dir, null_order, dir, p_limit, p_offset)
    into page_rows;
    if p_offset = 0 then
      execute format('select count(*) from (select 1 from public.notes n join public.cards c on c.note_id = n.id '
        'where %s limit %s) m', conditions, count_cap + 1)
      into total;
    end if;
  end if;

  return jsonb_build_object('rows', page_rows, 'total', case when total is not null then least(total, count_cap) end,
    'capped', total > count_cap);
end
$$;

revoke execute on function public.browse_notes(uuid, jsonb, text, text, boolean, integer, integer, public.note_kind, uuid, text[])
  from public;
grant execute on function public.browse_notes(uuid, jsonb, text, text, boolean, integer, integer, public.note_kind, uuid, text[])
  to anon, authenticated, service_role;
