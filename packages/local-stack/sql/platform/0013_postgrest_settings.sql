-- PostgREST reads its in-database configuration from the authenticator role's
-- `pgrst.*` settings, and Supabase's docs tell projects to write them in a
-- migration (`alter role authenticator set pgrst.db_aggregates_enabled =
-- 'true'`). On the platform, supautils lets `postgres` set them although it is
-- not a superuser; here the migration role is granted SET on each setting
-- PostgREST reads from the database, which is what lets a non-superuser name
-- such a setting in ALTER ROLE … SET.
do $$
declare
  migrator text := _local_stack.migration_role();
  setting text;
begin
  foreach setting in array array[
    'db_aggregates_enabled', 'db_anon_role', 'db_extra_search_path', 'db_hoisted_tx_settings',
    'db_max_rows', 'db_plan_enabled', 'db_pre_request', 'db_prepared_statements', 'db_root_spec',
    'db_schemas', 'db_tx_end', 'jwt_aud', 'jwt_cache_max_lifetime', 'jwt_role_claim_key', 'jwt_secret',
    'jwt_secret_is_base64', 'openapi_mode', 'openapi_security_active', 'openapi_server_proxy_uri',
    'server_cors_allowed_origins', 'server_timing_enabled', 'server_trace_header'
  ] loop
    perform _local_stack.role_step(format('grant set on parameter %I to %I', 'pgrst.' || setting, migrator));
  end loop;
end
$$;
