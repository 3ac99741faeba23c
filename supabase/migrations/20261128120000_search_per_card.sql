-- Card-level parts of a search (is:, flag:, prop:, rated:, introduced:,
-- card:, cid:) hold for each card itself in the browser's cards mode and in
-- custom study's cram, as in Anki's cards mode; the notes list keeps "any
-- card of the note".

-- One part of a search as a condition on the note `n`, its values as
-- literals (format's %L); card-level parts hold when any card of the note
-- matches with the caller's own schedule. With `per_card` in the context a
-- card `c` of `n` is in scope (the browser's cards mode, cram): card-level
-- parts then hold for that card itself, as in Anki's cards mode. A
-- signed-out caller has no schedules, answers or own tags, so those parts
-- match nothing for them.
create or replace function private.search_condition(p_node jsonb, p_context jsonb) returns text
language plpgsql stable
set search_path = ''
as $$
declare
  op text := p_node ->> 'op';
  uid text := p_context ->> 'uid';
  -- Text is looked up in the trigram index (search_text_ids), within the deck searched.
  text_ids constant text := format('n.id in (select private.search_text_ids(%L::uuid, %%L))', p_context ->> 'deck_id');
  like_value text := p_node ->> 'like';
  per_card constant boolean := coalesce((p_context ->> 'per_card')::boolean, false);
  -- The caller's schedule of a card of the note, or of the card in scope.
  schedule constant text := case when per_card then
    'exists (select 1 from public.card_states s where s.card_id = c.id and s.user_id = %L::uuid and %s)'
  else
    'exists (select 1 from public.cards c join public.card_states s on s.card_id = c.id '
    'where c.note_id = n.id and s.user_id = %L::uuid and %s)' end;
  -- A condition on a card `c`: for any card of the note, or for the card in scope.
  any_card constant text := case when per_card then '(%s)'
    else 'exists (select 1 from public.cards c where c.note_id = n.id and %s)' end;
  field_named constant text := '(f.key ilike %1$L or private.search_field_name(n.kind, f.key) ilike %1$L)';
  since timestamptz;
  guard text;
  expression text;
  regex text;
  regex_operator text := '~*';
begin
  if uid is null and op in ('is', 'flag', 'prop', 'rated', 'introduced') then
    return 'false';
  end if;
  if p_node ? 'days' then
    since := (p_context ->> 'day_start')::timestamptz
      - make_interval(days => least((p_node ->> 'days')::integer, 36500) - 1);
  end if;
  case op
    when 'and', 'or' then
      return format('(%s)', (
        select string_agg(private.search_condition(e.value, p_context), case op when 'and' then ' and ' else ' or ' end
          order by e.at)
        from jsonb_array_elements(p_node -> 'nodes') with ordinality as e(value, at)));
    when 'not' then
      return format('(not coalesce(%s, false))', private.search_condition(p_node -> 'node', p_context));
    when 'text' then
      return format('(' || text_ids || ')', like_value);
    when 'word' then
      return format('(' || text_ids || ' and n.plain_text ~* %L)',
        '%' || like_value || '%', '\y' || private.search_like_regex(like_value) || '\y');
    when 'field' then
      return format('(' || text_ids || ' and exists (select 1 from jsonb_each_text(n.fields) as f(key, value) where %s '
        'and private.plain_text(f.value) ilike %L))',
        '%' || like_value || '%', format(field_named, p_node ->> 'field'), like_value);
    when 'regex' then
      regex := p_node ->> 'regex';
      -- Anki's (?-i) at the start: case matters.
      if regex like '(?-i)%' then
        regex := substr(regex, 6);
        regex_operator := '~';
      end if;
      perform private.search_regex_check(regex);
      if p_node ? 'field' then
        return format('exists (select 1 from jsonb_each_text(n.fields) as f(key, value) where %s '
          'and private.plain_text(f.value) %s %L)', format(field_named, p_node ->> 'field'), regex_operator, regex);
      end if;
      return format('(n.plain_text %s %L)', regex_operator, regex);
    when 'tag' then
      -- The note's tags, or the caller's own on it (personal_notes, read once for all notes).
      if uid is null then
        return format('(%s)', case when lower(like_value) = 'none' then 'cardinality(n.tags) = 0' else
          format('exists (select 1 from unnest(n.tags) as t(tag) where t.tag ilike %L or t.tag ilike %L)',
            like_value, like_value || '::%') end);
      end if;
      if lower(like_value) = 'none' then
        return format('(cardinality(n.tags) = 0 and n.id not in (select p.note_id from public.personal_notes p '
          'where p.user_id = %L::uuid and cardinality(p.tags) > 0))', uid);
      end if;
      return format('(exists (select 1 from unnest(n.tags) as t(tag) where t.tag ilike %1$L or t.tag ilike %2$L) '
        'or n.id in (select p.note_id from public.personal_notes p cross join unnest(p.tags) as t(tag) '
        'where p.user_id = %3$L::uuid and (t.tag ilike %1$L or t.tag ilike %2$L)))',
        like_value, like_value || '::%', uid);
    when 'deck' then
      -- The deck by name or path, and every deck under it.
      return format($sql$n.deck_id in (
        with recursive tree (id, path, hit) as (
          select d.id, d.name, d.name ilike %1$L
          from public.decks d
          where d.parent_id is null or not exists (select 1 from public.decks p where p.id = d.parent_id)
          union all
          select d.id, t.path || '::' || d.name, t.hit or d.name ilike %1$L or (t.path || '::' || d.name) ilike %1$L
          from public.decks d join tree t on d.parent_id = t.id
        )
        select tree.id from tree where tree.hit)$sql$, like_value);
    when 'note' then
      return format($sql$(n.kind::text ilike %1$L or (case n.kind
          when 'custom' then (select t.name from public.note_types t where t.id = n.note_type_id)
          when 'basic' then 'Basic'
          when 'basic_reversed' then 'Basic (and reversed card)'
          when 'type_in' then 'Basic (type in the answer)'
          when 'cloze' then 'Cloze'
          when 'image_occlusion' then 'Image Occlusion'
        end) ilike %1$L)$sql$, like_value);
    when 'card' then
      if p_node ? 'ordinal' then
        return format(any_card, format('c.ordinal = %L::integer', p_node ->> 'ordinal'));
      end if;
      return format(any_card, format($sql$(case n.kind
          when 'custom' then (
            select case t.kind when 'cloze' then t.templates -> 0 ->> 'name' else t.templates -> (c.ordinal - 1) ->> 'name' end
            from public.note_types t where t.id = n.note_type_id)
          when 'cloze' then 'Cloze'
          when 'image_occlusion' then 'Image Occlusion'
          else 'Card ' || c.ordinal
        end) ilike %L$sql$, like_value));
    when 'is' then
      return format(schedule, uid, case p_node ->> 'state'
        when 'new' then $sql$s.state = 'new'$sql$
        when 'learn' then $sql$s.state in ('learning', 'relearning')$sql$
        when 'review' then $sql$s.state in ('review', 'relearning')$sql$
        when 'due' then format($sql$(s.state <> 'new' and not s.suspended
          and (s.buried_until is null or s.buried_until <= now()) and s.due < %L::timestamptz)$sql$,
          p_context ->> 'day_end')
        when 'suspended' then 's.suspended'
        when 'buried' then 's.buried_until > now()'
      end);
    when 'flag' then
      return format(schedule, uid, format('s.flag = %L::smallint', p_node ->> 'flag'));
    when 'prop' then
      guard := $sql$s.state <> 'new'$sql$;
      case p_node ->> 'prop'
        when 'ivl' then
          guard := 'true';
          expression := 's.scheduled_days';
        when 'reps' then
          guard := 'true';
          expression := 's.reps';
        when 'lapses' then
          guard := 'true';
          expression := 's.lapses';
        when 'due' then
          -- Days from the start of the caller's study day today: 0 due today, -1 overdue since yesterday.
          expression := format('floor(extract(epoch from s.due - %L::timestamptz) / 86400)', p_context ->> 'day_start');
        when 's' then
          expression := 's.stability';
        when 'd' then
          expression := '(s.difficulty - 1) / 9';
        when 'r' then
          -- FSRS's forgetting curve: R = (1 + factor * t / S) ^ -decay, t in whole days since the last review.
          guard := $sql$s.state <> 'new' and s.stability > 0 and s.last_review is not null$sql$;
          expression := format('power(1 + %L::float8 * floor(greatest(extract(epoch from now() - s.last_review), 0) / 86400) '
            '/ s.stability, -%L::float8)', p_context ->> 'factor', p_context ->> 'decay');
      end case;
      return format(schedule, uid, format('(%s and %s %s %L::float8)', guard, expression,
        case p_node ->> 'cmp' when '<' then '<' when '<=' then '<=' when '>' then '>' when '>=' then '>='
          when '=' then '=' when '!=' then '<>' end,
        p_node ->> 'value'));
    when 'rated' then
      return format(any_card, format('exists (select 1 from public.review_logs l where l.card_id = c.id '
        'and l.user_id = %L::uuid and l.reviewed_at >= %L::timestamptz and (%L::smallint is null or l.rating = %L::smallint))',
        uid, since, p_node ->> 'button', p_node ->> 'button'));
    when 'added' then
      return format('(n.created_at >= %L::timestamptz)', since);
    when 'edited' then
      return format('(n.updated_at >= %L::timestamptz)', since);
    when 'introduced' then
      -- The caller's first answer to a card of the note falls in the days.
      return format(any_card, format('(select min(l.reviewed_at) from public.review_logs l '
        'where l.card_id = c.id and l.user_id = %L::uuid) >= %L::timestamptz', uid, since));
    when 'nid' then
      return format('(n.id = any (%L::uuid[]))', array(select jsonb_array_elements_text(p_node -> 'ids')));
    when 'cid' then
      return format(any_card, format('c.id = any (%L::uuid[])',
        array(select jsonb_array_elements_text(p_node -> 'ids'))));
  end case;
end
$$;

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
create or replace function public.browse_notes(
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
create or replace function public.custom_study_cards(
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
