import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { applyMigrations, applyPlatform, type Database, openPglite, openPostgres } from "@engram/local-stack";
import { withDatabase } from "./global-setup.js";
import { supabaseDir } from "./paths.js";

export const schemasDir = join(supabaseDir, "schemas");

/**
 * A database built from `supabase/schemas` instead of the migrations, on the
 * platform as the suite's template has it (new tables not exposed): PGlite in
 * memory, or a new database on DATABASE_URL's server. The schema files run
 * the way migrations do, in name order, each in its own transaction as the
 * migration role (so they are recorded in supabase_migrations by their
 * numeric prefix, which no comparison reads).
 */
export async function openSchemaDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  let db: Database;
  let drop = async () => {};
  if (url) {
    const name = `engram_schemas_${randomUUID().replaceAll("-", "")}`;
    const admin = openPostgres({ connectionString: url, max: 1 });
    await admin.exec(`create database ${name}`);
    db = openPostgres({ connectionString: withDatabase(url, name), max: 2 });
    drop = async () => {
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    };
  } else {
    db = await openPglite({ withPlatform: true });
  }
  await applyPlatform(db, { exposeNewTables: false });
  await applyMigrations(db, schemasDir);
  return {
    ...db,
    async close() {
      await db.close();
      await drop();
    },
  };
}
