-- Helpers that policies, triggers and RPCs share. They live in a schema the
-- API does not expose; the security definer ones read membership without
-- recursing through the policies of the tables they read.
create schema if not exists private;
grant usage on schema private to anon, authenticated, service_role;

-- Who may call the functions created from here on (by the role running this
-- file: postgres on the platform). No function is executable by every role
-- unless granted; helpers in private are callable by the API roles, whose
-- policies and RPCs use them, and a helper they must not call has a revoke
-- beside it. Default privileges per schema can only add to the global ones,
-- so the revoke from public is global; every RPC in public grants execute to
-- whom it serves.
alter default privileges revoke execute on functions from public;
alter default privileges in schema private grant execute on functions to anon, authenticated, service_role;

create type public.deck_role as enum ('owner', 'editor', 'viewer');
create type public.note_kind as enum ('basic', 'basic_reversed', 'cloze', 'type_in', 'custom', 'image_occlusion');
create type public.card_state as enum ('new', 'learning', 'review', 'relearning');
create type public.import_status as enum ('queued', 'running', 'done', 'failed');
create type public.import_source as enum ('apkg', 'csv');

create function private.touch_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- Text of a field with markup removed, as the "non-empty" rule sees it
-- (mirrored by stripMarkup in @engram/core).
create function private.strip_markup(p_html text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select btrim(replace(regexp_replace(coalesce(p_html, ''), '<[^>]*>', '', 'g'), '&nbsp;', ' '))
$$;

-- Whether a field shows anything: text once markup is stripped, or an image,
-- audio or video (mirrored by hasContent in @engram/core).
create function private.has_content(p_html text) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select private.strip_markup(p_html) <> '' or coalesce(p_html, '') ~* '<(img|audio|video)\M'
$$;

-- The numbers and nesting depth of a text's well-formed cloze deletions
-- (mirrored by clozeOrdinals and clozeNesting in @engram/core): `{{cN::`
-- opens (N >= 1), `}}` closes the innermost open deletion, unclosed openings
-- are plain text; a number past cards.ordinal's integer range nests and
-- closes but makes no card. One pass, linear in the text's length: one regex
-- tokenises it, every token costs O(1) (the stack is written in place by
-- index instead of being copied by slicing), and the numbers are collected
-- once and sorted at the end.
create function private.cloze_scan(p_text text, out ordinals int[], out depth int)
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  token text[];
  -- the open deletions, innermost at open_count
  open_number numeric[] := '{}';
  -- depth of the deepest deletion closed inside each open one so far
  open_inside int[] := '{}';
  open_count int := 0;
  closed numeric[] := '{}';
  closed_count int := 0;
  height int;
begin
  depth := 0;
  for token in select m from regexp_matches(coalesce(p_text, ''), '\{\{c([0-9]+)::|\}\}', 'g') as m loop
    if token[1] is not null then
      -- number 0 (any run of zeros) is not an opening
      if token[1] ~ '[1-9]' then
        open_count := open_count + 1;
        open_number[open_count] := token[1]::numeric;
        open_inside[open_count] := 0;
      end if;
    elsif open_count > 0 then
      height := open_inside[open_count] + 1;
      closed_count := closed_count + 1;
      closed[closed_count] := open_number[open_count];
      open_count := open_count - 1;
      -- an opening below that never closes never counts: only closed ones report a height
      if open_count > 0 and open_inside[open_count] < height then
        open_inside[open_count] := height;
      end if;
      if height > depth then
        depth := height;
      end if;
    end if;
  end loop;
  ordinals := coalesce(
    (select array_agg(distinct c order by c) from unnest(closed) as c where c <= 2147483647),
    '{}'
  )::int[];
end
$$;

-- Distinct numbers of a text's well-formed cloze deletions, ascending.
create function private.cloze_ordinals(p_text text) returns int[]
language sql immutable parallel safe
set search_path = ''
as $$
  select (private.cloze_scan(p_text)).ordinals
$$;

-- How deep a text's well-formed cloze deletions nest (0 without any).
create function private.cloze_nesting(p_text text) returns int
language sql immutable parallel safe
set search_path = ''
as $$
  select (private.cloze_scan(p_text)).depth
$$;

-- The group numbers of an image occlusion field, each a card (mirrored by
-- occlusionOrdinals in @engram/core): `{{cN::image-occlusion:…}}` with no
-- `}}` inside, N from 1 to cards.ordinal's integer range (0 marks labels).
create function private.occlusion_ordinals(p_text text) returns int[]
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(distinct d.digits::int order by d.digits::int), '{}')
  from (
    select ltrim(m[1], '0') as digits
    from regexp_matches(coalesce(p_text, ''), '\{\{c([0-9]+)::image-occlusion:(?:[^}]|\}(?!\}))*\}\}', 'g') as m
  ) as d
  where case when char_length(d.digits) between 1 and 10 then d.digits::bigint <= 2147483647 else false end
$$;

-- Card ordinals a note produces: basic and type_in 1, basic_reversed 1 and 2,
-- cloze its numbers, image_occlusion its groups.
create function private.note_ordinals(p_kind public.note_kind, p_fields jsonb) returns int[]
language sql immutable parallel safe
set search_path = ''
as $$
  select case p_kind
    when 'basic' then array[1]
    when 'type_in' then array[1]
    -- Card 2 asks the back: Anki makes it only when the back is not empty (field_is_empty).
    when 'basic_reversed' then case when coalesce(p_fields ->> 'back', '') ~* '^(?:[\t\n\v\f\r ]|</?(?:br|div) ?/?>)*$'
      then array[1] else array[1, 2] end
    when 'image_occlusion' then private.occlusion_ordinals(p_fields ->> 'occlusions')
    else private.cloze_ordinals(p_fields ->> 'text')
  end
$$;

-- White space as Rust's str::trim sees it (Unicode White_Space), as Anki trims tags.
create function private.anki_trim(p_text text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select regexp_replace(p_text,
    '^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$',
    '', 'g')
$$;

create function private.anki_trim_start(p_text text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select regexp_replace(p_text, '^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+', '')
$$;

-- Anki's card template language, read as @engram/core's templates/parse.ts
-- reads it: `{{…}}` up to the first `}}` is a tag and `<!--…-->` a comment,
-- whichever starts first; a tag's text loses its leading `{`s and surrounding
-- white space; `#F`/`^F` open a section, `/F` closes one, `!…` is a comment,
-- anything else is a field through filters (`a:b:F`: F, then b, then a).
-- One row per tag that matters, in order; filters listed as they apply.
create function private.template_tokens(p_template text)
returns table (kind text, key text, filters text[])
language sql immutable parallel safe
set search_path = ''
as $$
  with tags as (
    select private.anki_trim(ltrim(m[1], '{')) as body, at
    from regexp_matches(coalesce(p_template, ''),
      '\{\{((?:[^}]|\}(?!\}))*)\}\}|<!--((?:[^-]|-(?!->))*)-->', 'g') with ordinality as t(m, at)
    where m[1] is not null
  ), classified as (
    select at, body,
      case
        when char_length(body) < 2 then 'replacement'
        when left(body, 1) = '#' then 'open'
        when left(body, 1) = '^' then 'open_negated'
        when left(body, 1) = '/' then 'close'
        when left(body, 1) = '!' then 'comment'
        else 'replacement'
      end as kind
    from tags
  )
  select c.kind,
    case when c.kind = 'replacement' then parts[cardinality(parts)]
      else private.anki_trim_start(substr(c.body, 2)) end,
    case when c.kind = 'replacement'
      then array(select parts[i] from generate_series(cardinality(parts) - 1, 1, -1) as i) end
  from classified c
  cross join lateral (select string_to_array(c.body, ':') as parts) as p
  where c.kind <> 'comment'
  order by c.at
$$;

-- What a template uses, or parses = false when its sections do not balance:
-- the names of its fields and section keys (other than Anki's c1-style cloze
-- ones), and the fields it shows through the cloze filter.
create function private.template_summary(p_template text, out parses boolean, out names text[], out cloze_names text[])
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  t record;
  open_keys text[] := '{}';
begin
  names := '{}';
  cloze_names := '{}';
  for t in select * from private.template_tokens(p_template) loop
    if t.kind = 'replacement' then
      names := names || t.key;
      if 'cloze' = any (t.filters) then
        cloze_names := cloze_names || t.key;
      end if;
    elsif t.kind in ('open', 'open_negated') then
      open_keys := open_keys || t.key;
      if t.key !~ '^c[0-9]+$' then
        names := names || t.key;
      end if;
    elsif cardinality(open_keys) = 0 or open_keys[cardinality(open_keys)] <> t.key then
      parses := false;
      return;
    else
      open_keys := trim_array(open_keys, 1);
    end if;
  end loop;
  parses := cardinality(open_keys) = 0;
end
$$;

-- Anki's renders_with_fields: a template that parses and reaches a field in
-- p_filled, through `{{#F}}` only when F is filled and `{{^F}}` only when not.
create function private.template_renders(p_template text, p_filled text[]) returns boolean
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  t record;
  open_keys text[] := '{}';
  outer_shown boolean[] := '{}';
  shown boolean := true;
  found boolean := false;
begin
  for t in select * from private.template_tokens(p_template) loop
    if t.kind = 'replacement' then
      found := found or (shown and t.key = any (p_filled));
    elsif t.kind in ('open', 'open_negated') then
      open_keys := open_keys || t.key;
      outer_shown := outer_shown || shown;
      shown := shown and ((t.key = any (p_filled)) = (t.kind = 'open'));
    elsif cardinality(open_keys) = 0 or open_keys[cardinality(open_keys)] <> t.key then
      return false;
    else
      shown := outer_shown[cardinality(outer_shown)];
      open_keys := trim_array(open_keys, 1);
      outer_shown := trim_array(outer_shown, 1);
    end if;
  end loop;
  return found and cardinality(open_keys) = 0;
end
$$;

-- Anki's field_is_empty: only ASCII white space, <br> and <div> tags.
create function private.field_is_empty(p_value text) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(p_value, '') ~* '^(?:[\t\n\v\f\r ]|</?(?:br|div) ?/?>)*$'
$$;

-- Card ordinals of a custom note, as cardOrdinals in @engram/core gives them
-- (Anki's card generation). Standard types: each template whose front
-- renders with the note's filled fields and the special fields the type does
-- not override (never FrontSide; Tags only when the note has tags). Cloze
-- types: the cloze numbers of the fields the front shows with `cloze:`.
-- A note that would have no card gets card 1.
create function private.template_ordinals(
  p_type_kind text,
  p_type_fields text[],
  p_templates jsonb,
  p_fields jsonb,
  p_tags text[]
) returns int[]
language sql immutable parallel safe
set search_path = ''
as $$
  with wanted as (
    select distinct o
    from (select private.template_summary(p_templates -> 0 ->> 'front') as s) as front
    cross join lateral unnest(case when (front.s).parses then (front.s).cloze_names else '{}' end) as n
    cross join lateral unnest(private.cloze_ordinals(p_fields ->> n)) as o
    where p_type_kind = 'cloze' and n = any (p_type_fields)
    union
    select t.at::int
    from jsonb_array_elements(p_templates) with ordinality as t(template, at)
    cross join lateral (
      select array(
        select f from unnest(p_type_fields) as f where not private.field_is_empty(p_fields ->> f)
        union all
        select s from unnest(array['Card', 'CardFlag', 'Deck', 'Subdeck', 'Tags', 'Type', 'CardID']) as s
        where s <> all (p_type_fields) and (s <> 'Tags' or cardinality(p_tags) > 0)
      ) as filled
    ) as names
    where p_type_kind <> 'cloze' and private.template_renders(t.template ->> 'front', names.filled)
  )
  select coalesce(nullif(array(select o from wanted order by o), '{}'), array[1])
$$;

-- White space as JavaScript's trim() and \s see it, spelled out so the
-- result does not depend on the database's locale (@engram/core uses those).
create function private.trim_space(p_text text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select regexp_replace(p_text,
    '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '', 'g')
$$;

-- Each tag 1-64 characters without white space, no duplicates.
create function private.tags_valid(p_tags text[]) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(bool_and(t ~ '^[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]{1,64}$'), true)
     and count(*) = count(distinct t)
  from unnest(p_tags) as t
$$;

create function private.is_valid_timezone(p_name text) returns boolean
language sql stable
set search_path = ''
as $$
  select exists (select 1 from pg_catalog.pg_timezone_names where name = p_name)
$$;

-- Start and end of the user's study day containing p_at: from p_day_start
-- o'clock local time to the same hour the next local day (mirrored by
-- studyDay in @engram/core). PL/pgSQL, evaluated as simple expressions: a SQL
-- body (never inlined, having a SET clause) is planned again at every
-- statement that calls it.
create function private.study_day(p_timezone text, p_day_start int, p_at timestamptz,
  out day_start timestamptz, out day_end timestamptz)
language plpgsql stable parallel safe
set search_path = ''
as $$
declare
  d timestamp := date_trunc('day', (p_at at time zone p_timezone) - make_interval(hours => p_day_start));
begin
  day_start := (d + make_interval(hours => p_day_start)) at time zone p_timezone;
  day_end := (d + interval '1 day' + make_interval(hours => p_day_start)) at time zone p_timezone;
end
$$;

-- The study day (a date) a moment falls in for a user's timezone and day start.
create function private.study_date(p_at timestamptz, p_timezone text, p_day_start integer) returns date
language plpgsql stable parallel safe
set search_path = ''
as $$
begin
  return ((p_at at time zone p_timezone) - make_interval(hours => p_day_start))::date;
end
$$;

-- Raises one of the error codes the SDK maps (see supabase/README.md).
create function private.fail(p_code text, p_message text, p_detail text default null) returns void
language plpgsql
set search_path = ''
as $$
begin
  raise exception using errcode = p_code, message = p_message, detail = coalesce(p_detail, '');
end
$$;

-- Refuses a timestamp argument outside 1970 (the Unix epoch: no answer or
-- Anki collection is older) to year 9999 (four-digit ISO years), naming the
-- argument; null passes. Day ranges and generate_series over an infinite or
-- extreme time never end or overflow. The card_states and review_logs
-- constraints hold the same bounds.
create function private.check_time(p_at timestamptz, p_name text) returns void
language plpgsql
set search_path = ''
as $$
begin
  if p_at < '1970-01-01 00:00:00+00' or p_at >= '10000-01-01 00:00:00+00' then
    perform private.fail('22023', p_name || ' must be a time from 1970 to 9999', p_name);
  end if;
end
$$;

-- Whether the caller's token belongs to a session that still exists. GoTrue
-- puts the session's id in every user token (`session_id`) and deletes the
-- row on sign-out (all of a user's rows for "sign out of all devices"), on a
-- factor's verification (the user's aal1 sessions) and when the user is
-- deleted; a token signs only itself, so without this check a copy keeps
-- working until it expires. A token without the claim (anon, service_role,
-- or one the project signs itself) names no session and passes. Security
-- definer: the API roles cannot read auth.sessions. PL/pgSQL, whose plan is
-- kept for the connection: the check runs once per statement, and a SQL body
-- would be planned again each time (about 0.2 ms; this costs 0.04 ms).
create function private.session_active() returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
declare
  claim text := auth.jwt() ->> 'session_id';
begin
  if claim is null then
    return true;
  end if;
  if claim !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  return exists (
    select 1 from auth.sessions s
    where s.id = claim::uuid
      and s.user_id = auth.uid()
      and (s.not_after is null or s.not_after > now())
  );
end
$$;

-- The second factor's part of private.aal_satisfied(): the token is aal2 or
-- the caller has no verified factor (anon and service_role have none).
-- Security definer: the API roles cannot read auth.mfa_factors.
create function private.second_factor_satisfied() returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = auth.uid() and f.status = 'verified'
    );
end
$$;

-- Whether the caller's token may act: its session still exists
-- (private.session_active), and it is aal2 or the caller has no verified
-- factor (anon and service_role have none). Every restrictive policy "two-factor
-- sessions only" and every RPC calls it, so a token of an ended session is
-- refused everywhere, like one that still owes its second factor. Security
-- definer: the API roles cannot read auth.mfa_factors. Policies call it as
-- `(select private.aal_satisfied())`, so it runs once per statement (an
-- initplan), not once per row. PL/pgSQL, as session_active.
create function private.aal_satisfied() returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return private.session_active() and private.second_factor_satisfied();
end
$$;

-- Every RPC that acts for the caller starts here: it refuses the signed-out,
-- a token whose session has ended, and a session that still owes its second
-- factor (checking the session once).
create function private.require_user() returns uuid
language plpgsql stable
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    raise exception using errcode = '42501', message = 'sign in required';
  end if;
  if not private.session_active() then
    raise exception using errcode = '42501', message = 'session ended: sign in again';
  end if;
  if not private.second_factor_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  return uid;
end
$$;
