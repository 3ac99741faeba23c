import type pg from "pg";
import type { EmbeddedPglite } from "../database/embedded.js";
import { requestContextStatement, setRequestContext } from "../database/request-context.js";
import type { Database } from "../database/types.js";
import { type Filter, filterSql } from "./filters.js";

/** One `engram_realtime` notification (see sql/platform/0006_realtime_changes.sql). */
export interface ChangeEvent {
  schema: string;
  table: string;
  type: "INSERT" | "UPDATE" | "DELETE";
  ts: string;
  new: Record<string, unknown> | null;
  old: Record<string, unknown> | null;
  /** The new row as committed, when it fit in the notification. */
  record?: Record<string, unknown>;
  /** DELETE statements in strict mode (0010): the deleting transaction and the kept rows' seq range. */
  txid?: number | string;
  deleted?: [number, number];
}

export interface Column {
  name: string;
  type: string;
}

/** Columns (name, pg typname) of a table, as Supabase lists them in `columns`. */
export async function tableColumns(db: Database, schema: string, table: string): Promise<Column[]> {
  return db.query<Column>(
    `select a.attname as name, t.typname as type
       from pg_attribute a join pg_type t on t.oid = a.atttypid
      where a.attrelid = format('%I.%I', $1::text, $2::text)::regclass and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [schema, table],
  );
}

/** Tables in the supabase_realtime publication, as `schema.table`. */
export async function publishedTables(db: Database): Promise<Set<string>> {
  const rows = await db.query<{ name: string }>(
    "select schemaname || '.' || tablename as name from pg_publication_tables where pubname = 'supabase_realtime'",
  );
  return new Set(rows.map((row) => row.name));
}

/**
 * Puts the capture triggers on every published table: INSERT and UPDATE (0006), and
 * DELETE (0010) keeping the old rows in strict mode, else notifying their keys.
 */
export async function syncTriggers(db: Database, strict: boolean): Promise<void> {
  await db.query("select realtime.engram_sync_change_triggers(), realtime.engram_sync_delete_triggers($1)", [strict]);
}

/**
 * The columns of a table a role may SELECT, as Realtime's apply_rls reads them
 * (`has_column_privilege`): what it may be sent of a row.
 */
export async function selectableColumns(
  db: Database,
  role: string,
  schema: string,
  table: string,
): Promise<Set<string>> {
  const rows = await db.query<{ name: string }>(
    `select a.attname as name from pg_attribute a
      where a.attrelid = format('%I.%I', $2::text, $3::text)::regclass and a.attnum > 0 and not a.attisdropped
        and exists (select 1 from pg_roles where rolname = $1)
        and has_column_privilege($1, a.attrelid, a.attnum, 'SELECT')`,
    [role, schema, table],
  );
  return new Set(rows.map((row) => row.name));
}

/**
 * Whether a role may SELECT from a table (false for a role that does not exist);
 * null when there is no such table, which the publication check reports instead.
 */
export async function canSelect(db: Database, role: string, schema: string, table: string): Promise<boolean | null> {
  const [row] = await db.query<{ allowed: boolean | null }>(
    `select case when to_regclass(format('%I.%I', $2::text, $3::text)) is null then null
                 when not exists (select 1 from pg_roles where rolname = $1) then false
                 else has_table_privilege($1, format('%I.%I', $2::text, $3::text), 'SELECT') end as allowed`,
    [role, schema, table],
  );
  return row?.allowed ?? null;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What one identity may see of a change: the record, and which of the given filters it passes. */
export interface Visible {
  record: Record<string, unknown>;
  matches: boolean[];
}

/**
 * Checks an INSERT/UPDATE for one identity (role and claims, so RLS applies, as
 * Supabase's apply_rls does) in one round trip: the row must be visible by primary
 * key, and each filter is evaluated on the committed record. Null when the row is
 * not visible. Without the record in the notification, the current row is read.
 */
export async function visibleTo(
  db: Database,
  change: ChangeEvent,
  role: string,
  claims: Record<string, unknown>,
  filters: Filter[],
): Promise<Visible | null> {
  const params: unknown[] = [];
  const table = `${quote(change.schema)}.${quote(change.table)}`;
  const keyConditions = (alias: string) =>
    Object.entries(change.new ?? {}).map(([column, value]) => {
      params.push(value === null ? null : typeof value === "object" ? JSON.stringify(value) : String(value));
      return `${alias}.${quote(column)} = $${params.length}`;
    });
  let sql: string;
  if (change.record) {
    const keys = keyConditions("k");
    if (keys.length === 0) return null;
    const matches = filters.map((filter) => `(${filterSql(filter, "t", params)})`);
    params.push(JSON.stringify(change.record));
    const record = `$${params.length}::jsonb`;
    sql = `select ${record} as row, array[${matches.join(", ")}]::boolean[] as matches
             from jsonb_populate_record(null::${table}, ${record}) t
            where exists (select 1 from ${table} k where ${keys.join(" and ")})`;
  } else {
    const keys = keyConditions("t");
    if (keys.length === 0) return null;
    const matches = filters.map((filter) => `(${filterSql(filter, "t", params)})`);
    sql = `select to_jsonb(t) as row, array[${matches.join(", ")}]::boolean[] as matches
             from ${table} t where ${keys.join(" and ")}`;
  }
  const rows = await db.batch<{ row: Record<string, unknown>; matches: boolean[] }>(
    [requestContextStatement({ role, claims }), { text: sql, params }],
    { rollback: true },
  );
  const [row] = rows;
  return row ? { record: row.row, matches: row.matches } : null;
}

/** Listens on `engram_realtime`; returns a function that stops listening. */
export async function listenForChanges(
  db: Database,
  onChange: (change: ChangeEvent) => void,
): Promise<() => Promise<void>> {
  const handle = (payload: string) => {
    let message: ChangeEvent & { rows?: Array<Partial<Pick<ChangeEvent, "new" | "old" | "record">>> };
    try {
      message = JSON.parse(payload);
    } catch {
      return; // Not ours or malformed: ignore.
    }
    // Statements (0006, and 0010's keys of deleted rows) notify their rows together: one change each.
    if (!Array.isArray(message.rows)) return onChange(message);
    const { rows, ...statement } = message;
    for (const row of rows) {
      const change: ChangeEvent = { ...statement, new: row.new ?? null, old: row.old ?? null };
      if (row.record) change.record = row.record;
      onChange(change);
    }
  };
  if (db.kind === "pglite") {
    const pglite = (db as Database & { pglite: EmbeddedPglite }).pglite;
    const unlisten = await pglite.listen("engram_realtime", handle);
    return async () => {
      await unlisten().catch(() => undefined);
    };
  }
  const pool = (db as Database & { pool: pg.Pool }).pool;
  const client = await pool.connect();
  client.on("notification", (message) => {
    if (message.channel === "engram_realtime" && message.payload) handle(message.payload);
  });
  client.on("error", () => undefined);
  await client.query("listen engram_realtime");
  return async () => {
    await client.query("unlisten engram_realtime").catch(() => undefined);
    client.release(true);
  };
}

export interface Permissions {
  readBroadcast: boolean;
  readPresence: boolean;
  writeBroadcast: boolean;
  writePresence: boolean;
}

export const ALL_PERMISSIONS: Permissions = {
  readBroadcast: true,
  readPresence: true,
  writeBroadcast: true,
  writePresence: true,
};

class Rollback extends Error {}

/**
 * Private channel authorisation as Supabase Realtime does it: in a rolled-back
 * transaction, rows for the topic are inserted as the owner and read back as the
 * user (SELECT policies = may receive), then inserted as the user (INSERT policies
 * = may send), with `realtime.topic()` returning the sub-topic.
 */
export async function channelPermissions(
  db: Database,
  subTopic: string,
  role: string,
  claims: Record<string, unknown>,
): Promise<Permissions> {
  let result: Permissions | null = null;
  await db
    .transaction(async (tx) => {
      const inserted = await tx.query<{ id: string; extension: string }>(
        `insert into realtime.messages (topic, extension, private, payload, event)
         values ($1, 'broadcast', true, '{}', 'authorization_check'), ($1, 'presence', true, '{}', 'authorization_check')
         returning id::text as id, extension`,
        [subTopic],
      );
      await setRequestContext(tx, { role, claims });
      await tx.query("select set_config('realtime.topic', $1, true)", [subTopic]);
      const readable = await tx.query<{ extension: string }>(
        "select extension from realtime.messages where id::text = any($1::text[])",
        [inserted.map((row) => row.id)],
      );
      const canWrite = async (extension: string) => {
        await tx.exec("savepoint engram_realtime_write");
        try {
          await tx.query(
            "insert into realtime.messages (topic, extension, private, payload, event) values ($1, $2, true, '{}', 'authorization_check')",
            [subTopic, extension],
          );
          await tx.exec("release savepoint engram_realtime_write");
          return true;
        } catch {
          await tx.exec("rollback to savepoint engram_realtime_write");
          return false;
        }
      };
      result = {
        readBroadcast: readable.some((row) => row.extension === "broadcast"),
        readPresence: readable.some((row) => row.extension === "presence"),
        writeBroadcast: await canWrite("broadcast"),
        writePresence: await canWrite("presence"),
      };
      throw new Rollback();
    })
    .catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return result ?? { readBroadcast: false, readPresence: false, writeBroadcast: false, writePresence: false };
}
