import { join } from "node:path";
import { applyMigrations, applyPlatform, type Database } from "@engram/local-stack";
import { openNewDatabase } from "./fresh-database.js";
import { supabaseDir } from "./paths.js";

const schemasDir = join(supabaseDir, "schemas");

/**
 * A database built from `supabase/schemas` instead of the migrations, on the
 * platform as the suite's template has it (new tables not exposed). The schema
 * files run the way migrations do, in name order, each in its own transaction
 * as the migration role (so they are recorded in supabase_migrations by their
 * numeric prefix, which no comparison reads).
 */
export function openSchemaDatabase(): Promise<Database> {
  return openNewDatabase(
    async (db) => {
      await applyPlatform(db, { exposeNewTables: false });
      await applyMigrations(db, schemasDir);
    },
    { pgliteWithPlatform: true },
  );
}
