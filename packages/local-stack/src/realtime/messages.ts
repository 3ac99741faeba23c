import type pg from "pg";
import type { EmbeddedPglite } from "../database/embedded.js";
import type { Database } from "../database/types.js";
import type { StackParts } from "../stack.js";
import type { Payload } from "./channel.js";

/** A broadcast stored in realtime.messages (realtime.send, send_binary, broadcast_changes). */
export interface StoredMessage {
  id: string;
  topic: string;
  event: string;
  private: boolean;
  /** JSON payload, or the bytes of a binary one. */
  payload: unknown;
  /** epoch milliseconds */
  insertedAt: number;
}

/** Delivers a stored message to `realtime:<topic>`; `meta` goes out as the broadcast's `meta`. */
export type Deliver = (topic: string, isPrivate: boolean, event: string, payload: unknown, meta: Payload) => void;

const CHANNEL = "engram_realtime_messages";

/** Columns of a stored message, with the payload chosen as Realtime does (binary wins). */
export const MESSAGE_COLUMNS = `id::text as id, topic, event, coalesce(private, false) as private, payload, binary_payload,
  (extract(epoch from inserted_at) * 1000)::float8 as inserted_at`;

export interface MessageRow {
  id: string;
  topic: string;
  event: string;
  private: boolean;
  payload: unknown;
  binary_payload: Uint8Array | null;
  inserted_at: number;
}

export function storedMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    topic: row.topic,
    event: row.event,
    private: row.private,
    payload: row.binary_payload ? new Uint8Array(row.binary_payload) : row.payload,
    insertedAt: row.inserted_at,
  };
}

/** Broadcasts committed to realtime.messages, as the hub receives them. */
export interface DatabaseBroadcasts {
  /** Resolves once they are listened for (a join waits for it). */
  ready: Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * Fans out every broadcast committed to realtime.messages (sql/platform/0012), as
 * Realtime's replication of that table does: the payload gets the message id when
 * it has none, and `meta: { id }`. Who receives it is the hub's rule for server
 * broadcasts (same privacy, read permission).
 */
export function deliverDatabaseBroadcasts(stack: StackParts, deliver: Deliver): DatabaseBroadcasts {
  // One read at a time keeps messages in commit order.
  let queue = Promise.resolve();
  const log = (error: unknown) => stack.log(`realtime: database broadcast: ${String(error)}`);
  const onNotify = (text: string) => {
    let key: { id?: unknown; inserted_at?: unknown };
    try {
      key = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof key.id !== "string" || typeof key.inserted_at !== "string") return;
    const { id, inserted_at } = key as { id: string; inserted_at: string };
    queue = queue
      .then(async () => {
        const [row] = await stack.db.query<MessageRow>(
          `select ${MESSAGE_COLUMNS} from realtime.messages where id = $1::uuid and inserted_at = $2::timestamp`,
          [id, inserted_at],
        );
        if (!row) return;
        const message = storedMessage(row);
        const payload =
          message.payload instanceof Uint8Array ? message.payload : withId(message.payload ?? {}, message.id);
        deliver(message.topic, message.private, message.event, payload, { id: message.id });
      })
      .catch(log);
  };
  const listening = listen(stack.db, CHANNEL, onNotify);
  return {
    ready: listening.catch((error) => log(error)),
    async stop() {
      await (await listening.catch(() => async () => undefined))();
      await queue;
    },
  };
}

/** Realtime puts the message id into object payloads that lack one. */
function withId(payload: unknown, id: string): unknown {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload) || "id" in payload) return payload;
  return { ...payload, id };
}

/** LISTEN on PGlite's one session or on a pooled connection kept for it. */
async function listen(db: Database, channel: string, onNotify: (payload: string) => void) {
  if (db.kind === "pglite") {
    const pglite = (db as Database & { pglite: EmbeddedPglite }).pglite;
    const unlisten = await pglite.listen(channel, onNotify);
    return async () => {
      await unlisten().catch(() => undefined);
    };
  }
  const pool = (db as Database & { pool: pg.Pool }).pool;
  const client = await pool.connect();
  client.on("notification", (message) => {
    if (message.channel === channel && message.payload) onNotify(message.payload);
  });
  client.on("error", () => undefined);
  await client.query(`listen ${channel}`);
  return async () => {
    await client.query(`unlisten ${channel}`).catch(() => undefined);
    client.release(true);
  };
}
