/**
 * Changes announced by the database on private topics
 * (supabase/schemas/80_realtime.sql): one `change` broadcast per statement and
 * topic, naming the table, the kind of change and the ids it touched, never a
 * row's contents. Listeners refetch what they show, through row-level security.
 */
import { z } from "zod/mini";
import type { EngramError } from "../errors.js";
import type { EngramClient } from "../supabase-client.js";
import { attachToTopic } from "./topics.js";

/** The broadcast event the database's change messages travel as. */
export const CHANGE_EVENT = "change";

export const changeTables = [
  "decks",
  "deck_members",
  "note_types",
  "notes",
  "cards",
  "card_states",
  "review_logs",
  "study_day_extras",
  "import_jobs",
  "personal_notes",
  "note_suggestions",
] as const;
export type ChangeTable = (typeof changeTables)[number];
export type ChangeType = "insert" | "update" | "delete";

/**
 * One statement's changes to a table as one topic sees them. `ids` are the
 * rows' ids (for `card_states` the cards', for `deck_members` the members' on
 * a deck's topic and the decks' on the user's own), or null when the
 * statement touched too many rows to list: refetch everything of the table.
 */
export type TableChange<T extends ChangeTable = ChangeTable> = T extends ChangeTable
  ? { table: T; type: ChangeType; ids: string[] | null }
  : never;

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

const changeSchema = z.object({
  table: z.enum(changeTables),
  type: z.enum(["insert", "update", "delete"]),
  ids: z.nullable(z.array(z.guid())),
});

/** A change message's payload, or null when it is not one (anything a member may broadcast on a deck's topic). */
export function parseChange(payload: unknown): TableChange | null {
  const parsed = changeSchema.safeParse(payload);
  return parsed.success ? (parsed.data as TableChange) : null;
}

/**
 * Listens to the change messages of `tables` on a private topic (a channel
 * shared with the topic's other listeners) and sends each that `accept`
 * keeps, and a resync after every rejoin, to `listener`.
 */
export function subscribeToChanges<T extends ChangeTable>(
  supabase: EngramClient,
  topic: string,
  tables: readonly T[],
  listener: (event: TableChange<T> | ResyncEvent) => void,
  options: SubscriptionOptions = {},
  accept: (change: TableChange<T>) => boolean = () => true,
): Unsubscribe {
  const deliver = (event: TableChange<T> | ResyncEvent) => {
    try {
      listener(event);
    } catch {
      // One failing listener must not stop the stream.
    }
  };
  const wanted = new Set<ChangeTable>(tables);
  const handle = attachToTopic(supabase, topic, {
    broadcast: {
      [CHANGE_EVENT]: (payload) => {
        const change = parseChange(payload);
        if (change && wanted.has(change.table) && accept(change as TableChange<T>)) deliver(change as TableChange<T>);
      },
    },
    onJoin: (_channel, rejoin) => {
      if (rejoin) deliver({ type: "resync" });
      else options.onReady?.();
    },
    onError: options.onError,
  });
  return () => handle.release();
}
