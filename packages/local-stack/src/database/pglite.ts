import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { EmbeddedPglite } from "./embedded.js";
import { applyPlatformScripts, platformScriptsKey } from "./migrate.js";
import { readTemplate, saveTemplate, type TemplateKind, unpackTemplate } from "./pglite-template.js";
import { PgliteThread } from "./pglite-thread.js";
import { SharedSession } from "./shared-session.js";
import type { Database, Queryable } from "./types.js";

export interface PgliteOptions {
  /** Directory to persist to; in memory when absent. */
  dataDir?: string;
  /** A data directory tarball (from `dumpDataDir`) to start from. */
  loadDataDir?: Blob;
  /** A new database gets the platform scripts (from a kept copy when there is one), as a stack's needs. */
  withPlatform?: boolean;
  /**
   * Runs the database on a worker thread, so a long statement does not hold
   * this thread's event loop (a server's). Each call then crosses threads.
   */
  worker?: boolean;
}

/** Opens embedded Postgres with the extensions Supabase preinstalls, and pg_trgm, which it offers. */
export async function openPglite(options: PgliteOptions = {}): Promise<PgliteDatabase> {
  const isNew = !options.loadDataDir && !(options.dataDir && existsSync(join(options.dataDir, "PG_VERSION")));
  const withPlatform: TemplateKind | null =
    isNew && options.withPlatform ? `platform-${(await platformScriptsKey()).slice(0, 16)}` : null;
  // A new database starts from the kept state after the platform scripts, else after initdb: on
  // disk unpacked into its directory before PGlite opens it, in memory loaded by PGlite.
  let loadDataDir = options.loadDataDir;
  let template: TemplateKind | null = null;
  for (const kind of isNew ? [withPlatform, "initdb" as const] : []) {
    if (!kind) continue;
    if (options.dataDir) {
      if (await unpackTemplate(kind, options.dataDir)) template = kind;
    } else {
      loadDataDir = (await readTemplate(kind)) ?? undefined;
      if (loadDataDir) template = kind;
    }
    if (template) break;
  }
  const engineOptions = {
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
  };
  // PGlite itself is loaded only on this thread's side: on a worker, this thread never needs it.
  const pglite: EmbeddedPglite = options.worker
    ? await PgliteThread.start(engineOptions)
    : await (await import("./pglite-engine.mjs")).createPglite(engineOptions);
  if (isNew && !template) await saveTemplate(pglite);
  const db = wrapPglite(pglite);
  if (withPlatform && template !== withPlatform) {
    await applyPlatformScripts(db);
    await saveTemplate(pglite, withPlatform);
  }
  return db;
}

/**
 * A stack's embedded database, on a worker thread: at `<dataDir>/db`, or in
 * memory when dataDir is null. It needs none of the stack's other code, so the
 * CLI starts it before loading that.
 */
export async function openStackPglite(dataDir: string | null): Promise<PgliteDatabase> {
  // The first start in a project makes its data directory here: nothing else has yet.
  if (dataDir) await mkdir(dataDir, { recursive: true });
  return openPglite({ withPlatform: true, worker: true, ...(dataDir ? { dataDir: join(dataDir, "db") } : {}) });
}

function queryable(target: Pick<EmbeddedPglite, "query" | "exec">): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(sql, params as unknown[]);
      return result.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  };
}

/** Thrown to roll a transaction back while still returning its rows. */
class Rollback {
  constructor(readonly rows: never[]) {}
}

export interface PgliteDatabase extends Database {
  pglite: EmbeddedPglite;
  /** The one session the stack shares with wire-protocol clients; every call here takes a turn on it. */
  session: SharedSession;
}

export function wrapPglite(pglite: EmbeddedPglite): PgliteDatabase {
  const session = new SharedSession(pglite);
  const direct = queryable(pglite);
  return {
    kind: "pglite",
    pglite,
    session,
    query: (sql, params) => session.forStack(() => direct.query(sql, params)),
    exec: (sql) => session.forStack(() => direct.exec(sql)),
    transaction: (fn) => session.forStack(() => pglite.transaction((tx) => fn(queryable(tx)))),
    async batch(statements, options = {}) {
      try {
        return await session.forStack(() =>
          pglite.transaction(async (tx) => {
            let rows: never[] = [];
            for (const statement of statements) {
              rows = (await tx.query<never>(statement.text, statement.params as unknown[])).rows;
            }
            options.check?.(rows);
            if (options.rollback) throw new Rollback(rows);
            return rows;
          }),
        );
      } catch (error) {
        if (error instanceof Rollback) return error.rows;
        throw error;
      }
    },
    close: () => session.forStack(() => pglite.close()),
  };
}
