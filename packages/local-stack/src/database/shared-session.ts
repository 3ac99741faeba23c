/**
 * PGlite is one Postgres session. The stack and every wire-protocol client
 * (psql, migration tools) take turns on it: a turn is one stack call, or a
 * client's messages up to the point where it is idle outside a transaction.
 * Session state (SET, SET ROLE, SET SESSION AUTHORIZATION) a client leaves
 * behind is saved and reset when someone else takes the session, and put back
 * when that client's next turn starts, so neither side sees the other's.
 */
import type { EmbeddedPglite } from "./embedded.js";

/** "stack" for the stack's own calls, a number for a wire-protocol client. */
export type SessionOwner = "stack" | number;

/** Statements that put a client's session settings, role and session user back, built by the server. */
const saveSql = `select coalesce(string_agg(format('select pg_catalog.set_config(%L, %L, false);', name,
           pg_catalog.current_setting(name)), ''), '')
         || case when session_user = (select rolname from pg_catalog.pg_roles where oid = 10) then ''
                 else format('set session authorization %I;', session_user) end
         || case when pg_catalog.current_setting('role') = 'none' then ''
                 else format('set role %I;', pg_catalog.current_setting('role')) end as restore
    from pg_catalog.pg_settings
   where source = 'session' and name not in ('session_authorization', 'role')`;

const resetSql = "set session authorization default; reset all;";

export class SharedSession {
  private tail: Promise<void> = Promise.resolve();
  private owner: SessionOwner = "stack";
  /** Each client's settings while another owner uses the session. */
  private readonly saved = new Map<number, string>();
  private readonly gone = new Set<number>();

  constructor(private readonly pglite: EmbeddedPglite) {}

  /** Waits for the session, switches it to `owner`, and returns the function that hands it on. */
  async acquire(owner: SessionOwner): Promise<() => void> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      await this.switchTo(owner);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** Runs one of the stack's own calls in its own turn. */
  async forStack<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire("stack");
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Forgets a disconnected client: its settings are reset the next time the session changes hands. */
  forget(client: number): void {
    this.saved.delete(client);
    if (this.owner === client) this.gone.add(client);
  }

  private async switchTo(next: SessionOwner): Promise<void> {
    const current = this.owner;
    if (current === next) return;
    if (typeof current === "number") {
      if (this.gone.delete(current)) {
        await this.pglite.exec(resetSql);
      } else {
        const [row] = (await this.pglite.query<{ restore: string }>(saveSql)).rows;
        // A client that changed nothing leaves nothing to save or reset.
        if (row?.restore) {
          this.saved.set(current, row.restore);
          await this.pglite.exec(resetSql);
        }
      }
    }
    if (typeof next === "number") {
      const restore = this.saved.get(next);
      this.saved.delete(next);
      if (restore) await this.pglite.exec(restore);
    }
    this.owner = next;
  }
}
