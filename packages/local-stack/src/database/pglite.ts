import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { uuid_ossp } from "@electric-sql/pglite/contrib/uuid_ossp";
import type { Database, Queryable } from "./types.js";

export interface PgliteOptions {
  /** Directory to persist to; in memory when absent. */
  dataDir?: string;
  /** A data directory tarball (from `dumpDataDir`) to start from. */
  loadDataDir?: Blob;
}

/** Opens embedded Postgres with the extensions Supabase preinstalls. */
export async function openPglite(options: PgliteOptions = {}): Promise<Database & { pglite: PGlite }> {
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pgcrypto, uuid_ossp },
  });
  return wrapPglite(pglite);
}

function queryable(target: Pick<PGlite, "query" | "exec">): Queryable {
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

export function wrapPglite(pglite: PGlite): Database & { pglite: PGlite } {
  return {
    kind: "pglite",
    pglite,
    ...queryable(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(queryable(tx))),
    async batch(statements, options = {}) {
      try {
        return await pglite.transaction(async (tx) => {
          let rows: never[] = [];
          for (const statement of statements) {
            rows = (await tx.query<never>(statement.text, statement.params as unknown[])).rows;
          }
          options.check?.(rows);
          if (options.rollback) throw new Rollback(rows);
          return rows;
        });
      } catch (error) {
        if (error instanceof Rollback) return error.rows;
        throw error;
      }
    },
    close: () => pglite.close(),
  };
}
