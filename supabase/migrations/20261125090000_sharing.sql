-- Sharing: handing a deck to another member, previewing an invite before
-- accepting it (signed out too), and exploring public decks by how often
-- they were copied.

-- Where a copy came from, and how many copies of a deck exist. Only
-- clone_deck sets cloned_from; the counter follows copies being made and
-- deleted (a copy whose media failed to copy is deleted again, so it leaves
-- no count behind).
alter table public.decks
  add column clone_count integer not null default 0 constraint decks_clone_count_range check (clone_count >= 0),
  add column cloned_from uuid references public.decks (id) on delete set null;
create index decks_cloned_from_idx on public.decks (cloned_from) where cloned_from is not null;

-- Inserts name their columns, so the two new ones stay out of clients' reach
-- (updates already do: see 20261123110000_explicit_grants).
revoke insert on public.decks from authenticated;
grant insert (id, owner_id, name, description, is_public, cover_path, new_per_day, reviews_per_day, archived_at,
  created_at, updated_at)
  on public.decks to authenticated;

create function private.count_clones() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.decks set clone_count = clone_count + 1 where id = new.cloned_from;
  else
    update public.decks set clone_count = greatest(clone_count - 1, 0) where id = old.cloned_from;
  end if;
  return null;
end
$$;

create trigger decks_count_new_clone after insert on public.decks
  for each row when (new.cloned_from is not null) execute function private.count_clones();
create trigger decks_count_deleted_clone after delete on public.decks
  for each row when (old.cloned_from is not null) execute function private.count_clones();

-- Someone copying a deck, or its source going away, is not an edit of the
-- deck: its updated_at stays. Clients cannot write either column.
drop trigger decks_touch on public.decks;
create trigger decks_touch before update on public.decks
  for each row when (old.clone_count = new.clone_count and old.cloned_from is not distinct from new.cloned_from)
  execute function private.touch_updated_at();

-- Records where the copy came from (which counts it). Otherwise as in 20261124090000.
create or replace function public.clone_deck(p_deck_id uuid, p_name text default null) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  source public.decks;
  new_id uuid;
begin
  select * into source from public.decks where id = p_deck_id;
  if source.id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  -- The cover stays behind: it lives in the source deck's media folder.
  insert into public.decks (owner_id, name, description, new_per_day, reviews_per_day, cloned_from)
  values (
    uid,
    coalesce(p_name, left(source.name, 113) || ' (copy)'),
    source.description, source.new_per_day, source.reviews_per_day, source.id
  )
  returning id into new_id;
  insert into public.notes (deck_id, kind, fields, tags, created_by, created_at, source_guid)
  select new_id, n.kind, n.fields, n.tags, uid, n.created_at, n.source_guid
  from public.notes n where n.deck_id = p_deck_id
  order by n.created_at, n.id;
  return new_id;
end
$$;

-- The owner hands the deck to another member, who becomes its owner; the
-- old owner stays on as an editor (and may then leave). One owner at a
-- time (deck_members_one_owner): the old owner steps down first.
create function public.transfer_deck_ownership(p_deck_id uuid, p_user_id uuid) returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
begin
  if not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  -- Two transfers (or a transfer and an invite) of one deck run one after the other.
  perform 1 from public.decks where id = p_deck_id for update;
  if not private.is_deck_owner(p_deck_id) then
    perform private.fail('42501', 'only the owner of a deck can hand it over');
  elsif p_user_id is null or p_user_id = uid then
    perform private.fail('22023', 'hand the deck to another member', 'user_id');
  end if;
  perform 1 from public.deck_members where deck_id = p_deck_id and user_id = p_user_id for update;
  if not found then
    perform private.fail('PT404', 'this person is not a member of the deck', 'user_id');
  end if;
  update public.deck_members set role = 'editor' where deck_id = p_deck_id and user_id = uid;
  update public.deck_members set role = 'owner' where deck_id = p_deck_id and user_id = p_user_id;
  update public.decks set owner_id = p_user_id where id = p_deck_id;
end
$$;

-- What an invite link leads to, for the page that asks whether to accept
-- it: anyone holding the token (signed in or not) may ask. The token is the
-- secret (192 random bits); an unknown one is PT404. The status is decided
-- in the same order as accept_invite.
create function public.invite_preview(p_token text)
returns table (
  deck_id uuid,
  deck_name text,
  description text,
  owner_name text,
  note_count integer,
  role public.deck_role,
  status text,
  expires_at timestamptz,
  is_member boolean
)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  invite public.deck_invites;
begin
  select * into invite from public.deck_invites i where i.token = p_token;
  if invite.id is null then
    perform private.fail('PT404', 'invite not found', 'token');
  end if;
  return query
    select d.id, d.name, d.description, nullif(p.display_name, ''),
      (select count(*)::integer from public.notes n where n.deck_id = d.id),
      invite.role,
      case
        when invite.revoked_at is not null then 'revoked'
        when invite.expires_at <= now() then 'expired'
        when invite.max_uses is not null and invite.uses >= invite.max_uses then 'used_up'
        else 'active'
      end,
      invite.expires_at,
      exists (select 1 from public.deck_members m where m.deck_id = d.id and m.user_id = auth.uid())
    from public.decks d
    left join public.profiles p on p.id = d.owner_id
    where d.id = invite.deck_id;
end
$$;

-- Public decks for the explore page, newest or most copied first, matching
-- a search in name or description (case-insensitive, the text as typed: `%`
-- and `_` match themselves). Archived decks are left out.
create function public.explore_decks(
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
      d.archived_at, d.created_at, d.updated_at, d.clone_count, d.cloned_from,
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

revoke execute on function private.count_clones() from public;
grant execute on function private.count_clones() to authenticated, service_role;

revoke execute on function public.transfer_deck_ownership(uuid, uuid) from public, anon, service_role;
grant execute on function public.transfer_deck_ownership(uuid, uuid) to authenticated;

revoke execute on function public.invite_preview(text), public.explore_decks(text, text, integer, integer) from public;
grant execute on function public.invite_preview(text), public.explore_decks(text, text, integer, integer)
  to anon, authenticated, service_role;
