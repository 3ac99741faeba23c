import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { platformSqlDir } from "../paths.js";
import type { Database, Queryable } from "./types.js";

const migrationFile = /^(\d+)_(.*)\.sql$/;

export interface PlatformOptions {
  /**
   * Whether tables, sequences and functions that migrations create in `public`
   * are granted to anon, authenticated and service_role by default, as on
   * projects created before Supabase stopped doing so. New hosted projects do
   * not: there a migration must grant what the API may use. Default: true.
   */
  exposeNewTables?: boolean;
  /** Where the platform scripts are; default: this package's `sql/platform/`. */
  platformDir?: string;
}

export interface PrepareOptions extends PlatformOptions {
  /** The project's `supabase/` folder. */
  supabaseDir: string;
  /** Run `seed.sql` (default: only when this call applied the first migration). */
  seed?: boolean | "first-run";
  /** Where warnings go (a missing seed.sql); default: console.warn. */
  log?: (line: string) => void;
}

export interface PrepareResult {
  platform: string[];
  migrations: string[];
  seeded: boolean;
}

/** Platform objects, then pending migrations, then the seed, as `supabase start` does. */
export async function prepareDatabase(db: Database, options: PrepareOptions): Promise<PrepareResult> {
  const platform = await applyPlatform(db, options);
  const firstRun = !(await hasMigrationHistory(db));
  const migrations = await applyMigrations(db, join(options.supabaseDir, "migrations"));
  const seedMode = options.seed ?? "first-run";
  const wantSeed = seedMode === true || (seedMode === "first-run" && firstRun);
  const seeded = wantSeed && (await applySeed(db, join(options.supabaseDir, "seed.sql"), options.log));
  return { platform, migrations, seeded };
}

/**
 * Applies the platform scripts (roles, auth, storage, realtime) that are new or
 * changed since they were last applied (each is idempotent), then sets whether
 * new objects in `public` are exposed to the API roles. When neither the
 * scripts nor that choice changed, one query finds so and nothing runs.
 */
export async function applyPlatform(db: Database, options: PlatformOptions = {}): Promise<string[]> {
  const files = await readPlatformFiles(options.platformDir ?? platformSqlDir);
  const change = options.exposeNewTables === false ? "revoke all on %s from" : "grant all on %s to";
  const fingerprint = sha256([filesKey(files), change].join("\n"));
  if ((await appliedFingerprint(db)) === fingerprint) return [];

  const applied = await applyPlatformScripts(db, files);
  const role = await migrationRole(db);
  await db.exec(
    ["tables", "sequences", "functions"]
      .map(
        (kind) =>
          `alter default privileges for role ${role} in schema public ${change.replace("%s", kind)} anon, authenticated, service_role;`,
      )
      .join("\n"),
  );
  await db.exec(`comment on schema _local_stack is 'platform ${fingerprint}'`);
  return applied;
}

/** Names this package's platform scripts as they are now: equal keys, equal databases after applying them. */
export async function platformScriptsKey(): Promise<string> {
  return sha256(filesKey(await readPlatformFiles(platformSqlDir)));
}

/** Runs the platform scripts not yet applied in their current text, each in its own transaction. */
export async function applyPlatformScripts(db: Database, files?: PlatformFile[]): Promise<string[]> {
  const scripts = files ?? (await readPlatformFiles(platformSqlDir));
  await db.exec(`
    create schema if not exists _local_stack;
    create table if not exists _local_stack.platform_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    );
    alter table _local_stack.platform_migrations add column if not exists hash text;`);
  const done = new Map(
    (
      await db.query<{ name: string; hash: string | null }>("select name, hash from _local_stack.platform_migrations")
    ).map((row) => [row.name, row.hash]),
  );
  const applied: string[] = [];
  for (const file of scripts) {
    if (done.get(file.name) === file.hash) continue;
    await db.transaction(async (tx) => {
      try {
        await tx.exec(file.sql);
      } catch (error) {
        throw new Error(`${file.name}: ${(error as Error).message}`, { cause: error });
      }
      await tx.query(
        `insert into _local_stack.platform_migrations (name, hash) values ($1, $2)
         on conflict (name) do update set hash = excluded.hash, applied_at = now()`,
        [file.name, file.hash],
      );
    });
    applied.push(file.name);
  }
  return applied;
}

const filesKey = (files: PlatformFile[]) => files.map((file) => `${file.name} ${file.hash}`).join("\n");

interface PlatformFile {
  name: string;
  sql: string;
  hash: string;
}

async function readPlatformFiles(dir: string): Promise<PlatformFile[]> {
  const names = (await readdir(dir)).filter((name) => migrationFile.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name), "utf8");
      return { name, sql, hash: sha256(sql) };
    }),
  );
}

/** What the last `applyPlatform` left in the schema's comment; null on a new database. */
async function appliedFingerprint(db: Queryable): Promise<string | null> {
  const [row] = await db.query<{ comment: string | null }>(
    `select pg_catalog.obj_description(oid, 'pg_namespace') as comment
       from pg_catalog.pg_namespace where nspname = '_local_stack'`,
  );
  return row?.comment?.startsWith("platform ") ? row.comment.slice("platform ".length) : null;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The role migrations and the seed run as: `postgres`, not a superuser, as on
 * the platform (`platform_postgres` where postgres is the cluster's bootstrap
 * superuser, which cannot be demoted: PGlite's only user).
 */
export async function migrationRole(db: Queryable): Promise<string> {
  const [row] = await db.query<{ role: string }>("select _local_stack.migration_role() as role");
  if (!row) throw new Error("the platform scripts have not been applied");
  return row.role;
}

/**
 * Applies `supabase/migrations/<version>_<name>.sql` files not yet recorded, each
 * in its own transaction as the CLI runs them: settings reset, as `postgres`.
 */
export async function applyMigrations(db: Database, dir: string): Promise<string[]> {
  // Created once: DDL at every start, even a no-op, costs a tenth of a second on PGlite.
  if (!(await hasHistoryTable(db))) {
    await db.exec(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key,
        statements text[],
        name text
      );`);
  }
  return applyPending(db, dir);
}

/**
 * Runs `seed.sql` as the migrations run and records it in
 * `supabase_migrations.seed_files`. A missing file is a warning, as in the CLI.
 */
export async function applySeed(
  db: Database,
  file: string,
  log: (line: string) => void = console.warn,
): Promise<boolean> {
  let sql: string;
  try {
    sql = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    log(`WARN: no seed file found at ${file}; the database is not seeded.`);
    return false;
  }
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.seed_files (path text primary key, hash text not null);`);
  await db.transaction(async (tx) => {
    await runAsMigrationRole(tx, "seed.sql", sql);
    await tx.query(
      `insert into supabase_migrations.seed_files (path, hash) values ($1, $2)
       on conflict (path) do update set hash = excluded.hash`,
      ["supabase/seed.sql", sha256(sql)],
    );
  });
  return true;
}

/** Runs one file's SQL the way the CLI does, in the caller's transaction; back to the stack's own role after. */
async function runAsMigrationRole(tx: Queryable, file: string, sql: string): Promise<void> {
  const role = await migrationRole(tx);
  await tx.exec(`reset all; set local role ${role}; set local search_path = "$user", public, extensions;`);
  try {
    await tx.exec(sql);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  await tx.exec("reset role; reset search_path;");
}

/** The folder's migration files; a project without the folder has none, as the CLI treats it. */
async function migrationFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => migrationFile.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function hasHistoryTable(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ exists: boolean }>(
    "select to_regclass('supabase_migrations.schema_migrations') is not null as exists",
  );
  return row?.exists ?? false;
}

async function hasMigrationHistory(db: Database): Promise<boolean> {
  if (!(await hasHistoryTable(db))) return false;
  const [count] = await db.query<{ n: number }>("select count(*)::int as n from supabase_migrations.schema_migrations");
  return (count?.n ?? 0) > 0;
}

async function applyPending(db: Database, dir: string): Promise<string[]> {
  const files = (await migrationFiles(dir)).sort();
  const done = new Set(
    (await db.query<{ version: string }>("select version from supabase_migrations.schema_migrations")).map(
      (row) => row.version,
    ),
  );
  const applied: string[] = [];
  for (const file of files) {
    const [, version = "", name = ""] = migrationFile.exec(file) ?? [];
    if (done.has(version)) continue;
    const sql = await readFile(join(dir, file), "utf8");
    await db.transaction(async (tx) => {
      await runAsMigrationRole(tx, file, sql);
      await tx.query(
        "insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)",
        [version, name, [sql]],
      );
    });
    applied.push(file);
  }
  return applied;
}
