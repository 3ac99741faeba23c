/**
 * Row changes streamed from the database's `supabase_realtime` publication,
 * typed from the generated `Database` rows. The server checks each subscriber's
 * RLS before delivering an insert or update.
 */
import type { RealtimeChannel, RealtimePostgresChangesPayload } from "@supabase/supabase-js";
import type { Database } from "../database.types.js";
import type { EngramError } from "../errors.js";
import type { EngramClient } from "../supabase-client.js";
import { openChannel, uniqueTopic } from "./channel.js";

type PublicTables = Database["public"]["Tables"];
export type TableName = keyof PublicTables;
export type Row<T extends TableName> = PublicTables[T]["Row"];

/**
 * One change of a row. Updates carry no old row and deletes only the primary
 * key: Postgres logs no more without REPLICA IDENTITY FULL.
 */
export type RowChange<T extends TableName> =
  | { table: T; type: "insert"; row: Row<T>; commitTimestamp: string }
  | { table: T; type: "update"; row: Row<T>; commitTimestamp: string }
  | { table: T; type: "delete"; old: Partial<Row<T>>; commitTimestamp: string };

/**
 * The channel joined again after a drop or a new access token: changes in
 * between may be missed, so refetch what is shown.
 */
export interface ResyncEvent {
  type: "resync";
}

export interface SubscriptionOptions {
  /** The server refused or could not start the subscription; never thrown. */
  onError?: (error: EngramError) => void;
  /** The server confirmed the subscription: changes from now on arrive (fetch the initial data after this). */
  onReady?: () => void;
}

/** Stops a subscription; resolves once the server has been told. */
export type Unsubscribe = () => Promise<void>;

export interface ChangeBinding<T extends TableName> {
  table: T;
  event: "*" | "INSERT" | "UPDATE" | "DELETE";
  /** A realtime filter such as `user_id=eq.<id>`. */
  filter?: string;
}

export function toRowChange<T extends TableName>(
  table: T,
  payload: RealtimePostgresChangesPayload<Row<T>>,
): RowChange<T> {
  const commitTimestamp = payload.commit_timestamp;
  switch (payload.eventType) {
    case "INSERT":
      return { table, type: "insert", row: payload.new, commitTimestamp };
    case "UPDATE":
      return { table, type: "update", row: payload.new, commitTimestamp };
    default:
      return { table, type: "delete", old: payload.old, commitTimestamp };
  }
}

/**
 * Listens to the given row changes on one channel of its own and sends each,
 * and a resync after every rejoin, to `listener`.
 */
export function subscribeToChanges<E>(
  supabase: EngramClient,
  name: string,
  bindings: ReadonlyArray<ChangeBinding<TableName>>,
  emit: (change: RowChange<TableName>) => E | null,
  listener: (event: E | ResyncEvent) => void,
  options: SubscriptionOptions = {},
): Unsubscribe {
  const deliver = (event: E | ResyncEvent) => {
    try {
      listener(event);
    } catch {
      // One failing listener must not stop the stream.
    }
  };
  const managed = openChannel({
    supabase,
    topic: () => uniqueTopic(name),
    config: {},
    changes: true,
    bind: (channel: RealtimeChannel) => {
      for (const { table, event, filter } of bindings) {
        const spec = { event, schema: "public", table, ...(filter ? { filter } : {}) } as const;
        channel.on("postgres_changes", spec as { event: "*"; schema: string }, (payload) => {
          const mapped = emit(toRowChange(table, payload as RealtimePostgresChangesPayload<Row<TableName>>));
          if (mapped !== null) deliver(mapped);
        });
      }
    },
    onJoin: (_channel, rejoin) => {
      if (rejoin) deliver({ type: "resync" });
      else options.onReady?.();
    },
    onError: options.onError,
  });
  return () => managed.close();
}
