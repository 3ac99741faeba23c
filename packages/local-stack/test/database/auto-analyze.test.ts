import { expect, it, vi } from "vitest";
import { stackPerFile } from "../support/stack.js";

// A table written in bulk gets planner statistics without anyone running
// ANALYZE: on a server autovacuum does it (each minute); PGlite has no
// autovacuum, so the stack does it with autovacuum's rule.
const running = stackPerFile();

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
