-- A signed-out caller's search reads no schedules, answers or own tags
-- (tables anon may not read): those parts match nothing for them.

-- One part of a search as a condition on the note `n`, its values as
-- literals (format's %L); card-level parts hold when any card of the note
-- matches with the caller's own schedule. A signed-out caller has no
-- schedules, answers or own tags, so those parts match nothing for them.
create or replace function private.search_condition(p_node jsonb, p_context jsonb) returns text
language plpgsql stable
set search_path = ''
as $$
declare
  op text := p_node ->> 'op';
  uid text := p_context ->> 'uid';
  like_value text := p_node ->> 'like';
  schedule constant text :=
    'exists (select 1 from public.cards c join public.card_states s on s.card_id = c.id '
    'where c.note_id = n.id and s.user_id = %L::uuid and %s)';
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
      return format('(n.plain_text ilike %L)', like_value);
    when 'word' then
      return format('(n.plain_text ilike %L and n.plain_text ~* %L)',
        '%' || like_value || '%', '\y' || private.search_like_regex(like_value) || '\y');
    when 'field' then
      return format('(n.plain_text ilike %L and exists (select 1 from jsonb_each_text(n.fields) as f(key, value) where %s '
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
        return format('exists (select 1 from public.cards c where c.note_id = n.id and c.ordinal = %L::integer)',
          p_node ->> 'ordinal');
      end if;
      return format($sql$exists (select 1 from public.cards c where c.note_id = n.id and (case n.kind
          when 'custom' then (
            select case t.kind when 'cloze' then t.templates -> 0 ->> 'name' else t.templates -> (c.ordinal - 1) ->> 'name' end
            from public.note_types t where t.id = n.note_type_id)
          when 'cloze' then 'Cloze'
          when 'image_occlusion' then 'Image Occlusion'
          else 'Card ' || c.ordinal
        end) ilike %L)$sql$, like_value);
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
      return format('exists (select 1 from public.cards c join public.review_logs l on l.card_id = c.id '
        'where c.note_id = n.id and l.user_id = %L::uuid and l.reviewed_at >= %L::timestamptz and (%L::smallint is null or l.rating = %L::smallint))',
        uid, since, p_node ->> 'button', p_node ->> 'button');
    when 'added' then
      return format('(n.created_at >= %L::timestamptz)', since);
    when 'edited' then
      return format('(n.updated_at >= %L::timestamptz)', since);
    when 'introduced' then
      -- The caller's first answer to a card of the note falls in the days.
      return format('exists (select 1 from public.cards c where c.note_id = n.id and '
        '(select min(l.reviewed_at) from public.review_logs l where l.card_id = c.id and l.user_id = %L::uuid) >= %L::timestamptz)',
        uid, since);
    when 'nid' then
      return format('(n.id = any (%L::uuid[]))', array(select jsonb_array_elements_text(p_node -> 'ids')));
    when 'cid' then
      return format('exists (select 1 from public.cards c where c.note_id = n.id and c.id = any (%L::uuid[]))',
        array(select jsonb_array_elements_text(p_node -> 'ids')));
  end case;
end
$$;
