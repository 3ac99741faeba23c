import { expect, it, vi } from "vitest";
import { stackPerFile } from "../support/stack.js";

// PGlite runs none of a server's background processes; the stack does the
// work of two of them (src/database/background-work.ts).
const running = stackPerFile();

// A table written in bulk gets planner statistics without anyone running
// ANALYZE: on a server autovacuum does it (each minute); the stack does it with
// autovacuum's rule.
it("a table written in bulk is analysed by itself, as autovacuum does on a server", async () => {
  const { db } = running.stack;
  await db.exec(`create table public.bulk_written (id integer primary key, word text);
    insert into public.bulk_written select g, 'word ' || g from generate_series(1, 5000) as g;`);
  const statistics = () =>
    db.query<{ reltuples: number; analysed: boolean }>(
      `select c.reltuples, coalesce(s.last_analyze, s.last_autoanalyze) is not null as analysed
         from pg_class c join pg_stat_user_tables s on s.relid = c.oid
        where c.oid = 'public.bulk_written'::regclass`,
    );
  expect(await statistics()).toEqual([{ reltuples: -1, analysed: false }]);

  await vi.waitFor(
    async () => {
      expect(await statistics()).toEqual([{ reltuples: 5000, analysed: true }]);
    },
    { timeout: 150_000, interval: 250 },
  );
}, 180_000);

// Single-user Postgres (PGlite) has no checkpointer: until the stack
// checkpointed, the WAL kept every write made since the database opened. A
// server's own checkpointer does it there.
it("the WAL is checkpointed by itself once it passes max_wal_size, as a server's checkpointer does", async () => {
  const { db } = running.stack;
  if (process.env.DATABASE_URL) {
    const checkpointers = await db.query("select 1 from pg_stat_activity where backend_type = 'checkpointer'");
    expect(checkpointers).toHaveLength(1);
    return;
  }
  const one = async <Row>(sql: string, params: unknown[] = []) => {
    const [row] = await db.query<Row>(sql, params);
    if (!row) throw new Error(`no row from ${sql}`);
    return row;
  };
  const { max, start } = await one<{ max: string; start: string }>(
    "select pg_size_bytes(current_setting('max_wal_size'))::text as max, pg_current_wal_insert_lsn()::text as start",
  );
  // Three times max_wal_size or more, in one statement (the rounds wait for its end).
  await db.exec(`create table public.wal_written as
    select g as id, repeat(md5(g::text), 16) as filler from generate_series(1, 400000) as g`);
  const { end, written } = await one<{ end: string; written: string }>(
    `select pg_current_wal_insert_lsn()::text as end,
            pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::text as written`,
    [start],
  );
  expect(Number(written)).toBeGreaterThan(3 * Number(max));

  await vi.waitFor(
    async () => {
      const wal = await one<{ checkpointed: boolean; kept: string }>(
        `select redo_lsn >= $1::pg_lsn as checkpointed, (select sum(size) from pg_ls_waldir())::text as kept
           from pg_control_checkpoint()`,
        [end],
      );
      expect(wal.checkpointed).toBe(true);
      // What is left: max_wal_size of recycled segments and the one being written, at most.
      expect(Number(wal.kept)).toBeLessThanOrEqual(Number(max) + 2 * 16 * 1024 * 1024);
    },
    { timeout: 120_000, interval: 250 },
  );
  await db.exec("drop table public.wal_written");
}, 240_000);
