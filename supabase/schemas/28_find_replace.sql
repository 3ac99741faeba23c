-- Find and replace across notes (docs/product.md §2): the client computes
-- each note's new fields with @engram/core's findReplace and sends them with
-- the version each was computed from; the database applies them all or none.

-- Replaces the fields of up to 500 notes in one statement. `p_changes` is
-- [{"id", "version", "fields"}]: each note's id, the version its new fields
-- were computed from, and every one of its fields (the same names, all text).
-- The checks are a bulk action's (private.lock_notes_for_bulk): a missing
-- note refuses with PT404, one in a deck the caller does not edit with
-- 42501, and one changed since with PT412 naming the stale notes; the
-- notes table's own rules check the new fields, and a field that breaks one
-- refuses the whole call. Each changed note gets a new version, recorded as
-- an edit in its history.
create function public.replace_in_notes(p_changes jsonb)
returns setof public.notes
language plpgsql security definer
set search_path = ''
as $$
declare
  ids uuid[];
  versions integer[];
begin
  perform private.require_user();
  if p_changes is null or jsonb_typeof(p_changes) <> 'array' or jsonb_array_length(p_changes) = 0 then
    perform private.fail('22023', 'choose at least one note', 'changes');
  end if;
  if jsonb_array_length(p_changes) > 500 then
    perform private.fail('22023', 'choose at most 500 notes at once', 'changes');
  end if;
  if exists (
    select 1 from jsonb_array_elements(p_changes) as c(change)
    where jsonb_typeof(c.change) <> 'object'
      or jsonb_typeof(c.change -> 'id') <> 'string'
      or (c.change ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      or jsonb_typeof(c.change -> 'version') <> 'number'
      or (c.change ->> 'version') !~ '^[0-9]{1,9}$'
      or jsonb_typeof(c.change -> 'fields') <> 'object'
      or exists (select 1 from jsonb_each(c.change -> 'fields') as f(name, value) where jsonb_typeof(f.value) <> 'string')
  ) then
    perform private.fail('22023', 'each change is a note''s id, version and fields as text', 'changes');
  end if;
  select array_agg((c.change ->> 'id')::uuid order by c.at), array_agg((c.change ->> 'version')::integer order by c.at)
  into ids, versions
  from jsonb_array_elements(p_changes) with ordinality as c(change, at);
  if cardinality(ids) <> (select count(distinct id) from unnest(ids) as u(id)) then
    perform private.fail('22023', 'name each note once', 'changes');
  end if;
  perform private.lock_notes_for_bulk(ids, versions, 'edit');
  -- A replacement changes what the fields say, never which fields a note has.
  if exists (
    select 1 from jsonb_array_elements(p_changes) as c(change)
    join public.notes n on n.id = (c.change ->> 'id')::uuid
    where array(select jsonb_object_keys(n.fields) order by 1)
      is distinct from array(select jsonb_object_keys(c.change -> 'fields') order by 1)
  ) then
    perform private.fail('22023', 'a replacement keeps each note''s fields', 'fields');
  end if;
  return query
    update public.notes n
    set fields = c.change -> 'fields', updated_at = now()
    from jsonb_array_elements(p_changes) as c(change)
    where n.id = (c.change ->> 'id')::uuid
    returning n.*;
end
$$;

revoke execute on function public.replace_in_notes(jsonb) from public, anon;
grant execute on function public.replace_in_notes(jsonb) to authenticated, service_role;
