/**
 * PGlite runs no autovacuum, so a table written in bulk keeps the planner's
 * first guesses: a never-analysed table is planned as if it were tiny, and a
 * search right after a 10,000-note import takes seconds instead of
 * milliseconds. The stack does what autovacuum's analyse does on a server,
 * with the same rule: a table changed by more than 50 rows + 10 % of its size
 * since it was last analysed is analysed again. It looks every few seconds
 * (the platform's autovacuum every minute), in a turn of its own on the shared
 * session, so a request waits at most for one table's ANALYZE.
 */
import type { Queryable } from "./types.js";

/** Tables past autovacuum's analyse threshold (autovacuum_analyze_threshold 50, scale factor 0.1). */
const dueSql = `select format('%I.%I', s.schemaname, s.relname) as name
    from pg_catalog.pg_stat_user_tables s
    join pg_catalog.pg_class c on c.oid = s.relid
   where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
   order by s.n_mod_since_analyze desc`;

export interface AutoAnalyze {
  /** Stops looking, after the round in progress (if any) has ended. */
  stop(): Promise<void>;
}

export function startAutoAnalyze(db: Queryable, options: { intervalMs?: number } = {}): AutoAnalyze {
  let running: Promise<void> | null = null;
  let stopped = false;

  const analyseDue = async () => {
    for (const { name } of await db.query<{ name: string }>(dueSql)) {
      if (stopped) return;
      // One statement per table, so other requests get their turns in between.
      await db.exec(`analyze ${name}`);
    }
  };

  const timer = setInterval(() => {
    // A closed database or a table dropped meanwhile: the next round looks again.
    running ??= analyseDue()
      .catch(() => undefined)
      .finally(() => {
        running = null;
      });
  }, options.intervalMs ?? 5_000);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
