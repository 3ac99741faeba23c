export type { Database, Queryable } from "./database/types.js";
export { openPglite, wrapPglite, type PgliteOptions } from "./database/pglite.js";
export { openPostgres, type PostgresOptions } from "./database/postgres.js";
export {
  applyMigrations,
  applyPlatform,
  applySeed,
  prepareDatabase,
  type PrepareOptions,
  type PrepareResult,
} from "./database/migrate.js";
export { setRequestContext, type RequestContext } from "./database/request-context.js";
export { findSupabaseDir, platformSqlDir } from "./paths.js";
