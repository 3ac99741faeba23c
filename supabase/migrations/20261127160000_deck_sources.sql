-- A public copy of a private deck named its source to anyone who read it.
-- cloned_from is now read only through deck_sources (and explore_decks), which
-- show it to whoever may read the source; the API roles read every other
-- column of decks by name.
revoke select on public.decks from anon, authenticated;
grant select (id, owner_id, name, description, is_public, cover_path, new_per_day, reviews_per_day, archived_at,
    created_at, updated_at, clone_count, leech_threshold, leech_action, bury_new, bury_reviews, bury_interday_learning)
  on public.decks to anon, authenticated;

-- Where copies came from, for whoever may read both the copy and its source:
-- a public copy of a private deck does not name it to strangers. Looks at
-- p_deck_ids, or at every deck the caller is a member of when it is null, and
-- lists only copies whose source is shown.
create function public.deck_sources(p_deck_ids uuid[] default null)
returns table (deck_id uuid, cloned_from uuid)
language sql stable security definer
set search_path = ''
as $$
  select d.id, d.cloned_from
  from public.decks d
  where d.id = any(coalesce(p_deck_ids, array(select private.member_deck_ids())))
    and d.cloned_from is not null
    and (select private.aal_satisfied())
    and private.can_read_deck(d.id)
    and private.can_read_deck(d.cloned_from)
$$;

revoke execute on function public.deck_sources(uuid[]) from public;
grant execute on function public.deck_sources(uuid[]) to anon, authenticated, service_role;

create or replace function public.explore_decks(
  p_search text default null,
  p_sort text default 'newest',
  p_limit integer default 30,
  p_offset integer default 0
)
returns table (
  id uuid,
  owner_id uuid,
  name text,
  description text,
  is_public boolean,
  cover_path text,
  new_per_day integer,
  reviews_per_day integer,
  archived_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  clone_count integer,
  cloned_from uuid,
  note_count integer,
  owner_name text
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  search text := nullif(btrim(p_search), '');
  pattern text;
  most_cloned boolean;
begin
  if p_sort is null or p_sort not in ('newest', 'most_cloned') then
    perform private.fail('22023', 'sort by newest or most_cloned', 'sort');
  elsif p_limit is null or p_limit not between 1 and 100 then
    perform private.fail('22023', 'a page holds 1 to 100 decks', 'limit');
  elsif p_offset is null or p_offset < 0 then
    perform private.fail('22023', 'offset must be 0 or more', 'offset');
  elsif char_length(search) > 200 then
    perform private.fail('22023', 'a search has at most 200 characters', 'search');
  end if;
  most_cloned := p_sort = 'most_cloned';
  pattern := '%' || replace(replace(replace(search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  -- Public decks are few next to notes: a substring match and a top-N sort
  -- over them are cheap, and find parts of words that full-text search would
  -- not. (An index on clone_count would make every clone a non-HOT update of
  -- the source's row.)
  return query
    select d.id, d.owner_id, d.name, d.description, d.is_public, d.cover_path, d.new_per_day, d.reviews_per_day,
      d.archived_at, d.created_at, d.updated_at, d.clone_count,
      -- A copy names its source only to who may read it (see deck_sources).
      case when private.can_read_deck(d.cloned_from) then d.cloned_from end,
      (select count(*)::integer from public.notes n where n.deck_id = d.id),
      nullif(p.display_name, '')
    from (
      select * from public.decks d0
      where d0.is_public and d0.archived_at is null
        and (search is null or d0.name ilike pattern or d0.description ilike pattern)
      order by case when most_cloned then d0.clone_count end desc nulls last, d0.created_at desc, d0.id desc
      limit p_limit offset p_offset
    ) d
    left join public.profiles p on p.id = d.owner_id
    order by case when most_cloned then d.clone_count end desc nulls last, d.created_at desc, d.id desc;
end
$$;
