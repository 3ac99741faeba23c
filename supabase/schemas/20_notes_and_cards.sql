-- Notes, the cards generated from them, and each member's schedule for them.

-- Note types: Anki's note types, per deck. A custom note takes its fields and
-- cards from one (the rules of @engram/core's validateNoteType, which the
-- constraints below repeat so that no row breaks them).
create type public.note_type_kind as enum ('standard', 'cloze');

-- A note type or card template name: 1-100 characters, not blank, without ".
create function private.note_type_name_valid(p_name text) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select char_length(p_name) between 1 and 100 and private.trim_space(p_name) <> '' and strpos(p_name, '"') = 0
$$;

-- Field names as Anki's fix_name leaves them: 1-100 characters without : { } ",
-- not starting with # / ^, no white space at either end; 1-100 fields whose
-- names differ ignoring case.
create function private.note_type_fields_valid(p_fields text[]) returns boolean
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(array_ndims(p_fields) = 1, false)
    and cardinality(p_fields) between 1 and 100
    and (
      select bool_and(f is not null and char_length(f) between 1 and 100 and f !~ '[:{}"]' and f !~ '^[#/^]'
          and private.trim_space(f) = f)
        and count(distinct lower(f)) = count(*)
      from unnest(p_fields) as f
    )
$$;

-- What is wrong with a note type's templates, or null: 1-100 of them (one for
-- a cloze type), each {name, front, back} with a unique name and sides of at
-- most 100,000 characters whose sections balance, a front that shows a field,
-- only the type's fields and Anki's special ones, and a cloze type's sides
-- showing a field through cloze:.
create function private.note_type_templates_problem(p_kind text, p_fields text[], p_templates jsonb) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  with templates as (
    select t.value as template, t.at
    from jsonb_array_elements(case when jsonb_typeof(p_templates) = 'array' then p_templates else '[]' end)
      with ordinality as t(value, at)
  ), sides as (
    select t.at, side, t.template ->> side as text, private.template_summary(t.template ->> side) as s
    from templates t cross join unnest(array['front', 'back']) as side
    where jsonb_typeof(t.template) = 'object'
  )
  select case
    when jsonb_typeof(p_templates) is distinct from 'array' then 'templates must be a list'
    when jsonb_array_length(p_templates) not between 1 and 100 then 'a note type has 1 to 100 card templates'
    when p_kind = 'cloze' and jsonb_array_length(p_templates) <> 1 then 'a cloze note type has exactly one card template'
    when exists (
      select 1 from templates
      where jsonb_typeof(template) is distinct from 'object'
        or jsonb_typeof(template -> 'name') is distinct from 'string'
        or jsonb_typeof(template -> 'front') is distinct from 'string'
        or jsonb_typeof(template -> 'back') is distinct from 'string'
        or template - array['name', 'front', 'back'] <> '{}'::jsonb
    ) then 'each card template is {name, front, back}, all text'
    when exists (select 1 from templates where not private.note_type_name_valid(template ->> 'name'))
      then 'card template names are 1 to 100 characters, not blank, without "'
    when (select count(distinct lower(template ->> 'name')) from templates) <> jsonb_array_length(p_templates)
      then 'card template names must differ (ignoring case)'
    when exists (select 1 from sides where char_length(text) > 100000)
      then 'templates can be at most 100000 characters'
    when exists (select 1 from sides where not (s).parses) then 'a template''s sections do not balance'
    when exists (select 1 from sides where side = 'front' and cardinality((s).names) = 0)
      then 'the front must show at least one field'
    when exists (
      select 1 from sides cross join unnest((s).names) as n
      where n <> '' and n <> all (p_fields)
        and n <> all (array['FrontSide', 'Card', 'CardFlag', 'Deck', 'Subdeck', 'Tags', 'Type', 'CardID'])
    ) then 'a template uses a field the note type does not have'
    when p_kind = 'cloze' and exists (select 1 from sides where cardinality((s).cloze_names) = 0)
      then 'a cloze template shows a field through the cloze filter'
  end
$$;

create table public.note_types (
  id uuid primary key default gen_random_uuid(),
  deck_id uuid not null references public.decks (id) on delete cascade,
  name text not null constraint note_types_name_valid check (private.note_type_name_valid(name)),
  kind public.note_type_kind not null default 'standard',
  fields text[] not null constraint note_types_fields_valid check (private.note_type_fields_valid(fields)),
  templates jsonb not null,
  css text not null default '' constraint note_types_css_length check (char_length(css) <= 100000),
  -- Anki's note type id, kept for export and re-import.
  source_id bigint,
  -- Bumped by every change; update_note_type refuses a stale one (PT412).
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint note_types_templates_valid check (private.note_type_templates_problem(kind::text, fields, templates) is null),
  constraint note_types_deck_id_name_key unique (deck_id, name)
);
alter table public.note_types enable row level security;

-- Whether notes of p_deck_id may use the note type: it is the deck's own or an
-- ancestor deck's (a package's note types live in the deck it was imported into).
create function private.note_type_usable(p_note_type_id uuid, p_deck_id uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    with recursive line (id, depth) as (
      select p_deck_id, 0
      union all
      select d.parent_id, line.depth + 1 from public.decks d join line on d.id = line.id
      where d.parent_id is not null and line.depth < 10
    )
    select 1 from public.note_types t join line on line.id = t.deck_id where t.id = p_note_type_id
  );
end
$$;

revoke execute on function private.note_type_usable(uuid, uuid) from public, anon;

-- A note type in use stays: deleting it while notes use it is refused (PT409,
-- detail {"notes": n}). Deleting its deck removes both, so the check applies
-- only to a delete asked for directly, not one a deck's deletion cascades to.
create function private.keep_used_note_type() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  users bigint;
begin
  if pg_trigger_depth() = 1 then
    select count(*) into users from public.notes where note_type_id = old.id;
    if users > 0 then
      perform private.fail('PT409', 'this note type is used by notes', jsonb_build_object('notes', users)::text);
    end if;
  end if;
  return old;
end
$$;

revoke execute on function private.keep_used_note_type() from public, anon;

create trigger note_types_keep_used before delete on public.note_types
  for each row execute function private.keep_used_note_type();

create policy "readers of a deck read its note types" on public.note_types
  for select to anon, authenticated using (deck_id in (select private.readable_deck_ids()));
create policy "editors add note types" on public.note_types
  for insert to authenticated with check (private.can_edit_deck(deck_id));
create policy "editors delete note types" on public.note_types
  for delete to authenticated using (private.can_edit_deck(deck_id));
create policy "two-factor sessions only" on public.note_types as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

-- Changes go through update_note_type, which states the version and keeps notes and cards in step.
revoke all on public.note_types from anon, authenticated, service_role;
grant select, insert, update, delete on public.note_types to service_role;
grant select on public.note_types to anon;
grant select, delete on public.note_types to authenticated;
grant insert (id, deck_id, name, kind, fields, templates, css) on public.note_types to authenticated;

-- notes: readable with the deck, written by its owner and editors; the deck
-- and author of a note are fixed.
create table public.notes (
  id uuid primary key default gen_random_uuid(),
  deck_id uuid not null references public.decks (id) on delete cascade,
  kind public.note_kind not null,
  fields jsonb not null,
  tags text[] not null default '{}',
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  search tsvector,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Where a note came from (an Anki note's guid, a CSV key), so importing the
  -- same file again matches notes instead of duplicating them. Set only by
  -- finish_import (and copied by clone_deck); clients read it like any column.
  source_guid text constraint notes_source_guid_length check (char_length(source_guid) between 1 and 200),
  -- Bumped by every change of kind, fields, tags or deck. An update that sets
  -- it states the version it was made from and is refused (PT412) when the
  -- note has changed since, so a stale editor never overwrites another's edit.
  version integer not null default 1,
  -- The note type of a custom note (and only of one): notes_check_custom
  -- keeps it one its deck may use and the fields exactly the type's.
  note_type_id uuid references public.note_types (id),
  -- The note's first field as one line of plain text (Anki's sort field):
  -- kept by prepare_note, never written by clients; the browser shows it and
  -- sorts by it.
  sort_field text not null default '',
  -- Who made the current version (auth.uid() when added, then by each change
  -- that bumps the version through the API), and a second author of it (a
  -- suggestion's author when an editor accepts it), set only by the update
  -- that makes the version. Kept by prepare_note, never written by clients.
  updated_by uuid default auth.uid() references auth.users (id) on delete set null,
  co_author_id uuid references auth.users (id) on delete set null,
  -- Every field as plain text (markup dropped, cloze deletions as their
  -- answers), fields apart by a unit separator: what search_notes matches
  -- text against. Kept by prepare_note, never written by clients.
  plain_text text not null default '',
  constraint notes_note_type_kind check ((kind = 'custom') = (note_type_id is not null)),
  constraint notes_fields_shape check (
    case kind
      when 'custom' then jsonb_typeof(fields) = 'object'
      when 'cloze' then jsonb_typeof(fields -> 'text') = 'string'
        and jsonb_typeof(coalesce(fields -> 'extra', '""')) = 'string'
        and fields - array['text', 'extra'] = '{}'::jsonb
      when 'image_occlusion' then jsonb_typeof(fields -> 'image') = 'string'
        and jsonb_typeof(fields -> 'occlusions') = 'string'
        and jsonb_typeof(coalesce(fields -> 'header', '""')) = 'string'
        and jsonb_typeof(coalesce(fields -> 'back_extra', '""')) = 'string'
        and jsonb_typeof(coalesce(fields -> 'comments', '""')) = 'string'
        and fields - array['image', 'occlusions', 'header', 'back_extra', 'comments'] = '{}'::jsonb
      else jsonb_typeof(fields -> 'front') = 'string'
        and jsonb_typeof(fields -> 'back') = 'string'
        and fields - array['front', 'back'] = '{}'::jsonb
    end
  ),
  constraint notes_front_required check (kind in ('cloze', 'image_occlusion', 'custom') or private.has_content(fields ->> 'front')),
  -- A back may be empty, as Anki allows (a basic_reversed note then has no card 2), but it is
  -- there and it is text (coalesce: a check that yields null would let a missing back in).
  constraint notes_back_required check (kind in ('cloze', 'image_occlusion', 'custom') or coalesce(jsonb_typeof(fields -> 'back'), '') = 'string'),
  constraint notes_cloze_required check (kind <> 'cloze' or cardinality(private.cloze_ordinals(fields ->> 'text')) > 0),
  constraint notes_field_length check (
    char_length(coalesce(fields ->> 'front', '')) <= 20000
    and char_length(coalesce(fields ->> 'back', '')) <= 20000
    and char_length(coalesce(fields ->> 'text', '')) <= 20000
    and char_length(coalesce(fields ->> 'extra', '')) <= 20000
    and char_length(coalesce(fields ->> 'image', '')) <= 20000
    and char_length(coalesce(fields ->> 'occlusions', '')) <= 20000
    and char_length(coalesce(fields ->> 'header', '')) <= 20000
    and char_length(coalesce(fields ->> 'back_extra', '')) <= 20000
    and char_length(coalesce(fields ->> 'comments', '')) <= 20000
  ),
  constraint notes_tags_count check (cardinality(tags) <= 50),
  constraint notes_tags_format check (private.tags_valid(tags)),
  -- A cloze note holds at most 500 distinct numbers nested at most 50 deep
  -- (limits.clozeNumbersPerNote and limits.clozeNestingDepth in @engram/core),
  -- so no single note can make thousands of cards and schedules at once.
  constraint notes_cloze_numbers_limit
    check (kind <> 'cloze' or cardinality(private.cloze_ordinals(fields ->> 'text')) <= 500),
  constraint notes_cloze_nesting_limit
    check (kind <> 'cloze' or private.cloze_nesting(fields ->> 'text') <= 50),
  -- An image occlusion note shows an image and has 1 to 500 groups (its cards).
  constraint notes_occlusion_image_required
    check (kind <> 'image_occlusion' or coalesce(fields ->> 'image', '') ~* '<img\M'),
  constraint notes_occlusion_groups
    check (kind <> 'image_occlusion' or cardinality(private.occlusion_ordinals(fields ->> 'occlusions')) between 1 and 500)
);
alter table public.notes enable row level security;
create index notes_deck_id_created_at_idx on public.notes (deck_id, created_at, id);
create index notes_search_idx on public.notes using gin (search);
create index notes_tags_idx on public.notes using gin (tags);
create unique index notes_deck_id_source_guid_key on public.notes (deck_id, source_guid) where source_guid is not null;
create index notes_note_type_id_idx on public.notes (note_type_id) where note_type_id is not null;
create index notes_deck_id_sort_key_idx on public.notes (deck_id, lower(sort_field), id);

-- A field's HTML as plain text: cloze deletions read as their answers
-- (innermost first, as they nest at most 50 deep), a line break or block as a
-- space, other tags dropped, entities decoded in one pass, white space
-- collapsed.
create function private.plain_text(p_html text) returns text
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  result text := coalesce(p_html, '');
  previous text;
  entity_pattern constant text := '&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});';
  pieces text[];
  entities text[];
  decoded text;
  entity text;
  code bigint;
begin
  for i in 1..50 loop
    exit when strpos(result, '{{c') = 0;
    previous := result;
    result := regexp_replace(result,
      '\{\{c[0-9]+::((?:[^:{}]|:(?!:)|\{(?!\{)|\}(?!\}))*)(?:::(?:[^{}]|\{(?!\{)|\}(?!\}))*)?\}\}', '\1', 'g');
    exit when result = previous;
  end loop;
  result := regexp_replace(result, '<!--.*?-->', ' ', 'g');
  result := regexp_replace(result, '<(?:br|/?(?:div|p|li|tr|td|th|h[1-6]|ul|ol|table|blockquote))\M[^>]*>', ' ', 'gi');
  result := regexp_replace(result, '<[^>]*>', '', 'g');
  if strpos(result, '&') > 0 then
    pieces := regexp_split_to_array(result, entity_pattern);
    entities := array(select m[1] from regexp_matches(result, entity_pattern, 'g') as m);
    result := pieces[1];
    for i in 1..coalesce(cardinality(entities), 0) loop
      entity := entities[i];
      decoded := case entity
        when 'amp' then '&' when 'lt' then '<' when 'gt' then '>' when 'quot' then '"' when 'apos' then ''''
        when 'nbsp' then ' '
      end;
      if entity like '#%' then
        code := case when entity ilike '#x%' then ('x' || lpad(substr(entity, 3), 8, '0'))::bit(32)::bigint
          else substr(entity, 2)::bigint end;
        if code between 1 and 1114111 and code not between 55296 and 57343 then
          decoded := chr(code::int);
        end if;
      end if;
      result := result || coalesce(decoded, '&' || entity || ';') || pieces[i + 1];
    end loop;
  end if;
  return btrim(regexp_replace(result, '[[:space:]\u00a0]+', ' ', 'g'));
end
$$;

-- A field's HTML as one line of plain text, as the browser lists it: at most 200 characters.
create function private.plain_text_line(p_html text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select left(private.plain_text(p_html), 200)
$$;

-- A note's fields as plain text for search: a built-in kind's text fields in
-- their order (not an image occlusion's image and shapes), a custom note's
-- every field.
create function private.note_plain_text(p_kind public.note_kind, p_fields jsonb) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select coalesce(string_agg(private.plain_text(f.value), E'\x1f'
    order by array_position(array['front', 'back', 'text', 'extra', 'header', 'back_extra', 'comments'], f.key), f.key), '')
  from jsonb_each_text(p_fields) as f(key, value)
  where p_kind = 'custom' or f.key not in ('image', 'occlusions')
$$;

-- A note's sort field (Anki's): the plain text of its first field, the front,
-- a cloze's text, a custom note's first field as its note type orders them,
-- and an image occlusion note's header, else its image's description, else
-- the image's file name.
create function private.note_sort_field(p_kind public.note_kind, p_fields jsonb, p_note_type_id uuid) returns text
language plpgsql stable security definer
set search_path = ''
as $$
declare
  first_field text;
begin
  case p_kind
    when 'cloze' then
      return private.plain_text_line(p_fields ->> 'text');
    when 'custom' then
      select t.fields[1] into first_field from public.note_types t where t.id = p_note_type_id;
      return private.plain_text_line(p_fields ->> first_field);
    when 'image_occlusion' then
      return coalesce(
        nullif(private.plain_text_line(p_fields ->> 'header'), ''),
        nullif(private.plain_text_line(substring(p_fields ->> 'image' from '(?i)\malt\s*=\s*"([^"]*)"')), ''),
        private.plain_text_line(substring(p_fields ->> 'image' from '(?i)\msrc\s*=\s*"([^"]*)"')));
    else
      return private.plain_text_line(p_fields ->> 'front');
  end case;
end
$$;

revoke execute on function private.note_sort_field(public.note_kind, jsonb, uuid) from public, anon;

-- The order of the browser's "sort field" column: the sort field ignoring
-- case, as Anki sorts it. A computed field, so lists order by it through the
-- API (`order=sort_key`); plain SQL without its own search_path, so it is
-- inlined and the index on lower(sort_field) serves the order.
create function public.sort_key(p_note public.notes) returns text
language sql immutable parallel safe
as $$
  select pg_catalog.lower(p_note.sort_field)
$$;

grant execute on function public.sort_key(public.notes) to anon, authenticated, service_role;

-- Keeps updated_at, the version and its authors (updated_by, co_author_id:
-- a version-bumping update that does not set co_author_id has none), the
-- search vector (fields without markup, plus tags), the plain text and the sort field
-- (update_note_type rewrites its notes' fields, so a renamed or reordered
-- first field reaches it). The version check runs
-- on the row as it is when the update takes its lock, so of two concurrent
-- saves from one version the second is refused.
create function private.prepare_note() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  custom_text text;
begin
  if tg_op = 'UPDATE' then
    if new.version is distinct from old.version then
      perform private.fail('PT412', 'this note was changed since it was loaded',
        jsonb_build_object('version', old.version)::text);
    end if;
    if (new.kind, new.fields, new.tags, new.deck_id) is distinct from (old.kind, old.fields, old.tags, old.deck_id) then
      new.version := old.version + 1;
      if auth.uid() is not null then
        new.updated_by := auth.uid();
      end if;
      if new.co_author_id is not distinct from old.co_author_id then
        new.co_author_id := null;
      end if;
    end if;
    new.updated_at := now();
    new.created_by := old.created_by;
  end if;
  -- private.strip_markup written out: a SQL function with its own
  -- search_path is not inlined, and calling it per field was most of an
  -- import's time spent here.
  if new.kind = 'custom' then
    custom_text := (select string_agg(private.strip_markup(v), ' ') from jsonb_each_text(new.fields) as f(k, v));
  end if;
  new.search := to_tsvector('simple'::regconfig, concat_ws(' ',
    btrim(replace(regexp_replace(coalesce(new.fields ->> 'front', ''), '<[^>]*>', '', 'g'), '&nbsp;', ' ')),
    btrim(replace(regexp_replace(coalesce(new.fields ->> 'back', ''), '<[^>]*>', '', 'g'), '&nbsp;', ' ')),
    btrim(replace(regexp_replace(coalesce(new.fields ->> 'text', ''), '<[^>]*>', '', 'g'), '&nbsp;', ' ')),
    btrim(replace(regexp_replace(coalesce(new.fields ->> 'extra', ''), '<[^>]*>', '', 'g'), '&nbsp;', ' ')),
    custom_text,
    array_to_string(new.tags, ' ')));
  new.sort_field := private.note_sort_field(new.kind, new.fields, new.note_type_id);
  new.plain_text := private.note_plain_text(new.kind, new.fields);
  return new;
end
$$;

create trigger notes_prepare before insert or update on public.notes
  for each row execute function private.prepare_note();

-- A note moved into a deck that already has a note from the same source
-- leaves its origin behind: two notes of one deck never share it.
create function private.release_moved_source_guid() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if exists (
    select 1 from public.notes
    where deck_id = new.deck_id and source_guid = new.source_guid and id <> new.id
  ) then
    new.source_guid := null;
  end if;
  return new;
end
$$;

revoke execute on function private.release_moved_source_guid() from anon;

create trigger notes_release_source_guid before update of deck_id on public.notes
  for each row when (new.deck_id is distinct from old.deck_id and new.source_guid is not null)
  execute function private.release_moved_source_guid();

create table public.cards (
  id uuid primary key default gen_random_uuid(),
  note_id uuid not null references public.notes (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  ordinal integer not null constraint cards_ordinal_positive check (ordinal >= 1),
  created_at timestamptz not null default now(),
  unique (note_id, ordinal)
);
alter table public.cards enable row level security;
create index cards_deck_id_idx on public.cards (deck_id);

-- Cards follow their note: one per ordinal the note produces; surviving cards
-- (and so their schedules) are kept, vanished ones deleted, new ones added.
-- finish_import adds the cards of the notes it inserts in one statement of
-- its own; the setting it raises for that insert is not reachable through
-- the API.
create function private.sync_note_cards() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  wanted int[];
begin
  if tg_op = 'INSERT' and current_setting('engram.adding_cards_in_bulk', true) = 'on' then
    return null;
  end if;
  wanted := private.current_note_ordinals(new);
  if tg_op = 'UPDATE' then
    delete from public.cards where note_id = new.id and ordinal <> all (wanted);
    if new.deck_id is distinct from old.deck_id then
      update public.cards set deck_id = new.deck_id where note_id = new.id;
    end if;
  end if;
  insert into public.cards (note_id, deck_id, ordinal, created_at)
  select new.id, new.deck_id, o, new.created_at
  from unnest(wanted) as o
  on conflict (note_id, ordinal) do nothing;
  return null;
end
$$;

create trigger notes_sync_cards after insert or update of kind, fields, tags, deck_id, note_type_id on public.notes
  for each row execute function private.sync_note_cards();

-- A custom note uses a note type its deck may use, and its fields are exactly
-- that type's fields, as text of at most 20,000 characters each; its type's
-- templates make at most 500 cards for it, as a cloze note at most.
create function private.check_custom_note() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  type_row public.note_types;
begin
  if new.kind <> 'custom' then
    return new;
  end if;
  select * into type_row from public.note_types where id = new.note_type_id;
  if type_row.id is null or not private.note_type_usable(new.note_type_id, new.deck_id) then
    perform private.fail('22023', 'the note type is not one of this deck''s', 'note_type_id');
  end if;
  if jsonb_typeof(new.fields) <> 'object'
    or array(select k from jsonb_object_keys(new.fields) as k order by k)
      <> array(select f from unnest(type_row.fields) as f order by f)
    or exists (select 1 from jsonb_each(new.fields) as f(k, v) where jsonb_typeof(v) <> 'string')
  then
    perform private.fail('22023', 'a custom note has exactly its note type''s fields, as text', 'fields');
  end if;
  if exists (select 1 from jsonb_each_text(new.fields) as f(k, v) where char_length(v) > 20000) then
    perform private.fail('22023', 'fields can be at most 20000 characters', 'fields');
  end if;
  if cardinality(private.template_ordinals(type_row.kind::text, type_row.fields, type_row.templates, new.fields, new.tags)) > 500 then
    perform private.fail('22023', 'a note can have at most 500 cards', 'fields');
  end if;
  return new;
end
$$;

revoke execute on function private.check_custom_note() from public, anon;

create trigger notes_check_custom before insert or update of kind, fields, tags, deck_id, note_type_id on public.notes
  for each row execute function private.check_custom_note();

-- The card ordinals a note has now: its kind's rule, or its note type's templates.
create function private.current_note_ordinals(p_note public.notes) returns int[]
language sql stable security definer
set search_path = ''
as $$
  select case when p_note.kind = 'custom' then (
      select private.template_ordinals(t.kind::text, t.fields, t.templates, p_note.fields, p_note.tags)
      from public.note_types t where t.id = p_note.note_type_id
    )
    else private.note_ordinals(p_note.kind, p_note.fields)
  end
$$;

revoke execute on function private.current_note_ordinals(public.notes) from public, anon;

-- The schedule of one card for one user. Every member of a deck has a row for
-- each of its cards (state 'new' until first studied), so the study queue is
-- an index range scan instead of an anti-join over the whole deck.
--
-- Schedules hold only values FSRS can produce: finite stability up to
-- ts-fsrs's 36,500 (S_MAX), difficulty 0-10, intervals up to the maximum of
-- 36,500 days, and a due date at most that far from the review (876,000
-- hours: exact, where "36500 days" would move with daylight saving). NaN
-- breaks "between" because Postgres sorts it above every number.
create table public.card_states (
  user_id uuid not null references auth.users (id) on delete cascade,
  card_id uuid not null references public.cards (id) on delete cascade,
  deck_id uuid not null references public.decks (id) on delete cascade,
  state public.card_state not null default 'new',
  due timestamptz not null default now(),
  stability double precision not null default 0 constraint card_states_stability_range check (stability between 0 and 36500),
  difficulty double precision not null default 0 constraint card_states_difficulty_range check (difficulty between 0 and 10),
  elapsed_days integer not null default 0 constraint card_states_elapsed_days_range check (elapsed_days >= 0),
  scheduled_days integer not null default 0 constraint card_states_scheduled_days_range check (scheduled_days between 0 and 36500),
  learning_steps integer not null default 0 constraint card_states_learning_steps_range check (learning_steps >= 0),
  reps integer not null default 0 constraint card_states_reps_range check (reps >= 0),
  lapses integer not null default 0 constraint card_states_lapses_range check (lapses >= 0),
  last_review timestamptz,
  suspended boolean not null default false,
  buried_until timestamptz,
  flag smallint not null default 0 constraint card_states_flag_range check (flag between 0 and 7),
  -- Bumped by every schedule change; record_review refuses an answer computed from an older version.
  version integer not null default 0,
  updated_at timestamptz not null default now(),
  -- When an answer last marked the card a leech (its reviewed_at), null for a
  -- card that is not one. Equal to last_review right after the answer that
  -- marked it, which is how record_review's caller tells that answer apart.
  leech_at timestamptz,
  -- The card's note and ordinal, copied from public.cards (a note never
  -- changes, an ordinal follows private.copy_card_ordinals): the study queue
  -- reads them with the schedule instead of looking up every card it gives.
  note_id uuid not null,
  ordinal integer not null,
  primary key (user_id, card_id),
  constraint card_states_due_range check (
    isfinite(due)
    and (last_review is null or (isfinite(last_review) and due <= last_review + interval '876000 hours'))
  ),
  -- The range private.check_time allows the API's timestamp arguments.
  -- Checks run in name order: this one before card_states_due_range, whose
  -- sum would overflow on a last_review past the range.
  constraint card_states_dates_range check (
    due >= '1970-01-01 00:00:00+00' and due < '10000-01-01 00:00:00+00'
    and (last_review is null or (last_review >= '1970-01-01 00:00:00+00' and last_review < '10000-01-01 00:00:00+00'))
    and (buried_until is null or (buried_until >= '1970-01-01 00:00:00+00' and buried_until < '10000-01-01 00:00:00+00'))
    and (leech_at is null or (leech_at >= '1970-01-01 00:00:00+00' and leech_at < '10000-01-01 00:00:00+00'))
  )
);
alter table public.card_states enable row level security;
create index card_states_queue_idx on public.card_states (user_id, deck_id, state, due, card_id) where not suspended;
create index card_states_card_id_idx on public.card_states (card_id);
create index card_states_due_idx on public.card_states (user_id, due) where state <> 'new';
-- Suspended schedules by user and deck: with card_states_queue_idx (those not
-- suspended) the stats count a user's cards by state from indexes alone.
create index card_states_suspended_idx on public.card_states (user_id, deck_id) where suspended;

-- New cards get a 'new' schedule row for every member of their deck, in one
-- insert per statement rather than one per card: a note's cards arrive in one
-- statement (private.sync_note_cards), and a cloze note of 500 numbers in a
-- deck of many members would make 500 separate inserts. Moving a card to
-- another deck stays per row (private.add_card_states), since a trigger with
-- a column list cannot see transition tables.
create function private.add_new_cards_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- finish_import writes its caller's schedules of the cards it adds itself.
  insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
  select m.user_id, c.id, c.deck_id, c.created_at, c.note_id, c.ordinal
  from added_cards c
  join public.deck_members m on m.deck_id = c.deck_id
  -- (is distinct from: the setting is null in a session that never set it,
  -- and "not (true and null)" would leave out the caller's own schedule)
  where (m.user_id = auth.uid() and current_setting('engram.writing_own_schedules', true) = 'on') is distinct from true
  on conflict (user_id, card_id) do nothing;
  return null;
end
$$;

revoke execute on function private.add_new_cards_states() from anon;

create trigger cards_add_states after insert on public.cards
  referencing new table as added_cards
  for each statement execute function private.add_new_cards_states();

-- A card that moves deck takes its schedules along and gains 'new' rows for
-- the new deck's members.
create function private.add_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    update public.card_states set deck_id = new.deck_id where card_id = new.id;
  end if;
  insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
  select m.user_id, new.id, new.deck_id, new.created_at, new.note_id, new.ordinal
  from public.deck_members m
  where m.deck_id = new.deck_id
  on conflict (user_id, card_id) do nothing;
  return null;
end
$$;

create trigger cards_move_states after update of deck_id on public.cards
  for each row execute function private.add_card_states();

-- A card's ordinal changes when its note type's templates are reordered; every
-- member's schedule row keeps the copy the study queue reads.
create function private.copy_card_ordinals() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.card_states s set ordinal = n.ordinal
  from new_cards n
  join old_cards o on o.id = n.id
  where s.card_id = n.id and n.ordinal <> o.ordinal;
  return null;
end
$$;

revoke execute on function private.copy_card_ordinals() from anon;

create trigger cards_copy_ordinals after update on public.cards
  referencing old table as old_cards new table as new_cards
  for each statement execute function private.copy_card_ordinals();

-- A new member gets a 'new' schedule row for each card of the deck (kept if
-- they had studied it before, e.g. when rejoining). finish_import revealing a
-- deck to its importer has written all of theirs already.
create function private.add_member_card_states() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.user_id = auth.uid() and current_setting('engram.writing_own_schedules', true) = 'on' then
    return null;
  end if;
  insert into public.card_states (user_id, card_id, deck_id, due, note_id, ordinal)
  select new.user_id, c.id, c.deck_id, c.created_at, c.note_id, c.ordinal
  from public.cards c
  where c.deck_id = new.deck_id
  on conflict (user_id, card_id) do update set deck_id = excluded.deck_id;
  return null;
end
$$;

create trigger deck_members_add_states after insert on public.deck_members
  for each row execute function private.add_member_card_states();

create policy "readers of a deck read its notes" on public.notes
  for select to anon, authenticated using (deck_id in (select private.readable_deck_ids()));
create policy "editors add notes" on public.notes
  for insert to authenticated
  with check (private.can_edit_deck(deck_id) and created_by = (select auth.uid()));
create policy "editors edit notes" on public.notes
  for update to authenticated using (private.can_edit_deck(deck_id)) with check (private.can_edit_deck(deck_id));
create policy "editors delete notes" on public.notes
  for delete to authenticated using (private.can_edit_deck(deck_id));
create policy "two-factor sessions only" on public.notes as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

-- Inserts name their columns, so source_guid stays out of clients' reach.
revoke all on public.notes from anon, authenticated, service_role;
grant select, insert, update, delete on public.notes to service_role;
grant select on public.notes to anon;
grant select, delete on public.notes to authenticated;
grant insert (id, deck_id, kind, fields, tags, created_by, search, created_at, updated_at, note_type_id),
  update (kind, fields, tags, version, note_type_id)
  on public.notes to authenticated;

-- cards: derived from notes, so only readable.
create policy "readers of a deck read its cards" on public.cards
  for select to anon, authenticated using (deck_id in (select private.readable_deck_ids()));
create policy "two-factor sessions only" on public.cards as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.cards from anon, authenticated, service_role;
grant select, insert, update, delete on public.cards to service_role;
grant select on public.cards to anon, authenticated;

-- card_states: private to their user; written through RPCs.
create policy "users read their own card states" on public.card_states
  for select to authenticated using (user_id = (select auth.uid()));
create policy "two-factor sessions only" on public.card_states as restrictive for all to authenticated
  using ((select private.aal_satisfied())) with check ((select private.aal_satisfied()));

revoke all on public.card_states from anon, authenticated, service_role;
grant select, insert, update, delete on public.card_states to service_role;
grant select on public.card_states to authenticated;

-- The checks every bulk note action starts with: each note exists and is
-- visible (PT404), its deck is one the caller edits (42501), and, when
-- versions are given (one per note, in the same order), no note changed since
-- the caller loaded it. The rows are locked first, so no edit slips in between
-- this check and the action; stale notes refuse the whole action with PT412,
-- the detail naming each with its current version: {"notes": [{id, version}]}.
create function private.lock_notes_for_bulk(p_note_ids uuid[], p_versions integer[], p_action text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  stale jsonb;
begin
  if coalesce(cardinality(p_note_ids), 0) = 0 then
    perform private.fail('22023', 'choose at least one note', 'note_ids');
  elsif cardinality(p_note_ids) > 500 then
    perform private.fail('22023', 'choose at most 500 notes at once', 'note_ids');
  elsif p_versions is not null and cardinality(p_versions) is distinct from cardinality(p_note_ids) then
    perform private.fail('22023', 'give one version for each note', 'versions');
  end if;
  if exists (
    select 1 from unnest(p_note_ids) as wanted(id)
    left join public.notes n on n.id = wanted.id
    where n.id is null or not private.can_read_deck(n.deck_id)
  ) then
    perform private.fail('PT404', 'note not found', 'note_ids');
  end if;
  if exists (select 1 from public.notes n where n.id = any (p_note_ids) and not private.can_edit_deck(n.deck_id)) then
    perform private.fail('42501', format('only the owner and editors of a deck can %s its notes', p_action));
  end if;
  perform 1 from public.notes n where n.id = any (p_note_ids) order by n.id for update;
  if p_versions is null then
    return;
  end if;
  select jsonb_agg(jsonb_build_object('id', n.id, 'version', n.version) order by n.id) into stale
  from unnest(p_note_ids, p_versions) as stated(id, version)
  join public.notes n on n.id = stated.id
  where n.version is distinct from stated.version;
  if stale is not null then
    perform private.fail('PT412', 'some of these notes were changed since they were loaded',
      jsonb_build_object('notes', stale)::text);
  end if;
end
$$;

revoke execute on function private.lock_notes_for_bulk(uuid[], integer[], text) from public;

-- Bulk tagging from the deck screen: add and remove tags on many notes in one
-- statement, so the change is all or nothing (a note that would break the tag
-- rules fails the whole call with the constraint's name). `p_versions` holds
-- each note's version as the caller loaded it; a note changed since refuses
-- the call (PT412).
create function public.tag_notes(
  p_note_ids uuid[],
  p_add text[] default '{}',
  p_remove text[] default '{}',
  p_versions integer[] default null
)
returns setof public.notes
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if coalesce(cardinality(p_add), 0) + coalesce(cardinality(p_remove), 0) = 0 then
    perform private.fail('22023', 'choose tags to add or remove', 'tags');
  end if;
  perform private.lock_notes_for_bulk(p_note_ids, p_versions, 'tag');
  -- Kept tags stay in their order; added ones follow, once each.
  return query
    update public.notes n
    set tags = (
      select coalesce(array_agg(tag order by first_at), '{}')
      from (
        select tag, min(at) as first_at
        from (
          select tag, at from unnest(n.tags) with ordinality as kept(tag, at)
          union all
          select tag, 1000000 + at from unnest(coalesce(p_add, '{}')) with ordinality as added(tag, at)
        ) as candidates
        where tag <> all (coalesce(p_remove, '{}'))
        group by tag
      ) as merged
    ),
    updated_at = now()
    where n.id = any (p_note_ids)
    returning n.*;
end
$$;

revoke execute on function public.tag_notes(uuid[], text[], text[], integer[]) from public, anon;
grant execute on function public.tag_notes(uuid[], text[], text[], integer[]) to authenticated, service_role;

-- Deletes notes with their cards and schedules, all or nothing, when none
-- changed since the caller loaded them (`p_versions`, one per note); returns
-- how many were deleted.
create function public.delete_notes(p_note_ids uuid[], p_versions integer[])
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  deleted integer;
begin
  perform private.require_user();
  if p_versions is null then
    perform private.fail('22023', 'give one version for each note', 'versions');
  end if;
  perform private.lock_notes_for_bulk(p_note_ids, p_versions, 'delete');
  delete from public.notes where id = any (p_note_ids);
  get diagnostics deleted = row_count;
  return deleted;
end
$$;

revoke execute on function public.delete_notes(uuid[], integer[]) from public, anon;
grant execute on function public.delete_notes(uuid[], integer[]) to authenticated, service_role;

-- Changes a note type, stating the version it was loaded at (PT412 with
-- {"version": n} when it changed since), as Anki's Fields and Cards dialogs
-- do. p_field_map gives, for each new field, the 0-based index of the old
-- field it continues (every note's text goes with it, whatever its new name
-- or place) or null for a new field, empty in every note; p_template_map does
-- the same for templates, and a standard type's cards follow their template
-- to its new place with their schedules. Left null, a field continues the old
-- field of its name and a template the old one at its place. Cards that would
-- go (a template removed, a front that no longer shows anything) are deleted
-- with their schedules only when p_delete_cards is true, else the change is
-- refused (PT409, {"cards": n, "schedules": studied schedules among them});
-- dropping a field that holds text in some note only when p_discard_text is
-- true, else PT409 {"field": name, "notes": n}. A map that does not fit is
-- refused (22023).
create function public.update_note_type(
  p_note_type_id uuid,
  p_version integer,
  p_name text,
  p_fields text[],
  p_templates jsonb,
  p_css text,
  p_delete_cards boolean default false,
  p_field_map integer[] default null,
  p_template_map integer[] default null,
  p_discard_text boolean default false
)
returns public.note_types
language plpgsql security definer
set search_path = ''
as $$
declare
  old_row public.note_types;
  new_row public.note_types;
  field_map int[];
  template_map int[];
  old_templates int;
  new_templates int;
  lost record;
  doomed record;
begin
  perform private.require_user();
  select * into old_row from public.note_types where id = p_note_type_id for update;
  if old_row.id is null or not private.can_read_deck(old_row.deck_id) then
    perform private.fail('PT404', 'note type not found', 'note_type_id');
  elsif not private.can_edit_deck(old_row.deck_id) then
    perform private.fail('42501', 'only the owner and editors of a deck can change its note types');
  elsif p_version is distinct from old_row.version then
    perform private.fail('PT412', 'this note type was changed since it was loaded',
      jsonb_build_object('version', old_row.version)::text);
  end if;
  old_templates := jsonb_array_length(old_row.templates);
  new_templates := case when jsonb_typeof(p_templates) = 'array' then jsonb_array_length(p_templates) else 0 end;
  field_map := coalesce(p_field_map, array(
    select array_position(old_row.fields, f) - 1 from unnest(p_fields) with ordinality as t(f, at) order by at));
  template_map := coalesce(p_template_map, array(
    select case when at <= old_templates then at - 1 end from generate_series(1, new_templates) as at));
  if cardinality(field_map) <> coalesce(cardinality(p_fields), 0)
    or exists (select 1 from unnest(field_map) as m where m not between 0 and cardinality(old_row.fields) - 1)
    or (select count(m) <> count(distinct m) from unnest(field_map) as m)
  then
    perform private.fail('22023', 'each new field continues at most one old field, and each old field at most one new field', 'field_map');
  end if;
  if cardinality(template_map) <> new_templates
    or exists (select 1 from unnest(template_map) as m where m not between 0 and old_templates - 1)
    or (select count(m) <> count(distinct m) from unnest(template_map) as m)
  then
    perform private.fail('22023', 'each new template continues at most one old template, and each old template at most one new template', 'template_map');
  end if;
  select old_row.fields[i] as field, count(*) as notes into lost
  from generate_subscripts(old_row.fields, 1) as i
  join public.notes n on n.note_type_id = old_row.id and not private.field_is_empty(n.fields ->> old_row.fields[i])
  where array_position(field_map, i - 1) is null
  group by i order by i limit 1;
  if lost.field is not null and not coalesce(p_discard_text, false) then
    perform private.fail('PT409', 'a field to remove holds text in some notes',
      jsonb_build_object('field', lost.field, 'notes', lost.notes)::text);
  end if;
  update public.note_types
  set name = p_name, fields = p_fields, templates = p_templates, css = coalesce(p_css, ''),
    version = old_row.version + 1, updated_at = now()
  where id = old_row.id
  returning * into new_row;
  -- The cards that would go: each note's fields under the new list, each
  -- card at its template's new place (a cloze card's ordinal is its number).
  select count(*) as cards, coalesce(sum(studied.n), 0) as schedules into doomed
  from public.notes n
  cross join lateral (
    select private.template_ordinals(new_row.kind::text, new_row.fields, new_row.templates, jsonb_object_agg(
      new_row.fields[at], coalesce(n.fields -> old_row.fields[field_map[at] + 1], '""')), n.tags) as wanted
    from generate_subscripts(new_row.fields, 1) as at
  ) as w
  join public.cards c on c.note_id = n.id
  cross join lateral (
    select case when new_row.kind = 'cloze' then c.ordinal else array_position(template_map, c.ordinal - 1) end as ordinal
  ) as moved
  cross join lateral (
    select count(*) as n from public.card_states s where s.card_id = c.id and s.state <> 'new'
  ) as studied
  where n.note_type_id = new_row.id and (moved.ordinal is null or moved.ordinal <> all (w.wanted));
  if doomed.cards > 0 and not coalesce(p_delete_cards, false) then
    perform private.fail('PT409', 'the change would delete cards',
      jsonb_build_object('cards', doomed.cards, 'schedules', doomed.schedules)::text);
  end if;
  if new_row.kind = 'standard' then
    delete from public.cards c using public.notes n
    where c.note_id = n.id and n.note_type_id = new_row.id and array_position(template_map, c.ordinal - 1) is null;
    -- Through ordinals past any template's (at most 100), so no two cards of a
    -- note hold one ordinal midway.
    update public.cards c set ordinal = array_position(template_map, c.ordinal - 1) + 1000
    from public.notes n
    where c.note_id = n.id and n.note_type_id = new_row.id and array_position(template_map, c.ordinal - 1) <> c.ordinal;
    update public.cards c set ordinal = c.ordinal - 1000
    from public.notes n
    where c.note_id = n.id and n.note_type_id = new_row.id and c.ordinal > 1000;
  end if;
  -- Setting the fields (changed or not) runs each note's card sync, which
  -- deletes cards whose front no longer shows anything and adds new ones.
  update public.notes n
  set fields = (
    select coalesce(jsonb_object_agg(new_row.fields[at], coalesce(n.fields -> old_row.fields[field_map[at] + 1], '""')), '{}')
    from generate_subscripts(new_row.fields, 1) as at
  )
  where n.note_type_id = new_row.id;
  return new_row;
end
$$;

revoke execute on function public.update_note_type(uuid, integer, text, text[], jsonb, text, boolean, integer[], integer[], boolean)
  from public, anon;
grant execute on function public.update_note_type(uuid, integer, text, text[], jsonb, text, boolean, integer[], integer[], boolean)
  to authenticated, service_role;
