-- Roles, schemas and extensions that every Supabase database has before any
-- project migration runs (mirrors supabase/postgres init scripts).
-- Roles are cluster-wide, so they are created only when missing.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_admin') then
    create role supabase_admin nologin bypassrls;
  end if;
end
$$;

grant anon, authenticated, service_role to authenticator;

alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

create schema if not exists extensions;
create schema if not exists auth;
create schema if not exists storage;
create schema if not exists realtime;
create schema if not exists graphql_public;

create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;

grant usage on schema public, extensions, graphql_public to anon, authenticated, service_role;
grant usage on schema auth, storage, realtime to anon, authenticated, service_role;
grant all on all functions in schema extensions to anon, authenticated, service_role;

-- Whether new objects in public are exposed to the API roles is set for the role
-- migrations run as (applyPlatform's exposeNewTables), after 0009 creates it.
