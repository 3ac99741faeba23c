import pg from "pg";
import { pipeline } from "./pipeline.js";
import type { Database, Queryable } from "./types.js";

// Postgres types the API returns as JSON numbers or strings as PostgREST does:
// int8 and numeric stay strings only where precision could be lost.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
});

export interface PostgresOptions {
  connectionString: string;
  /** Connections in the pool; the local stack is a development server. */
  max?: number;
}

/** Opens a pool on any PostgreSQL server. */
export function openPostgres(options: PostgresOptions): Database & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10 });
  // An idle client's connection error (the server terminating it, e.g. `drop database … with
  // (force)` right after pool.end() resolved) is emitted on the pool; unhandled, it would crash
  // the process. The pool drops that client itself; query errors still reach their callers.
  pool.on("error", () => undefined);
  const onClient = (client: pg.PoolClient): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  return {
    kind: "postgres",
    pool,
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pool.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const value = await fn(onClient(client));
        await client.query("commit");
        return value;
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async batch(statements, options = {}) {
      const client = await pool.connect();
      const end = options.rollback ? "rollback" : "commit";
      try {
        // Without a check the end is known up front and travels with the rest.
        const sent = [{ text: "begin" }, ...statements, ...(options.check ? [] : [{ text: end }])];
        const rows = (await pipeline(client, sent, statements.length)) as never[];
        if (options.check) {
          options.check(rows);
          await client.query(end);
        }
        return rows;
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
