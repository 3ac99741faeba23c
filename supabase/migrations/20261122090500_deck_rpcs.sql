-- Sharing and reorganising decks: invites, cloning, moving notes, members.

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

-- Copies a deck the caller can see (their own, shared with them, or public)
-- into a new private deck they own: the notes and so the cards, but nobody's
-- schedule. Returns the new deck's id.
create function public.clone_deck(p_deck_id uuid, p_name text default null) returns uuid
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
  insert into public.decks (owner_id, name, description, new_per_day, reviews_per_day)
  values (
    uid,
    coalesce(p_name, left(source.name, 113) || ' (copy)'),
    source.description, source.new_per_day, source.reviews_per_day
  )
  returning id into new_id;
  insert into public.notes (deck_id, kind, fields, tags, created_by, created_at)
  select new_id, n.kind, n.fields, n.tags, uid, n.created_at
  from public.notes n where n.deck_id = p_deck_id
  order by n.created_at, n.id;
  return new_id;
end
$$;

-- Moves notes (with their cards and everyone's schedules) to another deck.
-- The caller must be able to edit both the notes' decks and the target.
create function public.move_notes(p_note_ids uuid[], p_deck_id uuid) returns integer
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
  if exists (
    select 1 from unnest(p_note_ids) as wanted(id)
    left join public.notes n on n.id = wanted.id
    where n.id is null or not private.can_read_deck(n.deck_id)
  ) then
    perform private.fail('PT404', 'note not found', 'note_ids');
  end if;
  if exists (select 1 from public.notes n where n.id = any (p_note_ids) and not private.can_edit_deck(n.deck_id)) then
    perform private.fail('42501', 'you cannot move notes out of a deck you do not edit');
  end if;
  update public.notes set deck_id = p_deck_id, updated_at = now()
  where id = any (p_note_ids) and deck_id <> p_deck_id;
  get diagnostics moved = row_count;
  return moved;
end
$$;

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

revoke execute on function public.create_invite, public.accept_invite, public.clone_deck,
  public.move_notes, public.deck_member_profiles from public, anon;
grant execute on function public.create_invite, public.accept_invite, public.clone_deck,
  public.move_notes, public.deck_member_profiles to authenticated, service_role;
