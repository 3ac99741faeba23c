-- A note type change says where each field and template came from, so a
-- rename or reorder keeps every note's text and every card's schedule.

drop function public.update_note_type(uuid, integer, text, text[], jsonb, text, boolean);

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
