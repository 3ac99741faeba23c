/**
 * PostgREST's in-database configuration: `pgrst.*` settings of the
 * authenticator role (`alter role authenticator set pgrst.db_aggregates_enabled
 * = 'true'`), a database's own setting winning over one for all databases.
 * Read with the schema cache; a change to the settings changes its fingerprint,
 * so `notify pgrst, 'reload config'` needs no listener here.
 */
export interface DbConfig {
  /** `db-aggregates-enabled`: avg(), count(), max(), min() and sum() in select. */
  aggregatesEnabled: boolean;
  /** `db-plan-enabled`: the execution plan as a response (`Accept: application/vnd.pgrst.plan`). */
  planEnabled: boolean;
}

export const defaultDbConfig: DbConfig = { aggregatesEnabled: false, planEnabled: false };

export const dbConfigQuery = `
select distinct on (key) substr(split_part(setting, '=', 1), length('pgrst.') + 1) as key,
  substr(setting, strpos(setting, '=') + 1) as value
from pg_db_role_setting s cross join lateral unnest(s.setconfig) as setting
where s.setrole = (select oid from pg_roles where rolname = 'authenticator')
  and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
  and setting like 'pgrst.%'
order by key, s.setdatabase desc`;

const truthy = new Set(["true", "on", "yes", "1"]);

export function toDbConfig(rows: { key: string; value: string }[]): DbConfig {
  const settings = new Map(rows.map((r) => [r.key, truthy.has(r.value.trim().toLowerCase())]));
  return {
    aggregatesEnabled: settings.get("db_aggregates_enabled") ?? defaultDbConfig.aggregatesEnabled,
    planEnabled: settings.get("db_plan_enabled") ?? defaultDbConfig.planEnabled,
  };
}
