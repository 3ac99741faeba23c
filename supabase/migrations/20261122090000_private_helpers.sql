-- Helpers that policies, triggers and RPCs share. They live in a schema the
-- API does not expose; the security definer ones read membership without
-- recursing through the policies of the tables they read.
create schema if not exists private;
grant usage on schema private to anon, authenticated, service_role;

create type public.deck_role as enum ('owner', 'editor', 'viewer');
create type public.note_kind as enum ('basic', 'basic_reversed', 'cloze');
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

-- Distinct numbers of the well-formed cloze deletions in a text, ascending
-- (mirrored by clozeOrdinals in @engram/core): `{{cN::` opens (N >= 1), `}}`
-- closes the innermost open deletion, unclosed openings are plain text; a
-- number past cards.ordinal's integer range nests and closes but makes no card.
-- Tokenising with one regex keeps it linear in the text's length.
create function private.cloze_ordinals(p_text text) returns int[]
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  token text[];
  open_stack numeric[] := '{}';
  closed numeric[] := '{}';
  n numeric;
begin
  for token in select m from regexp_matches(coalesce(p_text, ''), '\{\{c([0-9]+)::|\}\}', 'g') as m loop
    if token[1] is not null then
      n := token[1]::numeric;
      if n >= 1 then
        open_stack := open_stack || n;
      end if;
    elsif cardinality(open_stack) > 0 then
      closed := closed || open_stack[cardinality(open_stack)];
      open_stack := open_stack[1:cardinality(open_stack) - 1];
    end if;
  end loop;
  return coalesce(
    (select array_agg(distinct c order by c) from unnest(closed) as c where c <= 2147483647),
    '{}'
  )::int[];
end
$$;

-- Card ordinals a note produces: basic 1, basic_reversed 1 and 2, cloze its numbers.
create function private.note_ordinals(p_kind public.note_kind, p_fields jsonb) returns int[]
language sql immutable parallel safe
set search_path = ''
as $$
  select case p_kind
    when 'basic' then array[1]
    when 'basic_reversed' then array[1, 2]
    else private.cloze_ordinals(p_fields ->> 'text')
  end
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
-- studyDay in @engram/core).
create function private.study_day(p_timezone text, p_day_start int, p_at timestamptz,
  out day_start timestamptz, out day_end timestamptz)
language sql stable parallel safe
set search_path = ''
as $$
  select (d + make_interval(hours => p_day_start)) at time zone p_timezone,
         (d + interval '1 day' + make_interval(hours => p_day_start)) at time zone p_timezone
  from (select date_trunc('day', (p_at at time zone p_timezone) - make_interval(hours => p_day_start)) as d) as local_day
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
  return uid;
end
$$;

revoke execute on all functions in schema private from public;
grant execute on all functions in schema private to anon, authenticated, service_role;
