-- Sharing and reorganising decks: invites (and previewing one before
-- accepting it, signed out too), copying, handing a deck over, moving notes,
-- members, and exploring public decks by how often they were copied.

-- Creates an invite link for a deck (owners only). At most 20 active invites per deck.
create function public.create_invite(
  p_deck_id uuid,
  p_role public.deck_role default 'viewer',
  p_expires_in_days integer default 7,
  p_max_uses integer default null
) returns public.deck_invites
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  invite public.deck_invites;
begin
  if not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif not private.is_deck_owner(p_deck_id) then
    perform private.fail('42501', 'only the owner of a deck can invite');
  elsif p_role is null or p_role = 'owner' then
    perform private.fail('22023', 'an invite gives the editor or viewer role', 'role');
  elsif p_expires_in_days is null or p_expires_in_days not between 1 and 30 then
    perform private.fail('22023', 'an invite expires after 1 to 30 days', 'expires_in_days');
  elsif p_max_uses is not null and p_max_uses not between 1 and 1000 then
    perform private.fail('22023', 'an invite can be used 1 to 1000 times', 'max_uses');
  end if;
  perform 1 from public.decks where id = p_deck_id for update;
  if (
    select count(*) from public.deck_invites
    where deck_id = p_deck_id and revoked_at is null and expires_at > now()
      and (max_uses is null or uses < max_uses)
  ) >= 20 then
    perform private.fail('PT413', 'a deck can have at most 20 active invites', 'invites');
  end if;
  insert into public.deck_invites (deck_id, role, expires_at, max_uses, created_by)
  values (p_deck_id, p_role, now() + make_interval(days => p_expires_in_days), p_max_uses, uid)
  returning * into invite;
  return invite;
end
$$;

-- Joins the deck an invite is for and returns its id. Accepting again as a
-- member changes nothing and uses nothing up.
create function public.accept_invite(p_token text) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  invite public.deck_invites;
begin
  select * into invite from public.deck_invites where token = p_token for update;
  if invite.id is null then
    perform private.fail('PT404', 'invite not found', 'token');
  end if;
  if exists (select 1 from public.deck_members where deck_id = invite.deck_id and user_id = uid) then
    return invite.deck_id;
  end if;
  if invite.revoked_at is not null then
    perform private.fail('PT410', 'this invite was revoked', 'revoked');
  elsif invite.expires_at <= now() then
    perform private.fail('PT410', 'this invite has expired', 'expired');
  elsif invite.max_uses is not null and invite.uses >= invite.max_uses then
    perform private.fail('PT410', 'this invite has been used up', 'used_up');
  end if;
  insert into public.deck_members (deck_id, user_id, role) values (invite.deck_id, uid, invite.role);
  update public.deck_invites set uses = uses + 1 where id = invite.id;
  return invite.deck_id;
end
$$;

-- What an invite link leads to, for the page that asks whether to accept
-- it: anyone holding the token (signed in or not) may ask. The token is the
-- secret (192 random bits); an unknown one is PT404. The status is decided
-- in the same order as accept_invite. A link that no longer works (revoked,
-- expired or used up) shows whoever holds it only what they need to ask for
-- a new one: the deck's name and its owner. What the deck holds (its id,
-- description and notes) stays with its members and holders of a working link.
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
  invite_status text;
  member boolean;
  shows_deck boolean;
begin
  select * into invite from public.deck_invites i where i.token = p_token;
  if invite.id is null then
    perform private.fail('PT404', 'invite not found', 'token');
  end if;
  -- The same order as accept_invite.
  invite_status := case
    when invite.revoked_at is not null then 'revoked'
    when invite.expires_at <= now() then 'expired'
    when invite.max_uses is not null and invite.uses >= invite.max_uses then 'used_up'
    else 'active'
  end;
  -- A session still owing its second factor sees what a stranger sees.
  member := private.aal_satisfied() and exists (
    select 1 from public.deck_members m where m.deck_id = invite.deck_id and m.user_id = auth.uid()
  );
  shows_deck := invite_status = 'active' or member;
  return query
    select
      case when shows_deck then d.id end,
      d.name,
      case when shows_deck then d.description end,
      nullif(p.display_name, ''),
      case when shows_deck then (select count(*)::integer from public.notes n where n.deck_id = d.id) end,
      invite.role,
      invite_status,
      invite.expires_at,
      member
    from public.decks d
    left join public.profiles p on p.id = d.owner_id
    where d.id = invite.deck_id;
end
$$;

-- The note type of deck p_deck_id that stands in for note type p_type_id
-- (of another deck) for notes that can no longer use it: one of p_deck_id's
-- defined alike and named the same (or as an earlier copy, "Name (2)"), else
-- a new copy named "Name (2)" (or the next number free).
create function private.note_type_copy(p_type_id uuid, p_deck_id uuid) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  source_type public.note_types;
  target_type_id uuid;
  copy_name text;
  copy_number integer := 1;
begin
  select * into source_type from public.note_types where id = p_type_id;
  select id into target_type_id from public.note_types
  where deck_id = p_deck_id and kind = source_type.kind and fields = source_type.fields
    and templates = source_type.templates and css = source_type.css
    and (name = source_type.name or (left(name, char_length(source_type.name)) = source_type.name
      and substr(name, char_length(source_type.name) + 1) ~ '^ \([0-9]+\)$'))
  order by name = source_type.name desc, name
  limit 1;
  if target_type_id is null then
    copy_name := source_type.name;
    while exists (select 1 from public.note_types where deck_id = p_deck_id and name = copy_name) loop
      copy_number := copy_number + 1;
      copy_name := left(source_type.name, 100 - char_length(format(' (%s)', copy_number)))
        || format(' (%s)', copy_number);
    end loop;
    insert into public.note_types (deck_id, name, kind, fields, templates, css, source_id)
    values (p_deck_id, copy_name, source_type.kind, source_type.fields, source_type.templates, source_type.css,
      source_type.source_id)
    returning id into target_type_id;
  end if;
  return target_type_id;
end
$$;

revoke execute on function private.note_type_copy(uuid, uuid) from public, anon, authenticated, service_role;

-- Copies a deck the caller can see (their own, shared with them, or public)
-- into a new private deck they own, with the subdecks below it the caller can
-- see, as a tree of the same shape: the notes and so the cards, but nobody's
-- schedule. A subdeck the caller cannot see is left out with everything
-- below it. Each copy keeps its deck's limits and leech settings, its note
-- types, each note's origin (so importing the same file into the copy
-- matches them), and where it came from (cloned_from, which counts it). A
-- note type that notes of the copied decks use from a deck above the one
-- copied is copied into the new top deck, as move_notes would. The caller's
-- own tags and My notes (personal_notes) come along on the copied notes.
-- Returns the new top deck's id.
create function public.clone_deck(p_deck_id uuid, p_name text default null) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  uid uuid := private.require_user();
  source public.decks;
  copied_id uuid;
  deck_map jsonb := '{}';
  source_ids uuid[];
  type_map jsonb;
  outside_type uuid;
  note_map jsonb;
begin
  select * into source from public.decks where id = p_deck_id;
  if source.id is null or not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  -- Parents before their subdecks, so each copy goes under its parent's copy.
  for source in
    with recursive tree (id, depth) as (
      select p_deck_id, 1
      union all
      select d.id, tree.depth + 1 from public.decks d join tree on d.parent_id = tree.id
      where tree.depth < 10 and private.can_read_deck(d.id)
    )
    select d.* from tree join public.decks d on d.id = tree.id order by tree.depth, d.created_at, d.id
  loop
    -- The cover stays behind: it lives in the source deck's media folder.
    insert into public.decks (
      owner_id, name, description, new_per_day, reviews_per_day, leech_threshold, leech_action, cloned_from,
      parent_id
    )
    values (
      uid,
      case when source.id = p_deck_id then coalesce(p_name, left(source.name, 113) || ' (copy)') else source.name end,
      source.description, source.new_per_day, source.reviews_per_day, source.leech_threshold, source.leech_action,
      source.id, (deck_map ->> source.parent_id::text)::uuid
    )
    returning id into copied_id;
    deck_map := deck_map || jsonb_build_object(source.id::text, copied_id);
  end loop;
  source_ids := array(select k::uuid from jsonb_object_keys(deck_map) as k);
  -- Each copy has its own note types (names are unique per deck), and its custom notes use them.
  insert into public.note_types (deck_id, name, kind, fields, templates, css, source_id, created_at)
  select (deck_map ->> t.deck_id::text)::uuid, t.name, t.kind, t.fields, t.templates, t.css, t.source_id, t.created_at
  from public.note_types t where t.deck_id = any (source_ids);
  select coalesce(jsonb_object_agg(t.id, c.id), '{}') into type_map
  from public.note_types t
  join public.note_types c on c.deck_id = (deck_map ->> t.deck_id::text)::uuid and c.name = t.name
  where t.deck_id = any (source_ids);
  for outside_type in
    select distinct n.note_type_id from public.notes n
    where n.deck_id = any (source_ids) and n.note_type_id is not null and not (type_map ? n.note_type_id::text)
  loop
    type_map := type_map || jsonb_build_object(
      outside_type::text, private.note_type_copy(outside_type, (deck_map ->> p_deck_id::text)::uuid));
  end loop;
  -- Each copied note's id is chosen first, so the caller's personal layer can follow it.
  select coalesce(jsonb_object_agg(n.id, gen_random_uuid()), '{}') into note_map
  from public.notes n where n.deck_id = any (source_ids);
  insert into public.notes (id, deck_id, kind, fields, tags, created_by, created_at, source_guid, note_type_id)
  select (note_map ->> n.id::text)::uuid, (deck_map ->> n.deck_id::text)::uuid, n.kind, n.fields, n.tags, uid,
    n.created_at, n.source_guid, (type_map ->> n.note_type_id::text)::uuid
  from public.notes n
  where n.deck_id = any (source_ids)
  order by n.created_at, n.id;
  insert into public.personal_notes (user_id, note_id, tags, text)
  select uid, (note_map ->> p.note_id::text)::uuid, p.tags, p.text
  from public.personal_notes p
  where p.user_id = uid and p.deck_id = any (source_ids);
  return (deck_map ->> p_deck_id::text)::uuid;
end
$$;

-- Keeps decks.clone_count in step with the copies that exist.
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

revoke execute on function private.count_clones() from anon;

create trigger decks_count_new_clone after insert on public.decks
  for each row when (new.cloned_from is not null) execute function private.count_clones();
create trigger decks_count_deleted_clone after delete on public.decks
  for each row when (old.cloned_from is not null) execute function private.count_clones();

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

-- Moves notes (with their cards and everyone's schedules) to another deck.
-- The caller must be able to edit both the notes' decks and the target.
-- A custom note whose note type the target cannot use takes a copy of it
-- there (private.note_type_copy).
create function public.move_notes(p_note_ids uuid[], p_deck_id uuid, p_versions integer[] default null)
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  moved integer;
  moving_type uuid;
  type_map jsonb := '{}';
begin
  perform private.require_user();
  if not private.can_read_deck(p_deck_id) then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  elsif not private.can_edit_deck(p_deck_id) then
    perform private.fail('42501', 'you cannot add notes to this deck');
  end if;
  -- Checks, locks and, with `p_versions`, refuses notes changed since they were loaded (PT412).
  perform private.lock_notes_for_bulk(p_note_ids, p_versions, 'move');
  for moving_type in
    select distinct t.id from public.note_types t
    join public.notes n on n.note_type_id = t.id
    where n.id = any (p_note_ids) and n.deck_id <> p_deck_id and not private.note_type_usable(t.id, p_deck_id)
  loop
    type_map := type_map || jsonb_build_object(moving_type::text, private.note_type_copy(moving_type, p_deck_id));
  end loop;
  update public.notes
  set deck_id = p_deck_id, updated_at = now(),
    note_type_id = coalesce((type_map ->> note_type_id::text)::uuid, note_type_id)
  where id = any (p_note_ids) and deck_id <> p_deck_id;
  get diagnostics moved = row_count;
  return moved;
end
$$;

-- A deck moved in the tree (set_deck_parent, or handed to another owner,
-- which takes it out of its tree) keeps its notes and their cards: a note of
-- it or of its subdecks whose note type belongs to a deck it is no longer
-- under uses a copy of that type in the moved deck (private.note_type_copy),
-- in the statement that moves it.
create function private.keep_note_types_of_moved_deck() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  lost_type uuid;
  type_map jsonb := '{}';
  subtree_ids uuid[];
begin
  with recursive down (id, depth) as (
    select new.id, 1
    union all
    select d.id, down.depth + 1 from public.decks d join down on d.parent_id = down.id where down.depth < 10
  )
  select array_agg(id) into subtree_ids from down;
  for lost_type in
    with recursive up (id, depth) as (
      select new.parent_id, 1 where new.parent_id is not null
      union all
      select d.parent_id, up.depth + 1 from public.decks d join up on d.id = up.id
      where d.parent_id is not null and up.depth < 10
    )
    select distinct t.id from public.notes n
    join public.note_types t on t.id = n.note_type_id
    where n.deck_id = any (subtree_ids) and t.deck_id <> all (subtree_ids)
      and t.deck_id not in (select up.id from up)
  loop
    type_map := type_map || jsonb_build_object(lost_type::text, private.note_type_copy(lost_type, new.id));
  end loop;
  if type_map <> '{}' then
    update public.notes n set note_type_id = (type_map ->> n.note_type_id::text)::uuid
    where n.deck_id = any (subtree_ids) and type_map ? n.note_type_id::text;
  end if;
  return null;
end
$$;

revoke execute on function private.keep_note_types_of_moved_deck() from public, anon, authenticated, service_role;

create trigger decks_keep_note_types after update of parent_id, owner_id on public.decks
  for each row when (old.parent_id is distinct from new.parent_id)
  execute function private.keep_note_types_of_moved_deck();

-- Names and avatars of a deck's members, for members of that deck.
create function public.deck_member_profiles(p_deck_id uuid)
returns table (user_id uuid, role public.deck_role, display_name text, avatar_path text, joined_at timestamptz)
language plpgsql stable security definer
set search_path = ''
as $$
begin
  perform private.require_user();
  if private.deck_role(p_deck_id) is null then
    perform private.fail('PT404', 'deck not found', 'deck_id');
  end if;
  return query
    select m.user_id, m.role, p.display_name, p.avatar_path, m.created_at
    from public.deck_members m
    join public.profiles p on p.id = m.user_id
    where m.deck_id = p_deck_id
    order by m.role, p.display_name, m.user_id;
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

revoke execute on function public.create_invite, public.accept_invite, public.clone_deck,
  public.move_notes, public.deck_member_profiles from public, anon;
grant execute on function public.create_invite, public.accept_invite, public.clone_deck,
  public.move_notes, public.deck_member_profiles to authenticated, service_role;

revoke execute on function public.transfer_deck_ownership(uuid, uuid) from public, anon, service_role;
grant execute on function public.transfer_deck_ownership(uuid, uuid) to authenticated;

revoke execute on function public.invite_preview(text), public.explore_decks(text, text, integer, integer) from public;
grant execute on function public.invite_preview(text), public.explore_decks(text, text, integer, integer)
  to anon, authenticated, service_role;
