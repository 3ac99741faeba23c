import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { platformSqlDir } from "../paths.js";
import type { Database } from "./types.js";

const migrationFile = /^(\d+)_(.*)\.sql$/;

export interface PrepareOptions {
  /** The project's `supabase/` folder. */
  supabaseDir: string;
  /** Run `seed.sql` (default: only when this call applied the first migration). */
  seed?: boolean | "first-run";
}

export interface PrepareResult {
  platform: string[];
  migrations: string[];
  seeded: boolean;
}

/** Platform objects, then pending migrations, then the seed, as `supabase start` does. */
export async function prepareDatabase(db: Database, options: PrepareOptions): Promise<PrepareResult> {
  const platform = await applyPlatform(db);
  const firstRun = !(await hasMigrationHistory(db));
  const migrations = await applyMigrations(db, join(options.supabaseDir, "migrations"));
  const seedMode = options.seed ?? "first-run";
  const seeded = seedMode === true || (seedMode === "first-run" && firstRun);
  if (seeded) await applySeed(db, join(options.supabaseDir, "seed.sql"));
  return { platform, migrations, seeded };
}

/** Applies the versioned platform scripts (roles, auth, storage, realtime) not yet applied. */
export async function applyPlatform(db: Database): Promise<string[]> {
  await db.exec(`
    create schema if not exists _local_stack;
    create table if not exists _local_stack.platform_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    );`);
  return applyPending(db, platformSqlDir, "_local_stack.platform_migrations", "name");
}

/** Applies `supabase/migrations/<version>_<name>.sql` files not yet recorded, each in its own transaction. */
export async function applyMigrations(db: Database, dir: string): Promise<string[]> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      statements text[],
      name text
    );`);
  return applyPending(db, dir, "supabase_migrations.schema_migrations", "version");
}

export async function applySeed(db: Database, file: string): Promise<void> {
  const sql = await readFile(file, "utf8");
  await db.transaction((tx) => tx.exec(sql));
}

async function hasMigrationHistory(db: Database): Promise<boolean> {
  const [row] = await db.query<{ exists: boolean }>(
    "select to_regclass('supabase_migrations.schema_migrations') is not null as exists",
  );
  if (!row?.exists) return false;
  const [count] = await db.query<{ n: number }>("select count(*)::int as n from supabase_migrations.schema_migrations");
  return (count?.n ?? 0) > 0;
}

async function applyPending(db: Database, dir: string, table: string, key: "name" | "version"): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => migrationFile.test(f)).sort();
  const done = new Set((await db.query<{ id: string }>(`select ${key} as id from ${table}`)).map((row) => row.id));
  const applied: string[] = [];
  for (const file of files) {
    const [, version = "", name = ""] = migrationFile.exec(file) ?? [];
    const id = key === "version" ? version : file;
    if (done.has(id)) continue;
    const sql = await readFile(join(dir, file), "utf8");
    await db.transaction(async (tx) => {
      try {
        await tx.exec(sql);
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
      }
      if (key === "version") {
        await tx.query(`insert into ${table} (version, name, statements) values ($1, $2, $3)`, [version, name, [sql]]);
      } else {
        await tx.query(`insert into ${table} (name) values ($1)`, [id]);
      }
    });
    applied.push(file);
  }
  return applied;
}
