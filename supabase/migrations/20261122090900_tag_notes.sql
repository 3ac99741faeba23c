-- Bulk tagging from the deck screen: add and remove tags on many notes in one
-- statement, so the change is all or nothing (a note that would break the tag
-- rules fails the whole call with the constraint's name).
create function public.tag_notes(p_note_ids uuid[], p_add text[] default '{}', p_remove text[] default '{}')
returns setof public.notes
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if coalesce(cardinality(p_note_ids), 0) = 0 then
    perform private.fail('22023', 'choose at least one note', 'note_ids');
  elsif cardinality(p_note_ids) > 500 then
    perform private.fail('22023', 'tag at most 500 notes at once', 'note_ids');
  elsif coalesce(cardinality(p_add), 0) + coalesce(cardinality(p_remove), 0) = 0 then
    perform private.fail('22023', 'choose tags to add or remove', 'tags');
  end if;
  if exists (
    select 1 from unnest(p_note_ids) as wanted(id)
    left join public.notes n on n.id = wanted.id
    where n.id is null or not private.can_read_deck(n.deck_id)
  ) then
    perform private.fail('PT404', 'note not found', 'note_ids');
  end if;
  if exists (select 1 from public.notes n where n.id = any (p_note_ids) and not private.can_edit_deck(n.deck_id)) then
    perform private.fail('42501', 'only the owner and editors of a deck can tag its notes');
  end if;
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

revoke execute on function public.tag_notes from public, anon;
grant execute on function public.tag_notes to authenticated, service_role;
