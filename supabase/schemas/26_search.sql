-- Search: Anki's search syntax, parsed by @engram/core into a JSON tree
-- (packages/core/src/search/search-node.ts) and evaluated here as one query.

-- Trigram indexes serve text anywhere in a field (`ilike '%mito%'`).
create extension if not exists pg_trgm with schema extensions;

create index notes_plain_text_trgm_idx on public.notes using gin (plain_text extensions.gin_trgm_ops);

-- A field's name as Anki calls it on its stock note types, for `front:`,
-- `text:`, `"back extra:"`…; a custom note's fields already carry their names.
create function private.search_field_name(p_kind public.note_kind, p_key text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case when p_kind = 'custom' then p_key else case p_key
    when 'front' then 'Front' when 'back' then 'Back' when 'text' then 'Text'
    when 'extra' then 'Back Extra' when 'back_extra' then 'Back Extra' when 'header' then 'Header'
    when 'comments' then 'Comments' when 'image' then 'Image' when 'occlusions' then 'Occlusion'
    else p_key end end
$$;

-- Whether a JSON value is a whole number within bounds.
create function private.search_whole(p_value jsonb, p_min numeric, p_max numeric) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select case when jsonb_typeof(p_value) = 'number' then
    (p_value #>> '{}')::numeric = trunc((p_value #>> '{}')::numeric)
    and (p_value #>> '{}')::numeric between p_min and p_max
  else false end
$$;

-- Whether a JSON value is a LIKE pattern: text that does not end in a lone escape.
create function private.search_like(p_value jsonb) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(jsonb_typeof(p_value) = 'string' and (p_value #>> '{}') !~ '(^|[^\\])(\\\\)*\\$', false)
$$;

-- Refuses (22023) a search tree that is not one search-node.ts describes:
-- unknown ops or keys, more than 20 deep, more than 100 parts, text over
-- 1,000 characters, numbers out of range. Returns how many parts it has.
create function private.search_check(p_node jsonb, p_depth integer) returns integer
language plpgsql immutable
set search_path = ''
as $$
declare
  op text;
  keys text[];
  total integer := 1;
  child jsonb;
  valid boolean;
begin
  if p_depth > 20 then
    perform private.fail('22023', 'a search nests at most 20 deep', 'p_query');
  end if;
  if jsonb_typeof(p_node) is distinct from 'object' or jsonb_typeof(p_node -> 'op') is distinct from 'string' then
    perform private.fail('22023', 'each part of a search is an object with an op', 'p_query');
  end if;
  if exists (
    select 1 from jsonb_each(p_node) as e
    where jsonb_typeof(e.value) = 'string' and char_length(e.value #>> '{}') > 1000
  ) then
    perform private.fail('22023', 'a search''s text is at most 1000 characters', 'p_query');
  end if;
  op := p_node ->> 'op';
  keys := array(select k from jsonb_object_keys(p_node) as k where k <> 'op' order by k);
  case op
    when 'and', 'or' then
      valid := keys = array['nodes'] and jsonb_typeof(p_node -> 'nodes') = 'array'
        and jsonb_array_length(p_node -> 'nodes') between 1 and 100;
      if valid then
        for child in select value from jsonb_array_elements(p_node -> 'nodes') loop
          total := total + private.search_check(child, p_depth + 1);
          if total > 100 then
            perform private.fail('22023', 'a search has at most 100 parts', 'p_query');
          end if;
        end loop;
      end if;
    when 'not' then
      valid := keys = array['node'];
      if valid then
        total := total + private.search_check(p_node -> 'node', p_depth + 1);
      end if;
    when 'text', 'word', 'tag', 'deck', 'note' then
      valid := keys = array['like'] and private.search_like(p_node -> 'like');
    when 'field' then
      valid := keys = array['field', 'like'] and private.search_like(p_node -> 'field')
        and private.search_like(p_node -> 'like');
    when 'regex' then
      valid := keys in (array['regex'], array['field', 'regex']) and jsonb_typeof(p_node -> 'regex') = 'string'
        and (p_node -> 'field' is null or private.search_like(p_node -> 'field'));
    when 'card' then
      valid := (keys = array['ordinal'] and private.search_whole(p_node -> 'ordinal', 1, 1000))
        or (keys = array['like'] and private.search_like(p_node -> 'like'));
    when 'is' then
      valid := keys = array['state']
        and coalesce(p_node ->> 'state' in ('new', 'learn', 'review', 'due', 'suspended', 'buried'), false);
    when 'flag' then
      valid := keys = array['flag'] and private.search_whole(p_node -> 'flag', 0, 7);
    when 'prop' then
      valid := keys = array['cmp', 'prop', 'value']
        and coalesce(p_node ->> 'prop' in ('ivl', 'due', 'reps', 'lapses', 's', 'd', 'r'), false)
        and coalesce(p_node ->> 'cmp' in ('<', '<=', '>', '>=', '=', '!='), false)
        and case when jsonb_typeof(p_node -> 'value') = 'number'
          then abs((p_node ->> 'value')::numeric) <= 1000000000 else false end;
    when 'rated' then
      valid := keys in (array['days'], array['button', 'days'])
        and private.search_whole(p_node -> 'days', 1, 999999999)
        and (p_node -> 'button' is null or private.search_whole(p_node -> 'button', 1, 4));
    when 'added', 'edited', 'introduced' then
      valid := keys = array['days'] and private.search_whole(p_node -> 'days', 1, 999999999);
    when 'nid', 'cid' then
      valid := keys = array['ids'] and jsonb_typeof(p_node -> 'ids') = 'array'
        and jsonb_array_length(p_node -> 'ids') between 1 and 500
        and not exists (
          select 1 from jsonb_array_elements(p_node -> 'ids') as i
          where jsonb_typeof(i) <> 'string'
            or (i #>> '{}') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        );
    else
      perform private.fail('22023', format('%s is not a search op', left(op, 50)), 'p_query');
  end case;
  if not coalesce(valid, false) then
    perform private.fail('22023', format('a %s search is malformed', op), 'p_query');
  end if;
  return total;
end
$$;

-- Refuses (2201B) a regular expression that could take long to run: over 200
-- characters, a backreference, or a group holding a quantifier that is
-- quantified itself (`(a+)+`, `(a|a?){20}`). The embedded database cannot
-- cancel a running statement, so this is checked before it runs.
create function private.search_regex_check(p_regex text) returns void
language plpgsql immutable
set search_path = ''
as $$
declare
  size integer := char_length(p_regex);
  i integer := 1;
  c text;
  depth integer := 0;
  -- Per open group (index depth + 1): whether a quantifier occurs inside it.
  quantified boolean[] := array[false];
  -- The atom just read is a group with a quantifier inside.
  complex_atom boolean := false;
  in_class boolean := false;
begin
  if size > 200 then
    perform private.fail('2201B', 'regular expression is too complex: at most 200 characters', 'p_query');
  end if;
  while i <= size loop
    c := substr(p_regex, i, 1);
    if in_class then
      if c = '\' then
        i := i + 1;
      elsif c = ']' then
        in_class := false;
      end if;
    elsif c = '\' then
      if substr(p_regex, i + 1, 1) ~ '[1-9]' then
        perform private.fail('2201B', 'regular expression is too complex: no backreferences', 'p_query');
      end if;
      complex_atom := false;
      i := i + 1;
    elsif c = '[' then
      in_class := true;
      complex_atom := false;
      -- A ] first in a class (after an optional ^) is a literal.
      if substr(p_regex, i + 1, 1) = '^' then
        i := i + 1;
      end if;
      if substr(p_regex, i + 1, 1) = ']' then
        i := i + 1;
      end if;
    elsif c = '(' then
      depth := depth + 1;
      quantified[depth + 1] := false;
      complex_atom := false;
      -- (?: (?= (?! (?i): the ? opens the group's kind, it is no quantifier.
      if substr(p_regex, i + 1, 1) = '?' then
        i := i + 1;
      end if;
    elsif c = ')' then
      if depth > 0 then
        complex_atom := quantified[depth + 1];
        depth := depth - 1;
        quantified[depth + 1] := quantified[depth + 1] or complex_atom;
      end if;
    elsif c in ('*', '+', '?', '{') then
      if complex_atom then
        perform private.fail('2201B', 'regular expression is too complex: a repeated group repeats inside', 'p_query');
      end if;
      quantified[depth + 1] := true;
    else
      complex_atom := false;
    end if;
    i := i + 1;
  end loop;
end
$$;

-- A LIKE pattern (escape \) as a regular expression, for w:.
create function private.search_like_regex(p_like text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(string_agg(
    case
      when m[1] like '\\_' then regexp_replace(substr(m[1], 2), '([^[:alnum:][:space:]])', '\\\1')
      when m[1] = '%' then '.*'
      when m[1] = '_' then '.'
      else regexp_replace(m[1], '([^[:alnum:][:space:]])', '\\\1')
    end, '' order by at), '')
  from regexp_matches(p_like, '(\\.|.)', 'g') with ordinality as t(m, at)
$$;

-- The ids of the notes (in one deck, or in every deck the caller reads) whose
-- text matches a LIKE pattern. RLS lets no operator that is not leakproof,
-- such as ILIKE, use an index ahead of its policies, so on the notes table
-- itself a text search reads every note; here the trigram index finds them,
-- and the caller's query keeps only the ids its policies let it read.
create function private.search_text_ids(p_deck_id uuid, p_like text) returns setof uuid
language plpgsql stable security definer
-- Few rows as a rule, so the caller's query looks its notes up by id.
rows 100
set search_path = ''
as $$
begin
  return query execute format(
    'select n.id from public.notes n where n.plain_text ilike %L and n.deck_id in (select private.readable_deck_ids())%s',
    p_like, case when p_deck_id is null then '' else format(' and n.deck_id = %L::uuid', p_deck_id) end);
end
$$;

revoke execute on function private.search_text_ids(uuid, text) from public;
grant execute on function private.search_text_ids(uuid, text) to anon, authenticated, service_role;

-- One part of a search as a condition on the note `n`, its values as
-- literals (format's %L); card-level parts hold when any card of the note
-- matches with the caller's own schedule. With `per_card` in the context a
-- card `c` of `n` is in scope (the browser's cards mode, cram): card-level
-- parts then hold for that card itself, as in Anki's cards mode. A
-- signed-out caller has no schedules, answers or own tags, so those parts
-- match nothing for them.
create function private.search_condition(p_node jsonb, p_context jsonb) returns text
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

-- The notes of a deck (every deck the caller reads when p_deck_id is null)
-- that match a search tree from @engram/core's parseSearch; null matches all.
-- Runs as the caller, so RLS decides which notes and schedules it sees, and
-- returns notes so the API filters, orders, counts and pages on top.
create function public.search_notes(p_deck_id uuid, p_query jsonb) returns setof public.notes
language plpgsql stable security invoker
set search_path = ''
-- Compiling (JIT) a search costs more than it saves on a deck's notes.
set jit = off
as $$
declare
  profile record;
  today record;
  decay double precision;
  context jsonb;
begin
  if p_query is null or p_query = 'null'::jsonb then
    return query select n.* from public.notes n where p_deck_id is null or n.deck_id = p_deck_id;
    return;
  end if;
  perform private.search_check(p_query, 1);
  select p.timezone, p.day_starts_at, p.fsrs_params into profile
  from public.profiles p where p.id = (select auth.uid());
  select * into today from private.study_day(coalesce(profile.timezone, 'UTC'), coalesce(profile.day_starts_at, 4), now());
  decay := coalesce(profile.fsrs_params[21], 0.1542);
  context := jsonb_build_object(
    'uid', (select auth.uid()),
    'deck_id', p_deck_id,
    'day_start', today.day_start,
    'day_end', today.day_end,
    'decay', decay,
    'factor', power(0.9, -1 / decay) - 1);
  return query execute format(
    'select n.* from public.notes n where ($1::uuid is null or n.deck_id = $1::uuid) and %s',
    private.search_condition(p_query, context))
  using p_deck_id;
end
$$;

revoke execute on function public.search_notes(uuid, jsonb) from public;
grant execute on function public.search_notes(uuid, jsonb) to anon, authenticated, service_role;
