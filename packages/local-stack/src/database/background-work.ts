/**
 * PGlite runs Postgres in single-user mode: none of a server's background
 * processes run, so the stack does two of their jobs, every few seconds, each
 * statement in a turn of its own on the shared session (a request waits at
 * most for one of them).
 *
 * Autovacuum's analyse: without it a table written in bulk keeps the planner's
 * first guesses (a never-analysed table is planned as if it were tiny, and a
 * search right after a 10,000-note import takes seconds instead of
 * milliseconds). Its rule: a table changed by more than 50 rows + 10 % of its
 * size since it was last analysed is analysed again (the platform looks every
 * minute).
 *
 * The checkpointer: without it nothing checkpoints until the database closes,
 * so the WAL keeps every write made since it opened (400 MB for two
 * 10,000-note imports, in memory or in `.engram/db`, and a crash replays all of
 * it). As a server's checkpointer does, the stack checkpoints once the WAL
 * written since the last checkpoint passes `max_wal_size`; the segments before
 * it are then recycled or removed.
 */
import type { Queryable } from "./types.js";

/** Tables past autovacuum's analyse threshold (autovacuum_analyze_threshold 50, scale factor 0.1). */
const analyseDueSql = `select format('%I.%I', s.schemaname, s.relname) as name
    from pg_catalog.pg_stat_user_tables s
    join pg_catalog.pg_class c on c.oid = s.relid
   where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
   order by s.n_mod_since_analyze desc`;

/** Whether the WAL since the last checkpoint's redo point has passed max_wal_size. */
const checkpointDueSql = `select pg_catalog.pg_current_wal_insert_lsn() - redo_lsn
         > pg_catalog.pg_size_bytes(pg_catalog.current_setting('max_wal_size')) as due
    from pg_catalog.pg_control_checkpoint()`;

export interface BackgroundWork {
  /** Stops looking, after the round in progress (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * A round every 5 s; the platform's autovacuum looks every minute, but a search
 * right after an import should not wait that long for its statistics.
 */
const roundEveryMs = 5_000;

export function startBackgroundWork(db: Queryable): BackgroundWork {
  let running: Promise<void> | null = null;
  let stopped = false;

  const round = async () => {
    for (const { name } of await db.query<{ name: string }>(analyseDueSql)) {
      if (stopped) return;
      await db.exec(`analyze ${name}`);
    }
    const [checkpoint] = await db.query<{ due: boolean }>(checkpointDueSql);
    if (checkpoint?.due && !stopped) await db.exec("checkpoint");
  };

  const timer = setInterval(() => {
    // A closed database or a table dropped meanwhile: the next round looks again.
    running ??= round()
      .catch(() => undefined)
      .finally(() => {
        running = null;
      });
  }, roundEveryMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
