import { setRequestContext } from "../database/request-context.js";
import type { Database } from "../database/types.js";
import { type Channel, isObject, type Payload, push } from "./channel.js";
import { MESSAGE_COLUMNS, type MessageRow, type StoredMessage, storedMessage } from "./messages.js";
import { encodeUserBroadcast } from "./protocol.js";

/** Realtime's bounds: `limit` defaults to 25 (`replay["limit"] || 25`) and is clamped to 1..25; `since` has no default. */
const MAX_LIMIT = 25;

export interface ReplayRequest {
  since: number;
  limit: number;
}

/**
 * Reads `config.broadcast.replay` of a join as Realtime does: absent or not an object
 * means no replay; `since` (epoch ms) is required and, like `limit` when given, an integer.
 * Returns the reason to refuse the join with, when there is one.
 */
export function replayRequest(
  broadcastConfig: Payload,
  isPrivate: boolean,
): { request: ReplayRequest | null } | { error: string } {
  if (!("replay" in broadcastConfig)) return { request: null };
  if (!isPrivate) return { error: "UnableToReplayMessages: Replay is not allowed for public channels" };
  const replay = broadcastConfig.replay;
  if (!isObject(replay)) return { request: null };
  const since = replay.since;
  const limit = replay.limit ?? MAX_LIMIT;
  if (!Number.isSafeInteger(since) || !Number.isSafeInteger(limit)) {
    return { error: "UnableToReplayMessages: Replay params are not valid" };
  }
  return { request: { since: since as number, limit: Math.max(1, Math.min(limit as number, MAX_LIMIT)) } };
}

/**
 * The newest `limit` private broadcasts of a topic stored since `since`, oldest first.
 * As Realtime reads them: with the server's own privileges, the join having checked
 * the topic once. With `asReader` (strict mode) they are read as that role with
 * `realtime.topic()` set, so the SELECT policies on realtime.messages decide for each
 * stored row.
 */
export async function replayMessages(
  db: Database,
  subTopic: string,
  request: ReplayRequest,
  { asReader }: { asReader: { role: string; claims: Payload } | null },
): Promise<StoredMessage[]> {
  const rows = await db.transaction(async (tx) => {
    if (asReader) {
      await setRequestContext(tx, asReader);
      await tx.query("select set_config('realtime.topic', $1, true)", [subTopic]);
    }
    return tx.query<MessageRow>(
      `select ${MESSAGE_COLUMNS} from realtime.messages
        where topic = $1 and private is true and extension = 'broadcast' and event is not null
          and inserted_at >= to_timestamp($2::float8 / 1000) at time zone 'utc'
          and inserted_at < (now() at time zone 'utc') + interval '1 minute'
        order by inserted_at desc, ctid desc limit $3`,
      [subTopic, request.since, request.limit],
    );
  });
  return rows.map(storedMessage).reverse();
}

/**
 * Sends replayed messages to the channel that asked for them, after its join reply,
 * marked `meta: { replayed: true, id }` as Realtime marks them.
 */
export function pushReplayed(channel: Channel, messages: StoredMessage[]) {
  const { ws, vsn } = channel.conn;
  for (const message of messages) {
    const meta = { replayed: true, id: message.id };
    if (!(message.payload instanceof Uint8Array)) {
      push(channel, "broadcast", { type: "broadcast", event: message.event, payload: message.payload, meta });
    } else if (vsn === "2.0.0" && ws.readyState === ws.OPEN) {
      // vsn 1.0.0 cannot carry binary payloads; Realtime skips them there too.
      ws.send(encodeUserBroadcast(channel.topic, message.event, message.payload, meta));
    }
  }
}
