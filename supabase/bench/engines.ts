import { randomBytes } from "node:crypto";
import { type Database, openPglite, openPostgres, prepareDatabase } from "@engram/local-stack";
import type { EngineKind } from "./config.js";

export const supabaseDir = new URL("../", import.meta.url).pathname;

/** A fresh database with the platform and all migrations (no seed). */
export interface Engine {
  kind: EngineKind;
  label: string;
  db: Database;
  /** Closes the connection and drops what was created. */
  dispose(): Promise<void>;
}

export type EngineChoice = { kind: EngineKind; open: () => Promise<Engine> } | { kind: EngineKind; skipped: string };

/**
 * PGlite always; PostgreSQL when DATABASE_URL or BENCH_DATABASE_URL names a
 * server. BENCH_ENGINES (e.g. `postgres`) keeps only the engines it lists.
 */
export function chooseEngines(env: NodeJS.ProcessEnv = process.env): EngineChoice[] {
  const url = env.DATABASE_URL || env.BENCH_DATABASE_URL;
  const only = env.BENCH_ENGINES?.split(",").map((name) => name.trim());
  const choices: EngineChoice[] = [
    { kind: "pglite", open: openPgliteEngine },
    url
      ? { kind: "postgres", open: () => openPostgresEngine(url) }
      : {
          kind: "postgres",
          skipped:
            "neither DATABASE_URL nor BENCH_DATABASE_URL is set (e.g. BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres)",
        },
  ];
  return only ? choices.filter((choice) => only.includes(choice.kind)) : choices;
}

async function openPgliteEngine(): Promise<Engine> {
  const db = await openPglite();
  await prepareDatabase(db, { supabaseDir, seed: false });
  const [row] = await db.query<{ version: string }>("select current_setting('server_version') as version");
  return { kind: "pglite", label: `PGlite ${row?.version ?? "?"} (in memory)`, db, dispose: () => db.close() };
}

async function openPostgresEngine(url: string): Promise<Engine> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  const admin = openPostgres({ connectionString: url, max: 1 });
  await admin.exec(`create database ${name}`);
  const dropDatabase = async () => {
    await admin.exec(`drop database if exists ${name} with (force)`);
    await admin.close();
  };
  try {
    // One connection: every call runs on the same session, as a pooled PostgREST connection would.
    const db = openPostgres({ connectionString: withDatabase(url, name), max: 1 });
    await prepareDatabase(db, { supabaseDir, seed: false });
    const [row] = await db.query<{ version: string }>("select current_setting('server_version') as version");
    const host = new URL(url).host;
    return {
      kind: "postgres",
      label: `PostgreSQL ${row?.version ?? "?"} (${host}, database ${name})`,
      db,
      async dispose() {
        await db.close();
        // BENCH_KEEP_DATABASE=1 leaves it for looking into plans (drop it after).
        if (process.env.BENCH_KEEP_DATABASE === "1") {
          console.log(`  (kept database ${name})`);
          await admin.close();
        } else {
          await dropDatabase();
        }
      },
    };
  } catch (error) {
    await dropDatabase();
    throw error;
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
