-- Authenticator codes are accepted once: GoTrue's MFA verification attempt hook
-- (config.toml [auth.hook.mfa_verification_attempt]) refuses a valid code for a
-- factor that already accepted one within the code's window.

grant usage on schema private to supabase_auth_admin;

create table private.totp_verifications (
  factor_id uuid primary key,
  step bigint not null,
  verified_at timestamptz not null
);
alter table private.totp_verifications enable row level security;
revoke all on private.totp_verifications from public, anon, authenticated, service_role;

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
