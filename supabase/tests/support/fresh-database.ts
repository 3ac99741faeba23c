import { randomUUID } from "node:crypto";
import { type Database, openPglite, openPostgres, type PrepareOptions, prepareDatabase } from "@engram/local-stack";
import { withDatabase } from "./global-setup.js";
import { supabaseDir } from "./paths.js";

/**
 * A database built from scratch (not from the suite's template) with other
 * platform options: PGlite in memory, or a new database on DATABASE_URL's server.
 */
export async function openFreshDatabase(options: Omit<PrepareOptions, "supabaseDir">): Promise<Database> {
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
    db = await openPglite();
  }
  await prepareDatabase(db, { supabaseDir, ...options });
  return {
    ...db,
    async close() {
      await db.close();
      await drop();
    },
  };
}
