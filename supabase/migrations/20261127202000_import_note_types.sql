-- Imports keep note types: the note types a staged import's custom notes use
-- are found in the import's deck (same definition, by name or Anki id) or
-- created by finish_import (whose last definition, 20261127203010, calls
-- private.import_note_types and inserts custom notes with their note type).

-- The note types an import's custom notes use, in the job's deck: each staged
-- note type ({key, name, kind, fields, templates, css, source_id} in a
-- batch's "note_types", first of each key counts) is matched to one of the
-- deck's with the same definition (kind, fields, templates, css) and the same
-- name, or the same Anki id (source_id) under another name; otherwise it is
-- created, named "<name> (2)", "(3)"… when its name is taken by a different
-- one. So finishing an import of the same package again creates none twice.
-- Fills pg_temp.import_note_types (key → note type, and whether it was
-- created) for finish_import, in whose transaction it runs; a bad definition
-- fails the call (22023 naming the note type, field 'note_types').
create function private.import_note_types(p_job_id uuid, p_deck_id uuid) returns void
language plpgsql
set search_path = ''
as $$
declare
  staged record;
  found_id uuid;
  free_name text;
  problem text;
  suffix integer;
begin
  drop table if exists pg_temp.import_note_types;
  create temp table import_note_types (key text primary key, note_type_id uuid not null, name text not null,
    created boolean not null) on commit drop;
  for staged in
    select distinct on (t.value ->> 'key') t.value as def, t.value ->> 'key' as key
    from private.import_batches b
    cross join lateral jsonb_array_elements(
      case when jsonb_typeof(b.payload -> 'note_types') = 'array' then b.payload -> 'note_types' else '[]' end
    ) with ordinality as t(value, ord)
    where b.job_id = p_job_id
    order by t.value ->> 'key', b.batch, t.ord
  loop
    problem := case
      when jsonb_typeof(staged.def) <> 'object' or jsonb_typeof(staged.def -> 'key') is distinct from 'string'
        or char_length(staged.key) not between 1 and 200 then 'needs a key of 1 to 200 characters'
      when jsonb_typeof(staged.def -> 'name') is distinct from 'string' then 'needs a name'
      when coalesce(staged.def ->> 'kind', '') not in ('standard', 'cloze') then 'kind must be standard or cloze'
      when jsonb_typeof(staged.def -> 'fields') is distinct from 'array'
        or exists (select 1 from jsonb_array_elements(staged.def -> 'fields') as f where jsonb_typeof(f) <> 'string')
        then 'fields must be a list of names'
      when jsonb_typeof(coalesce(staged.def -> 'css', '""')) <> 'string' then 'css must be text'
      when jsonb_typeof(coalesce(staged.def -> 'source_id', 'null')) not in ('number', 'null')
        or (staged.def ->> 'source_id') !~ '^[0-9]{1,18}$' then 'source_id must be a whole number'
      when not private.note_type_name_valid(staged.def ->> 'name') then 'names are 1 to 100 characters, not blank, without "'
      when not private.note_type_fields_valid(array(select jsonb_array_elements_text(staged.def -> 'fields'))) then
        'field names are 1 to 100 characters without : { } ", not starting with # / ^, each once'
      else private.note_type_templates_problem(staged.def ->> 'kind',
        array(select jsonb_array_elements_text(staged.def -> 'fields')), staged.def -> 'templates')
    end;
    if problem is not null then
      perform private.fail('22023', format('note type %s: %s', coalesce(staged.def ->> 'name', staged.key), problem),
        'note_types');
    end if;
    select t.id into found_id
    from public.note_types t
    where t.deck_id = p_deck_id
      and t.kind = (staged.def ->> 'kind')::public.note_type_kind
      and t.fields = array(select jsonb_array_elements_text(staged.def -> 'fields'))
      and t.templates = staged.def -> 'templates'
      and t.css = coalesce(staged.def ->> 'css', '')
      and (t.name = staged.def ->> 'name' or t.source_id = (staged.def ->> 'source_id')::bigint)
    order by t.name = staged.def ->> 'name' desc, t.created_at, t.id
    limit 1;
    if found_id is not null then
      insert into pg_temp.import_note_types
      select staged.key, t.id, t.name, false from public.note_types t where t.id = found_id;
      continue;
    end if;
    free_name := staged.def ->> 'name';
    suffix := 1;
    while exists (select 1 from public.note_types t where t.deck_id = p_deck_id and t.name = free_name) loop
      suffix := suffix + 1;
      free_name := format('%s (%s)', left(staged.def ->> 'name', 100 - char_length(format(' (%s)', suffix))), suffix);
    end loop;
    insert into public.note_types (deck_id, name, kind, fields, templates, css, source_id)
    values (p_deck_id, free_name, (staged.def ->> 'kind')::public.note_type_kind,
      array(select jsonb_array_elements_text(staged.def -> 'fields')), staged.def -> 'templates',
      coalesce(staged.def ->> 'css', ''), (staged.def ->> 'source_id')::bigint)
    returning id into found_id;
    insert into pg_temp.import_note_types values (staged.key, found_id, free_name, true);
  end loop;
  -- A custom note naming a note type the import does not hold is refused before anything is added.
  select s.seq, s.guid into staged
  from (
    select row_number() over (order by b.batch, e.ord) as seq, e.note ->> 'guid' as guid, e.note
    from private.import_batches b
    cross join lateral jsonb_array_elements(b.payload -> 'notes') with ordinality as e(note, ord)
    where b.job_id = p_job_id
  ) s
  where s.note ->> 'kind' = 'custom'
    and not exists (select 1 from pg_temp.import_note_types t where t.key = s.note ->> 'note_type')
  order by s.seq limit 1;
  if staged.seq is not null then
    perform private.fail('22023', format('note %s%s: its note type is not in the import', staged.seq,
      case when staged.guid is null then '' else format(' (%s)', staged.guid) end), 'notes');
  end if;
end
$$;

-- The card ordinals of an imported note: its kind's, or its note type's templates'.
create function private.import_note_ordinals(p_kind public.note_kind, p_fields jsonb, p_tags text[], p_note_type_id uuid)
returns int[]
language sql stable
set search_path = ''
as $$
  select case when p_kind = 'custom' then (
      select private.template_ordinals(t.kind::text, t.fields, t.templates, p_fields, p_tags)
      from public.note_types t where t.id = p_note_type_id
    )
    else private.note_ordinals(p_kind, p_fields)
  end
$$;

revoke execute on function private.import_note_types(uuid, uuid),
  private.import_note_ordinals(public.note_kind, jsonb, text[], uuid)
  from public, anon, authenticated;
