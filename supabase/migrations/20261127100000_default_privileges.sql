-- Who may call the functions migrations create from here on (they run as
-- postgres on the platform, and default privileges apply to what the role
-- that sets them creates): no function is executable by every role unless
-- granted, and helpers in private are callable by the API roles, as every
-- earlier migration granted them by hand. Default privileges per schema can
-- only add to the global ones, so the revoke from public is global; RPCs in
-- public already revoke it and grant execute to whom they serve.
--
-- Nothing that exists changes: supabase/schemas/00_helpers.sql sets the same
-- defaults before it creates anything, so both end in the same catalog.
alter default privileges revoke execute on functions from public;
alter default privileges in schema private grant execute on functions to anon, authenticated, service_role;
