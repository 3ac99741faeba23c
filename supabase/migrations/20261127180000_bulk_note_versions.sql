-- Bulk note actions state the versions they start from: a note changed since
-- the caller loaded it refuses the whole action (PT412), and deleting notes
-- goes through delete_notes for the same check.

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

drop function public.tag_notes(uuid[], text[], text[]);

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

drop function public.move_notes(uuid[], uuid);

create function public.move_notes(p_note_ids uuid[], p_deck_id uuid, p_versions integer[] default null)
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  moved integer;
begin
  perform private.require_user();
  if not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif not private.can_edit_deck(p_deck_id) then
    perform private.fail('42501', 'you cannot add notes to this deck');
  end if;
  -- Checks, locks and, with `p_versions`, refuses notes changed since they were loaded (PT412).
  perform private.lock_notes_for_bulk(p_note_ids, p_versions, 'move');
  update public.notes set deck_id = p_deck_id, updated_at = now()
  where id = any (p_note_ids) and deck_id <> p_deck_id;
  get diagnostics moved = row_count;
  return moved;
end
$$;

revoke execute on function public.move_notes(uuid[], uuid, integer[]) from public, anon;
grant execute on function public.move_notes(uuid[], uuid, integer[]) to authenticated, service_role;
