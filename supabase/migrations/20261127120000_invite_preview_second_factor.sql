-- A session that still owes its second factor (a verified factor, an aal1
-- token) sees an invite as a stranger does: a dead link of its own deck no
-- longer shows it the deck's id, description and note count. Same columns
-- as before, so the function keeps its grants.
create or replace function public.invite_preview(p_token text)
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
