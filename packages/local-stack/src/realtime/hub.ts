import type { RawData, WebSocket } from "ws";
import type { StackParts } from "../stack.js";
import { handleBroadcast, payloadTooLarge } from "./broadcast.js";
import { channelPermissions } from "./changes.js";
import { type Channel, type Connection, type Payload, push, reply } from "./channel.js";
import { claimsOf, join, refreshToken, revoke } from "./joins.js";
import { deliverDatabaseBroadcasts } from "./messages.js";
import { createPostgresChanges } from "./postgres-changes.js";
import { handlePresence, untrack } from "./presence.js";
import { decodeBinary, decodeText, encodeBroadcast, type Frame, FrameError, type Vsn } from "./protocol.js";
import { createRevocationCheck } from "./revocation.js";

export type Hub = ReturnType<typeof createHub>;

/**
 * A stack's realtime server: its connections and topics, what each frame does,
 * and fan-out to a topic's members. Joins, broadcast, presence and
 * postgres_changes live in their own modules.
 */
export function createHub(stack: StackParts) {
  /** Joined channels by topic (`realtime:<name>`; a public and a private channel of one name share it). */
  const topics = new Map<string, Set<Channel>>();
  let closed = false;

  function* allChannels() {
    for (const members of topics.values()) yield* members;
  }

  const revocation = createRevocationCheck(stack.db, {
    channels: allChannels,
    apply(channel, permissions) {
      if (permissions) channel.permissions = permissions;
      else revoke(hub, channel);
    },
    stopped: () => closed,
    log: (line) => stack.log(line),
  });

  const changes = createPostgresChanges(stack, {
    channels: allChannels,
    // Strict mode: any committed change may have changed who may read a private channel.
    // Hosted Realtime checks only at join and when the client sends a new token.
    onCommit: () => {
      if (stack.strict) revocation.request();
    },
  });

  const members = (topic: string): Iterable<Channel> => topics.get(topic) ?? [];

  /** Adds a joined channel to its connection and topic. */
  function add(channel: Channel) {
    channel.conn.channels.set(channel.topic, channel);
    const set = topics.get(channel.topic) ?? new Set<Channel>();
    topics.set(channel.topic, set);
    set.add(channel);
  }

  /** Removes a channel from its topic, dropping its presence (socket drop, leave, rejoin). */
  function leave(channel: Channel) {
    clearTimeout(channel.expiry);
    const set = topics.get(channel.topic);
    if (!set?.delete(channel)) return;
    if (set.size === 0) topics.delete(channel.topic);
    untrack(channel, members(channel.topic));
  }

  /**
   * Delivers a broadcast to every channel on `topic` (`realtime:<name>`) of the same
   * privacy that may read broadcasts; the sender only when it joined with `self`.
   * `payload` is the user payload: JSON, or a Uint8Array sent as a binary frame.
   * `sender` is null for server-side messages (HTTP API, database); `meta` goes out with it.
   */
  function fanOut(
    topic: string,
    isPrivate: boolean,
    event: string,
    payload: unknown,
    sender: Channel | null,
    meta?: Payload,
  ) {
    // Encoded once per protocol version, not once per member.
    const frames = new Map<Vsn, string | Buffer | null>();
    const frameFor = (vsn: Vsn) => {
      let frame = frames.get(vsn);
      if (frame === undefined) {
        frame = encodeBroadcast(topic, event, payload, vsn, meta);
        frames.set(vsn, frame);
      }
      return frame;
    };
    const deliver = () => {
      for (const member of members(topic)) {
        if ((member === sender && !member.self) || member.private !== isPrivate || !member.permissions.readBroadcast)
          continue;
        const frame = frameFor(member.conn.vsn);
        if (frame !== null && member.conn.ws.readyState === member.conn.ws.OPEN) member.conn.ws.send(frame);
      }
    };
    // A re-check under way may be about to shut a reader out: private broadcasts wait for it.
    if (isPrivate && revocation.running()) void revocation.settled().then(deliver);
    else deliver();
  }

  // realtime.send and the like: committed rows of realtime.messages go out as server broadcasts.
  const databaseBroadcasts = deliverDatabaseBroadcasts(stack, (topic, isPrivate, event, payload, meta) =>
    fanOut(`realtime:${topic}`, isPrivate, event, payload, null, meta),
  );

  /** Serves an upgraded socket acting as `token` (the gateway's bearer for it), speaking `vsn`. */
  function accept(ws: WebSocket, token: string, vsn: Vsn) {
    const conn: Connection = { ws, vsn, token, channels: new Map(), queue: Promise.resolve(), closed: false };
    ws.on("message", (data: RawData, isBinary: boolean) => {
      let frame: Frame;
      try {
        if (isBinary && vsn === "1.0.0") throw new FrameError("vsn 1.0.0 has no binary frames");
        frame = isBinary ? decodeBinary(toBytes(data)) : decodeText(toBytes(data).toString(), vsn);
      } catch (error) {
        // Malformed frames are dropped (there is no ref to reply to); the socket stays open.
        stack.log(`realtime: ${error instanceof FrameError ? error.message : "bad frame"}`);
        return;
      }
      conn.queue = conn.queue
        .then(() => (conn.closed ? undefined : handle(conn, frame)))
        .catch((error) => {
          stack.log(`realtime: ${String(error)}`);
          reply(conn, frame, "error", { reason: "internal error" });
        });
    });
    ws.on("close", () => {
      conn.closed = true;
      for (const channel of conn.channels.values()) leave(channel);
      conn.channels.clear();
    });
    ws.on("error", () => undefined);
  }

  async function handle(conn: Connection, frame: Frame) {
    if (frame.topic === "phoenix") {
      if (frame.event === "heartbeat") reply(conn, frame, "ok", {});
      else reply(conn, frame, "error", { reason: "unmatched topic" });
      return;
    }
    if (frame.event === "phx_join") return join(hub, conn, frame);
    const channel = conn.channels.get(frame.topic);
    if (!channel || (frame.joinRef !== null && frame.joinRef !== channel.joinRef)) {
      if (frame.event !== "access_token") reply(conn, frame, "error", { reason: "unmatched topic" });
      return;
    }
    switch (frame.event) {
      case "phx_leave":
        reply(conn, frame, "ok", {});
        leave(channel);
        conn.channels.delete(channel.topic);
        push(channel, "phx_close", {});
        return;
      case "access_token":
        return refreshToken(hub, channel, frame);
      case "broadcast":
        return handleBroadcast(channel, frame, fanOut);
      case "presence":
        return handlePresence(channel, frame, members(channel.topic));
      default:
        reply(conn, frame, "error", { reason: `unknown event: ${frame.event}` });
    }
  }

  const hub = {
    stack,
    changes,
    members,
    add,
    leave,
    fanOut,
    accept,
    /** Resolves once database broadcasts are listened for: a join waits, so those sent after it reach it. */
    databaseBroadcastsReady: databaseBroadcasts.ready,
    claimsOf: (token: string) => claimsOf(stack.keys, token),
    payloadTooLarge,
    /** Whether a token's role may send broadcasts to a private sub-topic (HTTP API). */
    async canSendPrivate(subTopic: string, role: string, claims: Payload) {
      return (await channelPermissions(stack.db, subTopic, role, claims)).writeBroadcast;
    },
    /** Sends a server-side broadcast (HTTP API) to `realtime:<subTopic>`. */
    broadcast(subTopic: string, isPrivate: boolean, event: string, payload: unknown) {
      fanOut(`realtime:${subTopic}`, isPrivate, event, payload, null);
    },
    async close() {
      await databaseBroadcasts.stop();
      closed = true;
      await changes.close();
      await revocation.settled();
      topics.clear();
    },
  };
  return hub;
}

function toBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
