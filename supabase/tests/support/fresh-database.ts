import { randomUUID } from "node:crypto";
import { type Database, openPglite, openPostgres, type PrepareOptions, prepareDatabase } from "@engram/local-stack";
import { withDatabase } from "./global-setup.js";
import { supabaseDir } from "./paths.js";

/**
 * A new empty database, built by `build`: PGlite in memory (with the
 * platform's schemas already in place when `pgliteWithPlatform`), or a new
 * database on DATABASE_URL's server, dropped again by `close()`.
 */
export async function openNewDatabase(
  build: (db: Database) => Promise<unknown>,
  { pgliteWithPlatform = false } = {},
): Promise<Database> {
  const url = process.env.DATABASE_URL;
  let db: Database;
  let drop = async () => {};
  if (url) {
    const name = `engram_fresh_${randomUUID().replaceAll("-", "")}`;
    const admin = openPostgres({ connectionString: url, max: 1 });
    await admin.exec(`create database ${name}`);
    db = openPostgres({ connectionString: withDatabase(url, name), max: 2 });
    drop = async () => {
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    };
  } else {
    db = await openPglite({ withPlatform: pgliteWithPlatform });
  }
  await build(db);
  return {
    ...db,
    async close() {
      await db.close();
      await drop();
    },
  };
}

/** A database built from scratch (not from the suite's template) with other platform options. */
export function openFreshDatabase(options: Omit<PrepareOptions, "supabaseDir">): Promise<Database> {
  return openNewDatabase((db) => prepareDatabase(db, { supabaseDir, ...options }));
}
