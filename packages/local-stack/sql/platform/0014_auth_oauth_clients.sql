-- GoTrue's OAuth server clients (its oauth_clients migrations up to
-- token_endpoint_auth_method), with the platform's owner and grants.
do $$
begin
  if not exists (select 1 from pg_type where typname = 'oauth_registration_type' and typnamespace = 'auth'::regnamespace) then
    create type auth.oauth_registration_type as enum ('dynamic', 'manual');
  end if;
  if not exists (select 1 from pg_type where typname = 'oauth_client_type' and typnamespace = 'auth'::regnamespace) then
    create type auth.oauth_client_type as enum ('public', 'confidential');
  end if;
end
$$;

create table if not exists auth.oauth_clients (
  id uuid primary key,
  client_secret_hash text,
  registration_type auth.oauth_registration_type not null,
  redirect_uris text not null,
  grant_types text not null,
  client_name text check (char_length(client_name) <= 1024),
  client_uri text check (char_length(client_uri) <= 2048),
  logo_uri text check (char_length(logo_uri) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  client_type auth.oauth_client_type not null default 'confidential',
  token_endpoint_auth_method text
);
create index if not exists oauth_clients_deleted_at_idx on auth.oauth_clients (deleted_at);

do $$
declare
  migrator text := _local_stack.migration_role();
begin
  alter table auth.oauth_clients owner to supabase_auth_admin;
  alter type auth.oauth_registration_type owner to supabase_auth_admin;
  alter type auth.oauth_client_type owner to supabase_auth_admin;
  execute format('grant all on auth.oauth_clients to %I', migrator);
end
$$;
