export { liftAuthRateLimits, type StackConfig } from "./config/config.js";
export {
  applyMigrations,
  applyPlatform,
  applySeed,
  migrationRole,
  type PlatformOptions,
  type PrepareOptions,
  type PrepareResult,
  prepareDatabase,
} from "./database/migrate.js";
export { openPglite, type PgliteOptions, wrapPglite } from "./database/pglite.js";
export { openPostgres, type PostgresOptions } from "./database/postgres.js";
export { type RequestContext, setRequestContext } from "./database/request-context.js";
export type { Database, Queryable } from "./database/types.js";
export { findSupabaseDir, platformSqlDir } from "./paths.js";
export { channelPermissions, type Permissions } from "./realtime/changes.js";
export { type RunningStack, type StartOptions, startStack } from "./server.js";
