-- Image occlusion notes: an image and Anki's occlusion field, one card per
-- group; the notes constraints and staged imports accept them.

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
create or replace function private.note_ordinals(p_kind public.note_kind, p_fields jsonb) returns int[]
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

alter table public.notes
  drop constraint notes_fields_shape,
  drop constraint notes_front_required,
  drop constraint notes_back_required,
  drop constraint notes_field_length,
  add constraint notes_fields_shape check (
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
  add constraint notes_front_required check (kind in ('cloze', 'image_occlusion', 'custom') or private.has_content(fields ->> 'front')),
  add constraint notes_back_required check (kind in ('cloze', 'image_occlusion', 'custom') or jsonb_typeof(fields -> 'back') = 'string'),
  add constraint notes_field_length check (
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
  add constraint notes_occlusion_image_required check (kind <> 'image_occlusion' or coalesce(fields ->> 'image', '') ~* '<img\M'),
  add constraint notes_occlusion_groups check (kind <> 'image_occlusion' or cardinality(private.occlusion_ordinals(fields ->> 'occlusions')) between 1 and 500);

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
    when coalesce(p_note ->> 'kind', '') not in ('basic', 'basic_reversed', 'cloze', 'type_in', 'image_occlusion', 'custom') then
      'kind must be basic, basic_reversed, cloze, type_in, image_occlusion or custom'
    when (p_note ->> 'kind' = 'custom') <> (jsonb_typeof(p_note -> 'note_type') is not distinct from 'string') then
      'a custom note, and only one, names its note_type'
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

-- The rules a note's content must meet (the notes constraints), for a note
-- whose shape import_note_problem accepted.
create or replace function private.import_content_problem(p_kind public.note_kind, p_fields jsonb, p_tags text[]) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case
    when p_kind = 'cloze' and (
      jsonb_typeof(p_fields -> 'text') is distinct from 'string'
      or jsonb_typeof(coalesce(p_fields -> 'extra', '""')) <> 'string'
      or p_fields - array['text', 'extra'] <> '{}'::jsonb
    ) then 'a cloze note has the text fields text and extra'
    when p_kind = 'image_occlusion' and (
      jsonb_typeof(p_fields -> 'image') is distinct from 'string'
      or jsonb_typeof(p_fields -> 'occlusions') is distinct from 'string'
      or exists (
        select 1 from unnest(array['header', 'back_extra', 'comments']) as f
        where jsonb_typeof(coalesce(p_fields -> f, '""')) <> 'string'
      )
      or p_fields - array['image', 'occlusions', 'header', 'back_extra', 'comments'] <> '{}'::jsonb
    ) then 'an image occlusion note has the text fields image, occlusions, header, back_extra and comments'
    when p_kind = 'image_occlusion' and coalesce(p_fields ->> 'image', '') !~* '<img\M' then 'the image is missing'
    when p_kind = 'image_occlusion'
      and cardinality(private.occlusion_ordinals(p_fields ->> 'occlusions')) not between 1 and 500 then
      'the occlusions have no group like {{c1::image-occlusion:...}}, or more than 500'
    when p_kind = 'custom' and exists (select 1 from jsonb_each(p_fields) as f(k, v) where jsonb_typeof(v) <> 'string')
      then 'a custom note''s fields are text'
    when p_kind not in ('cloze', 'image_occlusion', 'custom') and (
      jsonb_typeof(p_fields -> 'front') is distinct from 'string'
      or jsonb_typeof(p_fields -> 'back') is distinct from 'string'
      or p_fields - array['front', 'back'] <> '{}'::jsonb
    ) then 'a basic note has the text fields front and back'
    when p_kind not in ('cloze', 'image_occlusion', 'custom') and not private.has_content(p_fields ->> 'front') then 'the front is empty'
    when greatest(
      char_length(p_fields ->> 'front'), char_length(p_fields ->> 'back'),
      char_length(p_fields ->> 'text'), char_length(p_fields ->> 'extra'),
      char_length(p_fields ->> 'image'), char_length(p_fields ->> 'occlusions'), char_length(p_fields ->> 'header'),
      char_length(p_fields ->> 'back_extra'), char_length(p_fields ->> 'comments')
    ) > 20000 or (p_kind = 'custom' and exists (select 1 from jsonb_each_text(p_fields) as f(k, v) where char_length(v) > 20000))
      then 'a field has more than 20,000 characters'
    when p_kind = 'cloze' and cardinality(private.cloze_ordinals(p_fields ->> 'text')) = 0 then
      'the text has no cloze deletion like {{c1::...}}'
    when cardinality(p_tags) > 50 then 'a note has at most 50 tags'
    when not private.tags_valid(p_tags) then 'tags have 1 to 64 characters, no spaces, each once'
  end
$$;
