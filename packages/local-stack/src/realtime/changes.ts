import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { setRequestContext } from "../database/request-context.js";
import type { Database } from "../database/types.js";

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
  /** DELETE statements (0010): the deleting transaction and the kept rows' seq range. */
  txid?: number | string;
  deleted?: [number, number];
}

export type FilterOp = "eq" | "neq" | "lt" | "lte" | "gt" | "gte" | "in";
export interface Filter {
  column: string;
  op: FilterOp;
  values: string[];
}

const OPS = new Set(["eq", "neq", "lt", "lte", "gt", "gte", "in"]);
const SQL_OPS: Record<Exclude<FilterOp, "in">, string> = { eq: "=", neq: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" };

/** Parses Supabase's classic filter `column=op.value` (`in.(a,b)`); throws on anything else. */
export function parseFilter(text: string): Filter {
  const match = /^([^=]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s.exec(text);
  if (!match || !OPS.has(match[2] as string)) throw new Error(`Error parsing \`filter\` params: ${text}`);
  const [, column, op, raw] = match as unknown as [string, string, FilterOp, string];
  if (op !== "in") return { column, op, values: [raw] };
  const inner = /^\((.*)\)$/s.exec(raw);
  if (!inner) throw new Error(`Error parsing \`filter\` params: ${text}`);
  const values = (inner[1] as string).split(",").map((value) => value.trim().replace(/^"(.*)"$/s, "$1"));
  return { column, op, values };
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

export async function syncTriggers(db: Database): Promise<void> {
  await db.query("select realtime.engram_sync_change_triggers(), realtime.engram_sync_delete_triggers()");
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

/**
 * Checks an INSERT/UPDATE for one subscriber: the row must be visible by primary key
 * as the subscriber (role and claims set, so RLS applies, as Supabase's apply_rls does)
 * and the committed record must pass the binding's filter. Returns the record to send,
 * or null. Without the record in the notification, the current row is read instead.
 */
export async function readAs(
  db: Database,
  change: ChangeEvent,
  role: string,
  claims: Record<string, unknown>,
  filter: Filter | null,
): Promise<Record<string, unknown> | null> {
  const key = change.new ?? {};
  const params: unknown[] = [];
  const table = `${quote(change.schema)}.${quote(change.table)}`;
  const keyConditions = Object.entries(key).map(([column, value]) => {
    params.push(value === null ? null : typeof value === "object" ? JSON.stringify(value) : String(value));
    return `t.${quote(column)} = $${params.length}`;
  });
  if (keyConditions.length === 0) return null;
  const filterConditions: string[] = [];
  if (filter) {
    if (filter.op === "in") {
      const placeholders = filter.values.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      filterConditions.push(`t.${quote(filter.column)} in (${placeholders.join(", ")})`);
    } else {
      params.push(filter.values[0]);
      filterConditions.push(`t.${quote(filter.column)} ${SQL_OPS[filter.op]} $${params.length}`);
    }
  }
  let sql: string;
  if (change.record) {
    params.push(JSON.stringify(change.record));
    const recordParam = `$${params.length}::jsonb`;
    const filterSql = filterConditions.length
      ? `and exists (select 1 from jsonb_populate_record(null::${table}, ${recordParam}) t where ${filterConditions.join(" and ")})`
      : "";
    sql = `select ${recordParam} as row where exists (select 1 from ${table} t where ${keyConditions.join(" and ")}) ${filterSql}`;
  } else {
    sql = `select to_jsonb(t) as row from ${table} t where ${[...keyConditions, ...filterConditions].join(" and ")}`;
  }
  return db.transaction(async (tx) => {
    await setRequestContext(tx, { role, claims });
    const rows = await tx.query<{ row: Record<string, unknown> }>(sql, params);
    return rows[0]?.row ?? null;
  });
}

/** Whether a DELETE's old key (all Supabase has without REPLICA IDENTITY FULL) passes a filter. */
export function keyMatches(record: Record<string, unknown>, filter: Filter | null): boolean {
  if (!filter) return true;
  if (!(filter.column in record)) return false;
  const value = record[filter.column];
  const compare = (target: string): number => {
    if (typeof value === "number") return value - Number(target);
    const text = String(value);
    return text < target ? -1 : text > target ? 1 : 0;
  };
  switch (filter.op) {
    case "eq":
      return compare(filter.values[0] as string) === 0;
    case "neq":
      return compare(filter.values[0] as string) !== 0;
    case "lt":
      return compare(filter.values[0] as string) < 0;
    case "lte":
      return compare(filter.values[0] as string) <= 0;
    case "gt":
      return compare(filter.values[0] as string) > 0;
    case "gte":
      return compare(filter.values[0] as string) >= 0;
    case "in":
      return filter.values.some((target) => compare(target) === 0);
  }
}

/** Listens on `engram_realtime`; returns a function that stops listening. */
export async function listenForChanges(
  db: Database,
  onChange: (change: ChangeEvent) => void,
): Promise<() => Promise<void>> {
  const handle = (payload: string) => {
    try {
      onChange(JSON.parse(payload) as ChangeEvent);
    } catch {
      // Not ours or malformed: ignore.
    }
  };
  if (db.kind === "pglite") {
    const pglite = (db as Database & { pglite: PGlite }).pglite;
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
