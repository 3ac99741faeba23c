-- Who owns what and who runs the project's SQL, as on the platform: the
-- service roles own their schemas' tables (supabase_auth_admin auth.*,
-- supabase_storage_admin storage.*, supabase_realtime_admin realtime.*), and
-- migrations and seed.sql run as `postgres`, which is not a superuser but has
-- BYPASSRLS, CREATEROLE, CREATEDB and REPLICATION.
--
-- The bootstrap superuser of a cluster (PGlite's only user, or a server
-- initialised with `initdb -U postgres`) cannot stop being one, so there the
-- role with postgres's attributes and grants is `platform_postgres`.
create or replace function _local_stack.migration_role() returns text
language sql stable as $$
  select case when exists (select 1 from pg_roles where rolname = 'postgres' and oid = 10)
    then 'platform_postgres' else 'postgres' end
$$;

-- Roles are shared by every database of a server, and several databases may be
-- set up at once (one per test file): a role step another session has just
-- taken leaves the same result, so its conflict errors are ignored.
create or replace function _local_stack.role_step(p_sql text) returns void
language plpgsql as $$
begin
  execute p_sql;
exception
  when unique_violation or duplicate_object then null;
  when internal_error then
    if sqlerrm not like 'tuple concurrently %' then raise; end if;
end
$$;

do $$
declare
  migrator text := _local_stack.migration_role();
  r record;
begin
  for r in select * from (values
      ('supabase_auth_admin', 'login noinherit createrole'),
      ('supabase_storage_admin', 'login noinherit createrole'),
      ('supabase_realtime_admin', 'nologin noinherit'),
      ('dashboard_user', 'nologin createrole createdb replication'),
      ('pgbouncer', 'login'),
      (migrator, 'login')) as roles (name, options)
    where not exists (select 1 from pg_roles where rolname = roles.name)
  loop
    perform _local_stack.role_step(format('create role %I %s', r.name, r.options));
  end loop;
  if exists (select 1 from pg_roles where rolname = migrator
      and (rolsuper or not rolcreaterole or not rolcreatedb or not rolreplication or not rolbypassrls)) then
    perform _local_stack.role_step(
      format('alter role %I nosuperuser createrole createdb replication bypassrls login', migrator));
  end if;
  if not exists (select 1 from pg_db_role_setting where setrole = migrator::regrole and setdatabase = 0) then
    perform _local_stack.role_step(
      format('alter role %I set search_path = "$user", public, extensions', migrator));
  end if;
  execute format('alter database %I set search_path = "$user", public, extensions', current_database());

  -- The API roles are postgres's to grant; Realtime's admin role is granted to it
  -- (that is what lets a migration put policies on realtime.messages). Membership
  -- in supabase_storage_admin stands in for supautils' policy_grants, which let
  -- postgres put policies on storage.objects on the platform.
  if not pg_has_role(migrator, 'authenticator', 'member') then
    perform _local_stack.role_step(
      format('grant anon, authenticated, service_role, authenticator to %I with admin option', migrator));
  end if;
  if not pg_has_role(migrator, 'supabase_storage_admin', 'member') then
    perform _local_stack.role_step(format('grant supabase_realtime_admin, supabase_storage_admin to %I', migrator));
  end if;

  execute format('grant all on database %I to %I', current_database(), migrator);
  execute format('grant all on schema public, extensions to %I', migrator);
  execute format('grant all on all routines in schema extensions to %I', migrator);
  execute format('grant usage on schema auth to %I', migrator);
  execute format('grant usage on schema storage, realtime to %I with grant option', migrator);

  grant all on schema auth to supabase_auth_admin;
  grant all on schema storage to supabase_storage_admin;
  grant all on schema realtime to supabase_realtime_admin;
  grant usage on schema extensions to supabase_auth_admin, supabase_storage_admin, supabase_realtime_admin;

  for r in select c.oid::regclass as rel, n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('auth', 'storage', 'realtime') and c.relkind in ('r', 'p')
  loop
    execute format('alter table %s owner to %I', r.rel,
      case r.nspname when 'auth' then 'supabase_auth_admin' when 'storage' then 'supabase_storage_admin'
        else 'supabase_realtime_admin' end);
  end loop;
  for r in select p.oid::regprocedure as fn, n.nspname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('auth', 'storage') or (n.nspname = 'realtime' and p.proname not like 'engram\_%')
  loop
    execute format('alter routine %s owner to %I', r.fn,
      case r.nspname when 'auth' then 'supabase_auth_admin' when 'storage' then 'supabase_storage_admin'
        else 'supabase_realtime_admin' end);
  end loop;

  execute format('grant all on all tables in schema auth to %I', migrator);
  execute format('grant all on all sequences in schema auth to %I', migrator);
  execute format('grant all on all routines in schema auth to %I', migrator);
  execute format('grant all on all tables in schema storage to %I with grant option', migrator);
  execute format('grant all on all routines in schema storage to %I', migrator);

  -- Migrations add their tables to Realtime's publication, which postgres owns.
  execute format('alter publication supabase_realtime owner to %I', migrator);
end
$$;

alter table auth.users enable row level security;
