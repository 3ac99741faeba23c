// The embedded database as the stack opens it, on the main thread or in
// pglite-worker.mjs: plain JavaScript, so a worker thread loads it as it is.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { uuid_ossp } from "@electric-sql/pglite/contrib/uuid_ossp";

/**
 * Postgres's 128 MB of shared buffers are most of PGlite's memory, all of it
 * touched at start; a development database's working set fits in far less.
 */
const smallFootprint = ["-c", "shared_buffers=16MB", "-c", "wal_buffers=1MB", "-c", "temp_buffers=2MB"];

/** Embedded Postgres with the extensions Supabase preinstalls, and pg_trgm, which it offers. */
export function createPglite(options = {}) {
  return PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm, pgcrypto, uuid_ossp },
    startParams: [...PGlite.defaultStartParams, ...smallFootprint],
  });
}
