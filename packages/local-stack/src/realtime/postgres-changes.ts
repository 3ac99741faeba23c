import { createHash } from "node:crypto";
import type { StackParts } from "../stack.js";
import {
  type ChangeEvent,
  type Column,
  canSelect,
  listenForChanges,
  publishedTables,
  selectableColumns,
  syncTriggers,
  tableColumns,
  visibleTo,
} from "./changes.js";
import { type Binding, type Channel, isObject, type Payload, push, pushJson, subTopicOf } from "./channel.js";
import { clearDeleted, deleteDeliveries, forgetDeleted, type TableShape } from "./deletes.js";
import { type Filter, filterColumns, filterSql, keyMatches, parseFilter } from "./filters.js";

export type PostgresChanges = ReturnType<typeof createPostgresChanges>;

/**
 * The `postgres_changes` extension: captures committed changes (changes.ts) and
 * delivers each, in commit order, to the bindings that listen and may read it.
 * INSERT and UPDATE are checked against each subscriber's SELECT policies; a DELETE's
 * key goes to every subscriber of the table, as hosted Realtime sends it, or in
 * strict mode only to those who could see the row (deletes.ts).
 */
export function createPostgresChanges(
  stack: StackParts,
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
  /**
   * Columns each role may select, per table, for the changes of one commit timestamp:
   * a bulk statement's rows ask once, and a grant made since is seen by the next one.
   */
  let selectableCache = { ts: "", byTable: new Map<string, Promise<Set<string>>>() };
  /** The last transaction whose deleted rows were looked at; its kept rows go once another one's arrive. */
  let lastDeleteTxid: string | null = null;

  const listening = (async () => {
    await syncTriggers(stack.db, stack.strict);
    if (stack.strict) await clearDeleted(stack.db);
    stopListening = await listenForChanges(stack.db, (change) => {
      options.onCommit();
      queue = queue.then(() => deliverChange(change)).catch((error) => stack.log(`realtime: ${String(error)}`));
    });
  })().catch((error) => stack.log(`realtime: change capture unavailable: ${String(error)}`));

  /** Waits until changes are captured, with triggers on every published table. */
  async function capturing() {
    await listening;
    await syncTriggers(stack.db, stack.strict);
  }

  /**
   * A join's `postgres_changes` config as bindings, or the join's error: a malformed
   * binding, or in strict mode a named table the role may not read (hosted Realtime
   * subscribes it and sends its changes as `Error 401: Unauthorized`).
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
        parsed: [],
        // Live once validated, as Realtime streams only after its subscription insert.
        active: false,
      };
      if (typeof entry.table === "string") binding.table = entry.table;
      if (typeof entry.filter === "string") binding.filter = entry.filter;
      if (entry.select !== undefined) binding.select = entry.select as string[];
      bindings.push(binding);
      // Strict: no subscription to a table the role may not read; wildcard bindings
      // are checked per change instead (the read as the subscriber fails).
      if (stack.strict && binding.table && binding.table !== "*" && binding.schema !== "*") {
        if ((await canSelect(stack.db, role, binding.schema, binding.table)) === false) {
          return {
            error: `Unauthorized: You do not have permissions to read from this table: ${binding.schema}.${binding.table}`,
          };
        }
      }
    }
    return bindings;
  }

  /**
   * Validates a channel's bindings against the publication and the tables, as
   * Realtime's subscription insert does; returns the error Realtime reports, or
   * null when every binding is live.
   */
  async function validate(channel: Channel): Promise<string | null> {
    try {
      await capturing();
      columnCache.clear();
      shapeCache.clear();
      const published = await publishedTables(stack.db);
      const errors: string[] = [];
      for (const binding of channel.bindings) {
        const error = await bindingError(binding, published, channel.role);
        binding.active = error === null;
        if (error) errors.push(error);
      }
      return errors.length > 0 ? errors.join("; ") : null;
    } catch (error) {
      for (const binding of channel.bindings) binding.active = false;
      return String(error);
    }
  }

  async function bindingError(binding: Binding, published: Set<string>, role: string): Promise<string | null> {
    const table = binding.table && binding.table !== "*" ? binding.table : null;
    try {
      binding.parsed = binding.filter ? parseFilter(binding.filter) : [];
    } catch (error) {
      return (error as Error).message;
    }
    if (binding.select !== undefined) {
      if (!Array.isArray(binding.select))
        return 'Error parsing `select` params: expected a list of column name strings, e.g. select: ["col1", "col2"]';
      binding.select = binding.select.filter((column) => typeof column === "string");
      if (binding.select.length === 0) delete binding.select;
      else if (!table || binding.schema === "*")
        return "Column selection is not supported for wildcard subscriptions. Provide an explicit schema and table name.";
    }
    const describe = `[event: ${binding.event}, schema: ${binding.schema}, table: ${binding.table ?? "*"}, filters: ${binding.filter ? `[${binding.filter}]` : "[]"}, select: ${binding.select ? `[${binding.select.join(", ")}]` : "nil"}]`;
    const matching = [...published].filter((name) => {
      const [schema, rel] = name.split(".") as [string, string];
      return (binding.schema === "*" || binding.schema === schema) && (!table || table === rel);
    });
    if (matching.length === 0) {
      return `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ${describe}`;
    }
    if (binding.parsed.length > 0 && !table) return "Error parsing `filter` params: a filter needs a table";
    if (!table || (binding.parsed.length === 0 && !binding.select)) return null;
    // As Realtime's check on realtime.subscription: columns exist and the role may select
    // them, values cast to their types.
    try {
      const columns = await selectableColumns(stack.db, role, binding.schema, table);
      for (const column of filterColumns(binding.parsed)) {
        if (!columns.has(column)) throw new Error(`invalid column for filter ${column}`);
      }
      for (const column of binding.select ?? []) {
        if (!columns.has(column)) throw new Error(`invalid column for select ${column}`);
      }
      const params: unknown[] = [];
      const where = filterSql(binding.parsed, "t", params);
      await stack.db.query(
        `select 1 from ${quoteIdent(binding.schema)}.${quoteIdent(table)} t where ${where} limit 0`,
        params,
      );
      return null;
    } catch (error) {
      return `Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: ${describe}. Exception: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** Realtime's `system` message on how subscribing to changes went. */
  function report(channel: Channel, error: string | null) {
    push(channel, "system", {
      extension: "postgres_changes",
      status: error ? "error" : "ok",
      message: error ?? "Subscribed to PostgreSQL",
      channel: subTopicOf(channel.topic),
    });
  }

  /** Channels and bindings that listen for this change (before any RLS check). */
  function listenersOf(change: ChangeEvent): Array<{ channel: Channel; binding: Binding }> {
    const subscribers: Array<{ channel: Channel; binding: Binding }> = [];
    for (const channel of options.channels()) {
      for (const binding of channel.bindings) {
        if (!binding.active) continue;
        if (binding.schema !== "*" && binding.schema !== change.schema) continue;
        if (binding.table && binding.table !== "*" && binding.table !== change.table) continue;
        const action = actionOf(binding.event);
        if (action !== "*" && action !== change.type) continue;
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
   * A deleted row's primary key, as hosted Realtime sends it: to every channel listening
   * to the table whose filters the key passes, RLS or not (it cannot be applied to a row
   * that is gone); each role gets the key columns it may select.
   */
  async function deliverDeletedKey(change: ChangeEvent & { old: Payload }) {
    const listeners = listenersOf(change).filter(({ binding }) => keyMatches(change.old, binding.parsed));
    if (listeners.length === 0) return;
    const columns = await columnsOf(change.schema, change.table);
    const perChannel = new Map<Channel, number[]>();
    for (const { channel, binding } of listeners) {
      const ids = perChannel.get(channel) ?? [];
      if (!ids.includes(binding.id)) ids.push(binding.id);
      perChannel.set(channel, ids);
    }
    const selectableBy = await selectableByRole(change, [...perChannel.keys()]);
    const data = { schema: change.schema, table: change.table, commit_timestamp: change.ts, type: "DELETE" };
    for (const [channel, ids] of perChannel) {
      const selectable = selectableBy.get(channel.role) ?? new Set<string>();
      const select = selectionOf(channel, ids, change.old);
      push(channel, "postgres_changes", {
        ids,
        data: {
          ...data,
          columns: project(columns, select).filter((column) => selectable.has(column.name)),
          errors: null,
          old_record: Object.fromEntries(
            Object.entries(pick(change.old, select)).filter(([column]) => selectable.has(column)),
          ),
        },
      });
    }
  }

  /** The columns of the change's table a role may select (Realtime checks them per change). */
  function selectableFor(change: ChangeEvent, role: string): Promise<Set<string>> {
    if (selectableCache.ts !== change.ts) selectableCache = { ts: change.ts, byTable: new Map() };
    const key = JSON.stringify([role, change.schema, change.table]);
    let columns = selectableCache.byTable.get(key);
    if (!columns) {
      columns = selectableColumns(stack.db, role, change.schema, change.table);
      selectableCache.byTable.set(key, columns);
    }
    return columns;
  }

  /** Whether a role may not select every primary key column of the change's table (Realtime's 401). */
  async function keyHidden(change: ChangeEvent, role: string): Promise<boolean> {
    const selectable = await selectableFor(change, role);
    return Object.keys(change.new ?? {}).some((column) => !selectable.has(column));
  }

  /** For each role among the channels, the columns of the change's table it may select. */
  async function selectableByRole(change: ChangeEvent, channels: Channel[]): Promise<Map<string, Set<string>>> {
    const byRole = new Map<string, Set<string>>();
    for (const role of new Set(channels.map((channel) => channel.role))) {
      byRole.set(role, await selectableFor(change, role));
    }
    return byRole;
  }

  /**
   * Strict mode: one DELETE statement's rows, each sent only to channels whose role and
   * claims could select it (deletes.ts), with the old primary key as Supabase sends it.
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
      const select = selectionOf(channel, ids, key);
      const data = { schema: change.schema, table: change.table, commit_timestamp: change.ts, type: "DELETE" };
      push(channel, "postgres_changes", {
        ids,
        data: { ...data, columns: project(columns, select), errors: null, old_record: pick(key, select) },
      });
    }
  }

  async function deliverChange(change: ChangeEvent) {
    if (closed) return;
    if (change.type === "DELETE") {
      // Strict mode counts only the deletes whose rows were kept to be checked (0010).
      if (stack.strict && change.deleted) await deliverDeletes(change as ChangeEvent & { deleted: [number, number] });
      else if (!stack.strict && change.old) await deliverDeletedKey(change as ChangeEvent & { old: Payload });
      return;
    }
    const subscribers = listenersOf(change);
    if (subscribers.length === 0) return;
    const columns = await columnsOf(change.schema, change.table);
    // One check per identity (role and claims), with every distinct filter its bindings use.
    const identities = new Map<string, { channel: Channel; filters: Map<string, Filter> }>();
    for (const { channel, binding } of subscribers) {
      const key = identityKey(channel);
      const identity = identities.get(key) ?? { channel, filters: new Map<string, Filter>() };
      identity.filters.set(binding.filter ?? "", binding.parsed);
      identities.set(key, identity);
    }
    const results = new Map<string, { record: Payload; passes: Map<string, boolean> } | "unauthorized" | null>();
    await Promise.all(
      [...identities].map(async ([key, { channel, filters }]) => {
        const names = [...filters.keys()];
        const visible = await visibleTo(stack.db, change, channel.role, channel.claims, [...filters.values()]).catch(
          async (error: unknown) => {
            if (!stack.strict && (await keyHidden(change, channel.role))) return "unauthorized" as const;
            stack.log(`realtime: cannot check ${change.schema}.${change.table} for a subscriber: ${String(error)}`);
            return null;
          },
        );
        results.set(
          key,
          visible === "unauthorized" || visible === null
            ? visible
            : {
                record: visible.record,
                passes: new Map(names.map((name, index) => [name, visible.matches[index] === true])),
              },
        );
      }),
    );
    // Hosted Realtime tells a role that may not select the table's key of each change, without the row.
    const unauthorized = new Map<Channel, number[]>();
    for (const { channel, binding } of subscribers) {
      if (results.get(identityKey(channel)) !== "unauthorized") continue;
      const ids = unauthorized.get(channel) ?? [];
      if (!ids.includes(binding.id)) ids.push(binding.id);
      unauthorized.set(channel, ids);
    }
    for (const [channel, ids] of unauthorized) {
      const data: Payload = {
        schema: change.schema,
        table: change.table,
        commit_timestamp: null,
        type: change.type,
        columns: [],
        errors: ["Error 401: Unauthorized"],
        record: {},
      };
      if (change.type === "UPDATE") data.old_record = {};
      push(channel, "postgres_changes", { ids, data });
    }
    // Per channel: the ids of its bindings that match, and the record it may see.
    const perChannel = new Map<Channel, { ids: number[]; record: Payload }>();
    for (const { channel, binding } of subscribers) {
      const result = results.get(identityKey(channel));
      if (!result || result === "unauthorized" || !result.passes.get(binding.filter ?? "")) continue;
      const entry = perChannel.get(channel) ?? { ids: [] as number[], record: result.record };
      if (!entry.ids.includes(binding.id)) entry.ids.push(binding.id);
      perChannel.set(channel, entry);
    }
    // The change's data is encoded once per record and column selection, not once per channel.
    // (Channels of one identity share one record object.)
    const encoded = new Map<Payload, Map<string, string>>();
    for (const [channel, { ids, record }] of perChannel) {
      const select = selectionOf(channel, ids, change.new ?? {});
      const key = select ? [...select].join(",") : "*";
      const forRecord = encoded.get(record) ?? new Map<string, string>();
      encoded.set(record, forRecord);
      let data = forRecord.get(key);
      if (data === undefined) {
        const fields: Payload = {
          schema: change.schema,
          table: change.table,
          commit_timestamp: change.ts,
          type: change.type,
          columns: project(columns, select),
          errors: null,
          record: pick(record, select),
        };
        // Without REPLICA IDENTITY FULL Postgres logs only the old key: UPDATE has no old
        // record in Supabase's payload (and DELETE just the primary key, see deliverDeletes).
        if (change.type === "UPDATE") fields.old_record = {};
        data = JSON.stringify(fields);
        forRecord.set(key, data);
      }
      pushJson(channel, "postgres_changes", `{"ids":${JSON.stringify(ids)},"data":${data}}`);
    }
  }

  return {
    capturing,
    /** Whether changes are being captured (false when listening could not start). */
    running: () => stopListening !== null,
    bindingsOf,
    validate,
    report,
    /** Stops capturing once the changes already queued are delivered. */
    async close() {
      closed = true;
      await listening;
      await queue.catch(() => undefined);
      await stopListening?.();
    },
  };
}

/** Realtime's action filter: the event in any case; anything else means every event. */
function actionOf(event: string): string {
  const upper = event.toUpperCase();
  return upper === "INSERT" || upper === "UPDATE" || upper === "DELETE" ? upper : "*";
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Who a channel reads as: channels of one identity see the same rows. */
const identityKey = (channel: Channel) => JSON.stringify([channel.role, channel.claims]);

/**
 * The columns to send to a channel for these bindings: all of them when any
 * binding wants the whole row, else those the bindings select.
 */
function selectionOf(channel: Channel, ids: number[], primaryKey: Payload): Set<string> | null {
  // Realtime always sends the primary key, selected or not.
  const selected = new Set<string>(Object.keys(primaryKey));
  for (const binding of channel.bindings) {
    if (!ids.includes(binding.id)) continue;
    if (!binding.select) return null;
    for (const column of binding.select) selected.add(column);
  }
  return selected;
}

const pick = (record: Payload, select: Set<string> | null): Payload =>
  select ? Object.fromEntries(Object.entries(record).filter(([column]) => select.has(column))) : record;

const project = (columns: Column[], select: Set<string> | null): Column[] =>
  select ? columns.filter((column) => select.has(column.name)) : columns;

/** A stable positive 32-bit id for a binding, as Realtime's `:erlang.phash2(params)`. */
function bindingId(params: Payload): number {
  const text = JSON.stringify([
    params.event,
    params.schema,
    params.table ?? null,
    params.filter ?? null,
    params.select ?? null,
  ]);

  return createHash("sha1").update(text).digest().readUInt32BE(0) & 0x7ffffff || 1;
}
