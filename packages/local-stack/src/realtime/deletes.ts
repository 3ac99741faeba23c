/**
 * Who may see a deleted row. Hosted Supabase cannot apply RLS to DELETE events and
 * sends the old key to every subscriber; this stack keeps the old rows (see
 * sql/platform/0010_realtime_delete_visibility.sql) and, in a transaction that is
 * always rolled back, puts the deleting transaction's rows back and selects each
 * one as the subscriber, so the table's SELECT policies decide as they would have
 * just before the delete.
 */
import { setRequestContext } from "../database/request-context.js";
import type { Database, Queryable } from "../database/types.js";
import { type Filter, keyMatches } from "./filters.js";

export interface DeletedRow {
  seq: number;
  /** `schema.table`, each part quoted. */
  table: string;
  schema: string;
  name: string;
  row: Record<string, unknown>;
}

export interface TableShape {
  /** Columns an INSERT may name (generated columns left out). */
  insertable: string[];
  primaryKey: string[];
}

export interface Viewer {
  role: string;
  claims: Record<string, unknown>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The rows one DELETE statement kept (`first`…`last`) and every row its
 * transaction deleted (cascades included), oldest first.
 */
export async function loadDeleted(
  db: Database,
  txid: number | string,
  first: number,
  last: number,
): Promise<{ batch: DeletedRow[]; transaction: DeletedRow[] }> {
  const rows = await db.query<{ seq: string | number; schema: string; name: string; old_row: Record<string, unknown> }>(
    `select d.seq, n.nspname as schema, c.relname as name, d.old_row
       from realtime.engram_deleted_rows d
       join pg_class c on c.oid = d.relid join pg_namespace n on n.oid = c.relnamespace
      where d.txid = $1 order by d.seq`,
    [String(txid)],
  );
  const transaction = rows.map((row) => ({
    seq: Number(row.seq),
    schema: row.schema,
    name: row.name,
    table: `${quote(row.schema)}.${quote(row.name)}`,
    row: row.old_row,
  }));
  return { batch: transaction.filter((row) => row.seq >= first && row.seq <= last), transaction };
}

/** Forgets the kept rows of transactions whose events have all been delivered. */
export async function forgetDeleted(db: Database, txids: Array<number | string>): Promise<void> {
  if (txids.length === 0) return;
  await db.query("delete from realtime.engram_deleted_rows where txid = any($1::bigint[])", [txids.map(String)]);
}

/** Drops rows kept before this server started (their events can no longer arrive). */
export async function clearDeleted(db: Database): Promise<void> {
  await db.query("delete from realtime.engram_deleted_rows");
}

export async function tableShape(db: Database, schema: string, table: string): Promise<TableShape> {
  const rows = await db.query<{ name: string; generated: boolean; key: boolean }>(
    `select a.attname as name, a.attgenerated <> '' as generated,
            exists (select 1 from pg_index i where i.indrelid = a.attrelid and i.indisprimary
                    and a.attnum = any (i.indkey)) as key
       from pg_attribute a
      where a.attrelid = format('%I.%I', $1::text, $2::text)::regclass and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [schema, table],
  );
  return {
    insertable: rows.filter((row) => !row.generated).map((row) => row.name),
    primaryKey: rows.filter((row) => row.key).map((row) => row.name),
  };
}

class Rollback extends Error {}

/**
 * For each viewer, the seqs of `batch` rows it may see. Rows that cannot be put
 * back (a row with the same key exists again) count as seen by nobody.
 */
export async function visibleDeletes(
  db: Database,
  transaction: DeletedRow[],
  batch: DeletedRow[],
  shapes: Map<string, TableShape>,
  viewers: Viewer[],
): Promise<Array<Set<number>>> {
  const seen = viewers.map(() => new Set<number>());
  const byTable = new Map<string, DeletedRow[]>();
  for (const row of transaction) byTable.set(row.table, [...(byTable.get(row.table) ?? []), row]);
  await db
    .transaction(async (tx) => {
      // Superuser only: no triggers and no foreign key checks for rows that are put back.
      await tx.exec("set local session_replication_role = replica");
      const restored = new Set<number>();
      for (const [table, rows] of byTable) {
        const shape = shapes.get(table);
        if (!shape) continue;
        for (const seq of await restore(tx, table, shape, rows)) restored.add(seq);
      }
      const checked = batch.filter((row) => restored.has(row.seq));
      const shape = checked[0] ? shapes.get(checked[0].table) : undefined;
      if (!shape || shape.primaryKey.length === 0) throw new Rollback();
      const table = checked[0]?.table as string;
      const match = shape.primaryKey.map((column) => `t.${quote(column)} = (r.j).${quote(column)}`).join(" and ");
      const sql = `select r.seq from (select seq, jsonb_populate_record(null::${table}, kept) as j
                     from jsonb_to_recordset($1::jsonb) as x(seq bigint, kept jsonb)) r
                   where exists (select 1 from ${table} t where ${match})`;
      const input = JSON.stringify(checked.map((row) => ({ seq: row.seq, kept: row.row })));
      for (const [index, viewer] of viewers.entries()) {
        await tx.exec("savepoint engram_viewer");
        try {
          await setRequestContext(tx, { role: viewer.role, claims: viewer.claims });
          const rows = await tx.query<{ seq: string | number }>(sql, [input]);
          for (const row of rows) seen[index]?.add(Number(row.seq));
        } catch {
          // No SELECT privilege, or a policy failed: the viewer sees none of them.
        }
        await tx.exec("rollback to savepoint engram_viewer");
      }
      throw new Rollback();
    })
    .catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return seen;
}

/** Puts rows back, all at once or else one by one; returns the seqs that went back. */
async function restore(tx: Queryable, table: string, shape: TableShape, rows: DeletedRow[]): Promise<number[]> {
  const columns = shape.insertable.map(quote).join(", ");
  const insert = `insert into ${table} (${columns}) overriding system value
                  select ${columns} from jsonb_populate_recordset(null::${table}, $1::jsonb)`;
  const attempt = async (some: DeletedRow[]) => {
    await tx.exec("savepoint engram_restore");
    try {
      await tx.query(insert, [JSON.stringify(some.map((row) => row.row))]);
      await tx.exec("release savepoint engram_restore");
      return true;
    } catch {
      await tx.exec("rollback to savepoint engram_restore");
      return false;
    }
  };
  if (await attempt(rows)) return rows.map((row) => row.seq);
  const restored: number[] = [];
  if (rows.length > 1) for (const row of rows) if (await attempt([row])) restored.push(row.seq);
  return restored;
}

export interface DeleteListener<C extends Viewer> {
  channel: C;
  binding: { id: number; parsed: Filter };
}

/**
 * What to send for one DELETE statement's rows (`range` of kept seqs): per row and
 * channel that may see it, the matching binding ids and the old primary key, which
 * is all Supabase sends (filters apply to that key, as there).
 */
export async function deleteDeliveries<C extends Viewer>(
  db: Database,
  txid: string,
  range: [number, number],
  listeners: Array<DeleteListener<C>>,
  shapes: Map<string, TableShape>,
): Promise<Array<{ channel: C; ids: number[]; key: Record<string, unknown> }>> {
  const { batch, transaction } = await loadDeleted(db, txid, range[0], range[1]);
  for (const row of transaction) {
    if (!shapes.has(row.table)) shapes.set(row.table, await tableShape(db, row.schema, row.name));
  }
  const channels = [...new Set(listeners.map(({ channel }) => channel))];
  const seen = await visibleDeletes(db, transaction, batch, shapes, channels);
  const deliveries: Array<{ channel: C; ids: number[]; key: Record<string, unknown> }> = [];
  for (const row of batch) {
    const primaryKey = shapes.get(row.table)?.primaryKey ?? [];
    const key = Object.fromEntries(primaryKey.map((column) => [column, row.row[column]]));
    for (const [index, channel] of channels.entries()) {
      if (!seen[index]?.has(row.seq)) continue;
      const ids = listeners
        .filter((listener) => listener.channel === channel && keyMatches(key, listener.binding.parsed))
        .map((listener) => listener.binding.id);
      if (ids.length > 0) deliveries.push({ channel, ids: [...new Set(ids)], key });
    }
  }
  return deliveries;
}
