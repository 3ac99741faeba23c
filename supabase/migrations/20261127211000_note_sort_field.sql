-- Every note has a sort field (Anki's): its first field as one line of plain
-- text, kept by prepare_note and read-only for clients; the browser shows it
-- and sorts by it, ignoring case, through the sort_key computed field.

alter table public.notes add column sort_field text not null default '';
create index notes_deck_id_sort_key_idx on public.notes (deck_id, lower(sort_field), id);

-- A field's HTML as one line of plain text, as the browser lists it: cloze
-- deletions read as their answers (innermost first, as they nest at most 50
-- deep), a line break or block as a space, other tags dropped, entities
-- decoded in one pass, white space collapsed, at most 200 characters.
create function private.plain_text_line(p_html text) returns text
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
  return left(btrim(regexp_replace(result, '[[:space:]\u00a0]+', ' ', 'g')), 200);
end
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

-- Keeps updated_at, the version, the search vector (fields without markup,
-- plus tags) and the sort field (update_note_type rewrites its notes' fields,
-- so a renamed or reordered first field reaches it). The version check runs
-- on the row as it is when the update takes its lock, so of two concurrent
-- saves from one version the second is refused.
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
  new.sort_field := private.note_sort_field(new.kind, new.fields, new.note_type_id);
  return new;
end
$$;

-- Existing notes get theirs without being edited: no trigger runs, so their
-- updated_at, version, cards and change messages stay as they are.
alter table public.notes disable trigger user;
update public.notes set sort_field = private.note_sort_field(kind, fields, note_type_id);
alter table public.notes enable trigger user;
