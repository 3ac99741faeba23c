-- type_in notes (Anki's "Basic (type in the answer)") make one card, as
-- basic notes do, and staged imports may hold them. The notes constraints
-- and import_content_problem already treat every kind but cloze as front/back.

-- Card ordinals a note produces: basic and type_in 1, basic_reversed 1 and 2, cloze its numbers.
create or replace function private.note_ordinals(p_kind public.note_kind, p_fields jsonb) returns int[]
language sql immutable parallel safe
set search_path = ''
as $$
  select case p_kind
    when 'basic' then array[1]
    when 'type_in' then array[1]
    when 'basic_reversed' then array[1, 2]
    else private.cloze_ordinals(p_fields ->> 'text')
  end
$$;

-- What is wrong with one staged note, or null. The shape is checked before
-- any value is cast; the rules mirror the notes constraints (which still
-- check every row) so that the error can say which note broke which rule.
create or replace function private.import_note_problem(p_note jsonb) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_note) <> 'object' then 'is not an object'
    when jsonb_typeof(coalesce(p_note -> 'guid', 'null')) not in ('string', 'null') then 'guid must be text'
    when char_length(p_note ->> 'guid') > 200 then 'guid has more than 200 characters'
    when coalesce(p_note ->> 'kind', '') not in ('basic', 'basic_reversed', 'cloze', 'type_in') then
      'kind must be basic, basic_reversed, cloze or type_in'
    when jsonb_typeof(p_note -> 'fields') is distinct from 'object' then 'fields must be an object'
    when jsonb_typeof(coalesce(p_note -> 'tags', '[]')) not in ('array', 'null')
      or exists (
        select 1 from jsonb_array_elements(coalesce(nullif(p_note -> 'tags', 'null'), '[]')) as t
        where jsonb_typeof(t) <> 'string'
      ) then 'tags must be a list of text'
    when jsonb_typeof(coalesce(p_note -> 'cards', '[]')) not in ('array', 'null') then 'cards must be a list'
    when exists (
      select 1 from jsonb_array_elements(coalesce(nullif(p_note -> 'cards', 'null'), '[]')) as c
      where jsonb_typeof(c) <> 'object'
        or jsonb_typeof(c -> 'ordinal') is distinct from 'number'
        or jsonb_typeof(coalesce(c -> 'schedule', 'null')) not in ('object', 'null')
        or jsonb_typeof(coalesce(c -> 'suspended', 'null')) not in ('boolean', 'null')
        or jsonb_typeof(coalesce(c -> 'reviews', '[]')) not in ('array', 'null')
        or exists (
          select 1 from jsonb_array_elements(coalesce(nullif(c -> 'reviews', 'null'), '[]')) as r
          where jsonb_typeof(r) <> 'object'
        )
    ) then 'each card needs an ordinal, and its schedule and reviews must be objects'
  end
$$;
