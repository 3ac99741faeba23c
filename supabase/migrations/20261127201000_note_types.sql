-- Note types, as Anki's: a deck's note types (fields, card templates, CSS),
-- custom notes built from one, and their cards from its templates by Anki's
-- card generation (private.template_ordinals, mirroring @engram/core).

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

-- Whether notes of p_deck_id may use the note type: it is the deck's own.
create function private.note_type_usable(p_note_type_id uuid, p_deck_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.note_types where id = p_note_type_id and deck_id = p_deck_id)
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


alter table public.notes add column note_type_id uuid references public.note_types (id);
alter table public.notes add constraint notes_note_type_kind check ((kind = 'custom') = (note_type_id is not null));
create index notes_note_type_id_idx on public.notes (note_type_id) where note_type_id is not null;

create or replace function private.prepare_note() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    if new.version is distinct from old.version then
      perform private.fail('PT412', 'this note was changed since it was loaded',
        jsonb_build_object('version', old.version)::text);
    end if;
    if (new.kind, new.fields, new.tags, new.deck_id) is distinct from (old.kind, old.fields, old.tags, old.deck_id) then
      new.version := old.version + 1;
    end if;
    new.updated_at := now();
    new.created_by := old.created_by;
  end if;
  new.search := to_tsvector('simple'::regconfig, concat_ws(' ',
    private.strip_markup(new.fields ->> 'front'),
    private.strip_markup(new.fields ->> 'back'),
    private.strip_markup(new.fields ->> 'text'),
    private.strip_markup(new.fields ->> 'extra'),
    case when new.kind = 'custom' then
      (select string_agg(private.strip_markup(v), ' ') from jsonb_each_text(new.fields) as f(k, v))
    end,
    array_to_string(new.tags, ' ')));
  return new;
end
$$;


create or replace function private.sync_note_cards() returns trigger
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


drop trigger notes_sync_cards on public.notes;
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

grant insert (note_type_id), update (note_type_id) on public.notes to authenticated;

-- Changes a note type, stating the version it was loaded at (PT412 with
-- {"version": n} when it changed since). Notes of the type keep the values of
-- fields that stay, gain empty new ones, and follow the new templates: cards
-- a template now makes are added; cards that would go (a template removed, a
-- front that no longer shows anything) are deleted with their schedules only
-- when p_delete_cards is true, else the change is refused (PT409, {"cards": n}).
-- Removing a field that holds text in some note is refused (PT409,
-- {"field": name, "notes": n}).
create function public.update_note_type(
  p_note_type_id uuid,
  p_version integer,
  p_name text,
  p_fields text[],
  p_templates jsonb,
  p_css text,
  p_delete_cards boolean default false
)
returns public.note_types
language plpgsql security definer
set search_path = ''
as $$
declare
  old_row public.note_types;
  new_row public.note_types;
  lost record;
  doomed bigint;
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
  select f as field, count(*) as notes into lost
  from unnest(old_row.fields) as f
  join public.notes n on n.note_type_id = old_row.id and not private.field_is_empty(n.fields ->> f)
  where f <> all (coalesce(p_fields, '{}'))
  group by f order by f limit 1;
  if lost.field is not null then
    perform private.fail('PT409', 'a field to remove holds text in some notes',
      jsonb_build_object('field', lost.field, 'notes', lost.notes)::text);
  end if;
  update public.note_types
  set name = p_name, fields = p_fields, templates = p_templates, css = coalesce(p_css, ''),
    version = old_row.version + 1, updated_at = now()
  where id = old_row.id
  returning * into new_row;
  -- Each note's fields under the new list, and the cards that would go.
  select count(*) into doomed
  from public.notes n
  cross join lateral (
    select jsonb_object_agg(name, coalesce(n.fields -> name, '""')) as fields from unnest(new_row.fields) as name
  ) as f
  join public.cards c on c.note_id = n.id
  where n.note_type_id = new_row.id
    and c.ordinal <> all (private.template_ordinals(new_row.kind::text, new_row.fields, new_row.templates, f.fields, n.tags));
  if doomed > 0 and not coalesce(p_delete_cards, false) then
    perform private.fail('PT409', 'the change would delete cards', jsonb_build_object('cards', doomed)::text);
  end if;
  -- Setting the fields (changed or not) runs each note's card sync.
  update public.notes n
  set fields = (
    select jsonb_object_agg(name, coalesce(n.fields -> name, '""')) from unnest(new_row.fields) as name
  )
  where n.note_type_id = new_row.id;
  return new_row;
end
$$;

revoke execute on function public.update_note_type(uuid, integer, text, text[], jsonb, text, boolean) from public, anon;
grant execute on function public.update_note_type(uuid, integer, text, text[], jsonb, text, boolean)
  to authenticated, service_role;
