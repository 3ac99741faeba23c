-- A token whose session has ended is refused everywhere: by every policy
-- "two-factor sessions only" (tables, storage.objects, realtime.messages) and
-- by every RPC, through private.aal_satisfied() and private.require_user().
-- "Sign out of all devices" deletes the user's auth.sessions rows, so a copied
-- access token stops working at once instead of when it expires.

create function private.session_active() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select case
    when auth.jwt() ->> 'session_id' is null then true
    when auth.jwt() ->> 'session_id' !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then false
    else exists (
      select 1 from auth.sessions s
      where s.id = (auth.jwt() ->> 'session_id')::uuid
        and s.user_id = auth.uid()
        and (s.not_after is null or s.not_after > now())
    )
  end
$$;

create or replace function private.aal_satisfied() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select private.session_active()
    and (
      coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
      or not exists (
        select 1 from auth.mfa_factors f
        where f.user_id = auth.uid() and f.status = 'verified'
      )
    )
$$;

create or replace function private.require_user() returns uuid
language plpgsql stable
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    raise exception using errcode = '42501', message = 'sign in required';
  end if;
  if not private.session_active() then
    raise exception using errcode = '42501', message = 'session ended: sign in again';
  end if;
  if not private.aal_satisfied() then
    raise exception using errcode = '42501',
      message = 'two-factor sign-in required: enter the code from your authenticator app';
  end if;
  return uid;
end
$$;
