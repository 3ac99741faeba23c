-- Auth hooks: functions GoTrue calls at points of its flows, named in
-- config.toml's [auth.hook.*] (on a hosted project: Authentication → Hooks).
-- GoTrue calls them as supabase_auth_admin, which may execute them and
-- nothing else here; the API roles may not call them.
grant usage on schema private to supabase_auth_admin;

-- The time step (RFC 6238: 30 s) of each factor's last accepted code.
create table private.totp_verifications (
  factor_id uuid primary key,
  step bigint not null,
  verified_at timestamptz not null
);
alter table private.totp_verifications enable row level security;
revoke all on private.totp_verifications from public, anon, authenticated, service_role;

-- The MFA verification attempt hook: an authenticator code is accepted once.
-- GoTrue accepts a code for the current 30 s step and one step either side,
-- so a code accepted in step S may be valid again up to step S + 2; a valid
-- code for the same factor before step S + 3 (60-90 s later) is refused.
-- The hook is not given the code, so a different fresh code is refused in
-- that time too: someone signing in on two devices waits for the next code.
-- On a refusal GoTrue ends every session of the user and answers 403
-- mfa_verification_rejected: a code entered twice may have been read over
-- the user's shoulder or from their traffic. The step is claimed in one
-- upsert, so two verifications racing with one code cannot both pass.
create function private.reject_reused_totp_code(event jsonb) returns jsonb
language plpgsql security definer
set search_path = ''
as $$
declare
  current_step bigint := floor(extract(epoch from now()) / 30);
begin
  if event ->> 'factor_type' is distinct from 'totp' or (event ->> 'valid')::boolean is not true then
    return jsonb_build_object('decision', 'continue');
  end if;
  insert into private.totp_verifications as seen (factor_id, step, verified_at)
  values ((event ->> 'factor_id')::uuid, current_step, now())
  on conflict (factor_id) do update set step = excluded.step, verified_at = excluded.verified_at
    where seen.step < excluded.step - 2;
  if not found then
    return jsonb_build_object('decision', 'reject',
      'message', 'This code was already used. Sign in again with the next code from your authenticator app.');
  end if;
  return jsonb_build_object('decision', 'continue');
end
$$;
revoke execute on function private.reject_reused_totp_code(jsonb) from anon, authenticated, service_role;
grant execute on function private.reject_reused_totp_code(jsonb) to supabase_auth_admin;
