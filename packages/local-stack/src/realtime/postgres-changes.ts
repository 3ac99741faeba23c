import { createHash } from "node:crypto";
import type { Stack } from "../stack.js";
import {
  type ChangeEvent,
  type Column,
  canSelect,
  listenForChanges,
  parseFilter,
  publishedTables,
  readAs,
  syncTriggers,
  tableColumns,
} from "./changes.js";
import { type Binding, type Channel, isObject, type Payload, push, subTopicOf } from "./channel.js";
import { clearDeleted, deleteDeliveries, forgetDeleted, type TableShape } from "./deletes.js";

export type PostgresChanges = ReturnType<typeof createPostgresChanges>;

/**
 * The `postgres_changes` extension: captures committed changes (changes.ts) and
 * delivers each, in commit order, to the bindings that listen and may read it.
 */
export function createPostgresChanges(
  stack: Stack,
  options: {
    /** Every joined channel. */
    channels: () => Iterable<Channel>;
    /** Called for every committed change, before it is delivered. */
    onCommit: () => void;
  },
) {
  let closed = false;
  let stopListening: (() => Promise<void>) | null = null;
  // Changes are delivered one at a time, in commit order.
  let queue: Promise<void> = Promise.resolve();
  const columnCache = new Map<string, Column[]>();
  const shapeCache = new Map<string, TableShape>();
  /** The last transaction whose deleted rows were looked at; its kept rows go once another one's arrive. */
  let lastDeleteTxid: string | null = null;

  const listening = (async () => {
    await syncTriggers(stack.db);
    await clearDeleted(stack.db);
    stopListening = await listenForChanges(stack.db, (change) => {
      options.onCommit();
      queue = queue.then(() => deliverChange(change)).catch((error) => stack.log(`realtime: ${String(error)}`));
    });
  })().catch((error) => stack.log(`realtime: change capture unavailable: ${String(error)}`));

  /** Waits until changes are captured, with triggers on every published table. */
  async function capturing() {
    await listening;
    await syncTriggers(stack.db);
  }

  /**
   * A join's `postgres_changes` config as bindings, or the join error Realtime
   * gives when the role may not read a named table.
   */
  async function bindingsOf(raw: unknown, role: string): Promise<Binding[] | { error: string }> {
    const rawBindings = Array.isArray(raw) ? raw : [];
    const bindings: Binding[] = [];
    for (const entry of rawBindings) {
      if (!isObject(entry) || typeof entry.event !== "string" || typeof entry.schema !== "string") {
        return { error: "Invalid postgres_changes binding" };
      }
      const binding: Binding = {
        event: entry.event,
        schema: entry.schema,
        id: bindingId(entry),
        parsed: null,
        active: true,
      };
      if (typeof entry.table === "string") binding.table = entry.table;
      if (typeof entry.filter === "string") binding.filter = entry.filter;
      bindings.push(binding);
      // Realtime refuses changes of a table the role may not read; wildcard bindings
      // are checked per change instead (the read as the subscriber fails).
      if (binding.table && binding.table !== "*" && binding.schema !== "*") {
        if ((await canSelect(stack.db, role, binding.schema, binding.table)) === false) {
          return {
            error: `Unauthorized: You do not have permissions to read from this table: ${binding.schema}.${binding.table}`,
          };
        }
      }
    }
    return bindings;
  }

  /** Validates the bindings against the publication and reports as Realtime's `system` message. */
  async function subscribe(channel: Channel) {
    const channelName = subTopicOf(channel.topic);
    try {
      await capturing();
      columnCache.clear();
      shapeCache.clear();
      const published = await publishedTables(stack.db);
      const errors: string[] = [];
      for (const binding of channel.bindings) {
        try {
          if (!["*", "INSERT", "UPDATE", "DELETE"].includes(binding.event))
            throw new Error(`invalid event ${binding.event}`);
          binding.parsed = binding.filter ? parseFilter(binding.filter) : null;
          const table = binding.table && binding.table !== "*" ? binding.table : null;
          if (binding.parsed && !table) throw new Error("a filter needs a table");
          const matching = [...published].filter((name) => {
            const [schema, rel] = name.split(".") as [string, string];
            return (binding.schema === "*" || binding.schema === schema) && (!table || table === rel);
          });
          if (matching.length === 0) {
            throw new Error(
              `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [event: ${binding.event}, schema: ${binding.schema}, table: ${binding.table ?? "*"}, filters: ${binding.filter ? `[${binding.filter}]` : "[]"}]`,
            );
          }
          if (binding.parsed && table) {
            const columns = await tableColumns(stack.db, binding.schema, table);
            if (!columns.some((column) => column.name === binding.parsed?.column)) {
              throw new Error(`Error parsing \`filter\` params: unknown column ${binding.parsed.column}`);
            }
          }
        } catch (error) {
          binding.active = false;
          errors.push(error instanceof Error ? error.message : String(error));
        }
      }
      if (errors.length > 0) {
        push(channel, "system", {
          extension: "postgres_changes",
          status: "error",
          message: errors.join("; "),
          channel: channelName,
        });
      } else {
        push(channel, "system", {
          extension: "postgres_changes",
          status: "ok",
          message: "Subscribed to PostgreSQL",
          channel: channelName,
        });
      }
    } catch (error) {
      for (const binding of channel.bindings) binding.active = false;
      push(channel, "system", {
        extension: "postgres_changes",
        status: "error",
        message: String(error),
        channel: channelName,
      });
    }
  }

  /** Channels and bindings that listen for this change (before any RLS check). */
  function listenersOf(change: ChangeEvent): Array<{ channel: Channel; binding: Binding }> {
    const subscribers: Array<{ channel: Channel; binding: Binding }> = [];
    for (const channel of options.channels()) {
      for (const binding of channel.bindings) {
        if (!binding.active) continue;
        if (binding.schema !== "*" && binding.schema !== change.schema) continue;
        if (binding.table && binding.table !== "*" && binding.table !== change.table) continue;
        if (binding.event !== "*" && binding.event !== change.type) continue;
        subscribers.push({ channel, binding });
      }
    }
    return subscribers;
  }

  async function columnsOf(schema: string, table: string): Promise<Column[]> {
    const cacheKey = `${schema}.${table}`;
    let columns = columnCache.get(cacheKey);
    if (!columns) {
      columns = await tableColumns(stack.db, schema, table);
      columnCache.set(cacheKey, columns);
    }
    return columns;
  }

  /**
   * One DELETE statement's rows, each sent only to channels whose role and claims
   * could select it (deletes.ts), with the old primary key as Supabase sends it.
   */
  async function deliverDeletes(change: ChangeEvent & { deleted: [number, number] }) {
    const txid = String(change.txid);
    // A transaction's notifications arrive together, so an earlier one's kept rows are no longer needed.
    if (lastDeleteTxid !== null && lastDeleteTxid !== txid) await forgetDeleted(stack.db, [lastDeleteTxid]);
    lastDeleteTxid = txid;
    const listeners = listenersOf(change);
    if (listeners.length === 0) return;
    const deliveries = await deleteDeliveries(stack.db, txid, change.deleted, listeners, shapeCache);
    if (deliveries.length === 0) return;
    const columns = await columnsOf(change.schema, change.table);
    for (const { channel, ids, key } of deliveries) {
      const data = { schema: change.schema, table: change.table, commit_timestamp: change.ts, type: "DELETE" };
      push(channel, "postgres_changes", { ids, data: { ...data, columns, errors: null, old_record: key } });
    }
  }

  async function deliverChange(change: ChangeEvent) {
    if (closed) return;
    if (change.type === "DELETE") {
      // 0006's per-row DELETE notices carry no old row to check: only 0010's statement-level ones count.
      if (change.deleted) await deliverDeletes(change as ChangeEvent & { deleted: [number, number] });
      return;
    }
    const subscribers = listenersOf(change);
    if (subscribers.length === 0) return;
    const columns = await columnsOf(change.schema, change.table);
    // Per channel: the ids of its bindings that match, and the record it may see.
    const perChannel = new Map<Channel, { ids: number[]; record: Payload | null }>();
    for (const { channel, binding } of subscribers) {
      const record = await readAs(stack.db, change, channel.role, channel.claims, binding.parsed).catch((error) => {
        stack.log(`realtime: cannot check ${change.schema}.${change.table} for a subscriber: ${String(error)}`);
        return null;
      });
      if (!record) continue;
      const entry = perChannel.get(channel) ?? { ids: [], record };
      if (!entry.ids.includes(binding.id)) entry.ids.push(binding.id);
      entry.record ??= record;
      perChannel.set(channel, entry);
    }
    for (const [channel, { ids, record }] of perChannel) {
      const data: Payload = {
        schema: change.schema,
        table: change.table,
        commit_timestamp: change.ts,
        type: change.type,
        columns,
        errors: null,
      };
      data.record = record;
      // Without REPLICA IDENTITY FULL Postgres logs only the old key: UPDATE has no old
      // record in Supabase's payload (and DELETE just the primary key, see deliverDeletes).
      if (change.type === "UPDATE") data.old_record = {};
      push(channel, "postgres_changes", { ids, data });
    }
  }

  return {
    capturing,
    bindingsOf,
    subscribe,
    /** Stops capturing once the changes already queued are delivered. */
    async close() {
      closed = true;
      await listening;
      await queue.catch(() => undefined);
      await stopListening?.();
    },
  };
}

/** A stable positive 32-bit id for a binding, as Realtime's `:erlang.phash2(params)`. */
function bindingId(params: Payload): number {
  const text = JSON.stringify([params.event, params.schema, params.table ?? null, params.filter ?? null]);
  return createHash("sha1").update(text).digest().readUInt32BE(0) & 0x7ffffff || 1;
}
