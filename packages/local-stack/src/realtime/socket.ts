import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import { publishableKey, secretKey } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import {
  ALL_PERMISSIONS,
  type ChangeEvent,
  type Column,
  canSelect,
  channelPermissions,
  type Filter,
  listenForChanges,
  type Permissions,
  parseFilter,
  publishedTables,
  readAs,
  syncTriggers,
  tableColumns,
} from "./changes.js";
import { clearDeleted, deleteDeliveries, forgetDeleted, type TableShape } from "./deletes.js";
import { decodeBinary, decodeText, encodeText, encodeUserBroadcast, type Frame, FrameError } from "./protocol.js";
import { createRevocationCheck } from "./revocation.js";

export const REALTIME_PATH = "/realtime/v1/websocket";
/** Largest broadcast or presence payload accepted (bytes of JSON); larger pushes get an error reply. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;
/** Largest WebSocket message; larger ones close the connection with 1009 (the server stays up). */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

interface Binding {
  event: string;
  schema: string;
  table?: string;
  filter?: string;
  id: number;
  parsed: Filter | null;
  /** False when the binding was rejected (table not published, bad filter). */
  active: boolean;
}

interface Channel {
  conn: Connection;
  topic: string;
  joinRef: string | null;
  self: boolean;
  ack: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  /** This channel's tracked meta, with its phx_ref. */
  presence: Record<string, unknown> | null;
  bindings: Binding[];
  /** Private and public channels of one name are separate topics, as in Supabase. */
  private: boolean;
  /** What RLS on realtime.messages allows on a private channel (everything on public ones). */
  permissions: Permissions;
  expiry?: NodeJS.Timeout;
  role: string;
  claims: Record<string, unknown>;
}

interface Connection {
  ws: WebSocket;
  token: string;
  channels: Map<string, Channel>;
  /** Frames of one socket are handled in order, one at a time. */
  queue: Promise<void>;
  closed: boolean;
}

type Payload = Record<string, unknown>;

const isObject = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Serves `/realtime/v1/websocket` on the stack's HTTP server; returns a function that closes it. */
export function attachRealtime(stack: Stack, server: Server): () => Promise<void> {
  const hub = createRealtime(stack);
  hubs.set(stack, hub);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== REALTIME_PATH) return;
    const apikey = url.searchParams.get("apikey") ?? headerOf(request, "x-api-key") ?? headerOf(request, "apikey");
    hub.tokenForApiKey(apikey).then(
      (token) => {
        if (!token) {
          socket.end("HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nInvalid API key");
          return;
        }
        wss.handleUpgrade(request, socket, head, (ws) => hub.accept(ws, token));
      },
      () => socket.destroy(),
    );
  };
  server.on("upgrade", onUpgrade);
  return async () => {
    server.off("upgrade", onUpgrade);
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    await hub.close();
  };
}

function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === "string" ? value : null;
}

export type Realtime = ReturnType<typeof createRealtime>;
const hubs = new WeakMap<Stack, Realtime>();

/** The running realtime server of a stack (for the HTTP broadcast API), if attached. */
export function realtimeOf(stack: Stack): Realtime | undefined {
  return hubs.get(stack);
}

function createRealtime(stack: Stack) {
  const topics = new Map<string, Set<Channel>>();
  const keyJwts = new Map([
    [stack.keys.anonKey, stack.keys.anonKey],
    [stack.keys.serviceRoleKey, stack.keys.serviceRoleKey],
    [publishableKey, stack.keys.anonKey],
    [secretKey, stack.keys.serviceRoleKey],
  ]);
  let presenceCounter = 0;
  let stopListening: (() => Promise<void>) | null = null;
  let closed = false;
  // Changes are delivered one at a time, in commit order.
  let queue: Promise<void> = Promise.resolve();
  const columnCache = new Map<string, Column[]>();
  const shapeCache = new Map<string, TableShape>();
  /** The last transaction whose deleted rows were looked at; its kept rows go once another one's arrive. */
  let lastDeleteTxid: string | null = null;
  const revocation = createRevocationCheck(stack.db, {
    channels: function* () {
      for (const members of topics.values()) yield* members;
    },
    apply(channel, permissions) {
      if (permissions) channel.permissions = permissions;
      else
        shutDown(
          channel,
          `Unauthorized: You do not have permissions to read from this Channel topic: ${channel.topic.slice(9)}`,
        );
    },
    stopped: () => closed,
    log: (line) => stack.log(line),
  });

  const listening = (async () => {
    await syncTriggers(stack.db);
    await clearDeleted(stack.db);
    stopListening = await listenForChanges(stack.db, (change) => {
      // Any committed change may have changed who may read a private channel.
      revocation.request();
      queue = queue.then(() => deliverChange(change)).catch((error) => stack.log(`realtime: ${String(error)}`));
    });
  })().catch((error) => stack.log(`realtime: change capture unavailable: ${String(error)}`));

  function send(conn: Connection, frame: Frame) {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(encodeText(frame));
  }
  function reply(conn: Connection, frame: Frame, status: "ok" | "error", response: Payload) {
    send(conn, {
      joinRef: frame.joinRef,
      ref: frame.ref,
      topic: frame.topic,
      event: "phx_reply",
      payload: { status, response },
    });
  }
  function push(channel: Channel, event: string, payload: unknown) {
    send(channel.conn, { joinRef: channel.joinRef, ref: null, topic: channel.topic, event, payload });
  }

  /** Verifies a token as Realtime does: signature, expiry, and `role` + `exp` present. */
  async function claimsOf(token: string): Promise<{ role: string; claims: Payload } | { error: string }> {
    try {
      const claims = (await stack.keys.verify(token)) as Payload;
      if (typeof claims.role !== "string" || typeof claims.exp !== "number") {
        return { error: "InvalidJWTToken: Fields `role` and `exp` are required in JWT" };
      }
      return { role: claims.role, claims };
    } catch (error) {
      return { error: `InvalidJWTToken: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  async function tokenForApiKey(apikey: string | null): Promise<string | null> {
    if (!apikey) return null;
    const known = keyJwts.get(apikey);
    if (known) return known;
    const verified = await claimsOf(apikey);
    return "error" in verified ? null : apikey;
  }

  function accept(ws: WebSocket, token: string) {
    const conn: Connection = { ws, token, channels: new Map(), queue: Promise.resolve(), closed: false };
    ws.on("message", (data: RawData, isBinary: boolean) => {
      let frame: Frame & { binary?: boolean };
      try {
        frame = isBinary ? decodeBinary(toBytes(data)) : decodeText(toBytes(data).toString());
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

  async function handle(conn: Connection, frame: Frame & { binary?: boolean }) {
    if (frame.topic === "phoenix") {
      if (frame.event === "heartbeat") reply(conn, frame, "ok", {});
      else reply(conn, frame, "error", { reason: "unmatched topic" });
      return;
    }
    if (frame.event === "phx_join") return join(conn, frame);
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
        return refreshToken(channel, frame);
      case "broadcast":
        return broadcast(channel, frame);
      case "presence":
        return presence(channel, frame);
      default:
        reply(conn, frame, "error", { reason: `unknown event: ${frame.event}` });
    }
  }

  async function join(conn: Connection, frame: Frame) {
    if (!frame.topic.startsWith("realtime:") || frame.topic.length === "realtime:".length) {
      return reply(conn, frame, "error", { reason: "unmatched topic" });
    }
    const payload = isObject(frame.payload) ? frame.payload : {};
    const config = isObject(payload.config) ? payload.config : {};
    const broadcastConfig = isObject(config.broadcast) ? config.broadcast : {};
    const presenceConfig = isObject(config.presence) ? config.presence : {};
    const rawToken = typeof payload.access_token === "string" ? payload.access_token : "";
    const token = !rawToken || rawToken.startsWith("sb_") ? conn.token : rawToken;
    const verified = await claimsOf(token);
    if ("error" in verified) return reply(conn, frame, "error", { reason: verified.error });
    let permissions = ALL_PERMISSIONS;
    if (config.private === true) {
      permissions = await channelPermissions(stack.db, frame.topic.slice(9), verified.role, verified.claims);
      if (!permissions.readBroadcast && !permissions.readPresence) {
        return reply(conn, frame, "error", {
          reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${frame.topic.slice(9)}`,
        });
      }
      // Re-checks follow committed changes, so published tables must be capturing them.
      await listening;
      await syncTriggers(stack.db);
    }
    const rawBindings = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
    const bindings: Binding[] = [];
    for (const raw of rawBindings) {
      if (!isObject(raw) || typeof raw.event !== "string" || typeof raw.schema !== "string") {
        return reply(conn, frame, "error", { reason: "Invalid postgres_changes binding" });
      }
      const binding: Binding = {
        event: raw.event,
        schema: raw.schema,
        id: bindingId(raw),
        parsed: null,
        active: true,
      };
      if (typeof raw.table === "string") binding.table = raw.table;
      if (typeof raw.filter === "string") binding.filter = raw.filter;
      bindings.push(binding);
      // Realtime refuses changes of a table the role may not read; wildcard bindings
      // are checked per change instead (the read as the subscriber fails).
      if (binding.table && binding.table !== "*" && binding.schema !== "*") {
        if ((await canSelect(stack.db, verified.role, binding.schema, binding.table)) === false) {
          return reply(conn, frame, "error", {
            reason: `Unauthorized: You do not have permissions to read from this table: ${binding.schema}.${binding.table}`,
          });
        }
      }
    }
    // A second join on the same topic replaces the first (realtime-js rejoins this way).
    const previous = conn.channels.get(frame.topic);
    if (previous) leave(previous);
    const channel: Channel = {
      conn,
      topic: frame.topic,
      joinRef: frame.joinRef ?? frame.ref,
      self: broadcastConfig.self === true,
      ack: broadcastConfig.ack === true,
      presenceKey: typeof presenceConfig.key === "string" && presenceConfig.key ? presenceConfig.key : randomUUID(),
      presenceEnabled: presenceConfig.enabled === true,
      presence: null,
      bindings,
      private: config.private === true,
      permissions,
      role: verified.role,
      claims: verified.claims,
    };
    if (conn.closed) return;
    conn.channels.set(frame.topic, channel);
    watchExpiry(channel);
    const members = topics.get(frame.topic) ?? new Set<Channel>();
    topics.set(frame.topic, members);
    members.add(channel);
    reply(conn, frame, "ok", {
      postgres_changes: bindings.map(({ event, schema, table, filter, id }) => ({ event, schema, table, filter, id })),
    });
    if (channel.presenceEnabled && permissions.readPresence) push(channel, "presence_state", presenceState(channel));
    if (bindings.length > 0) await subscribeChanges(channel);
  }

  /** Validates the bindings against the publication and reports as Realtime's `system` message. */
  async function subscribeChanges(channel: Channel) {
    const channelName = channel.topic.slice("realtime:".length);
    try {
      await listening;
      await syncTriggers(stack.db);
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

  /** Stops a channel for an auth problem: a `system` error, then phx_close. */
  function shutDown(channel: Channel, message: string) {
    if (channel.conn.channels.get(channel.topic) !== channel) return;
    push(channel, "system", { extension: "system", status: "error", message, channel: channel.topic.slice(9) });
    leave(channel);
    channel.conn.channels.delete(channel.topic);
    push(channel, "phx_close", {});
  }

  /** Closes the channel when its token expires, as Realtime does for never-refreshed tokens. */
  function watchExpiry(channel: Channel) {
    clearTimeout(channel.expiry);
    const exp = channel.claims.exp;
    if (typeof exp !== "number") return;
    const delay = exp * 1000 - Date.now();
    if (delay > 2 ** 31 - 1) return;
    channel.expiry = setTimeout(() => shutDown(channel, "Token has expired 0 seconds ago"), Math.max(0, delay));
    channel.expiry.unref?.();
  }

  async function refreshToken(channel: Channel, frame: Frame) {
    const payload = isObject(frame.payload) ? frame.payload : {};
    const token = payload.access_token;
    if (typeof token !== "string" || token.startsWith("sb_")) return;
    const verified = await claimsOf(token);
    if ("error" in verified) return shutDown(channel, verified.error);
    if (channel.private) {
      const permissions = await channelPermissions(stack.db, channel.topic.slice(9), verified.role, verified.claims);
      if (!permissions.readBroadcast && !permissions.readPresence) {
        return shutDown(
          channel,
          `Unauthorized: You do not have permissions to read from this Channel topic: ${channel.topic.slice(9)}`,
        );
      }
      channel.permissions = permissions;
    }
    channel.role = verified.role;
    channel.claims = verified.claims;
    watchExpiry(channel);
  }

  function payloadTooLarge(payload: unknown): boolean {
    if (payload instanceof Uint8Array) return payload.byteLength > MAX_PAYLOAD_BYTES;
    return Buffer.byteLength(JSON.stringify(payload) ?? "") > MAX_PAYLOAD_BYTES;
  }

  function broadcast(channel: Channel, frame: Frame & { binary?: boolean }) {
    const payload = frame.payload;
    if (!isObject(payload) || typeof payload.event !== "string") {
      return reply(channel.conn, frame, "error", { reason: "broadcast needs an event" });
    }
    if (payloadTooLarge(payload.payload)) {
      return reply(channel.conn, frame, "error", {
        reason: `PayloadTooLarge: payload exceeds ${MAX_PAYLOAD_BYTES} bytes`,
      });
    }
    if (!channel.permissions.writeBroadcast) {
      return reply(channel.conn, frame, "error", {
        reason: `Unauthorized: You do not have permissions to write to this Channel topic: ${channel.topic.slice(9)}`,
      });
    }
    fanOut(channel.topic, channel.private, payload.event, payload.payload, channel);
    if (channel.ack) reply(channel.conn, frame, "ok", {});
  }

  /** Sends a broadcast to every channel on the topic (the sender only with `self`). */
  function fanOut(topic: string, isPrivate: boolean, event: string, userPayload: unknown, sender: Channel | null) {
    const binary = userPayload instanceof Uint8Array;
    const frame = binary
      ? encodeUserBroadcast(topic, event, userPayload)
      : encodeText({
          joinRef: null,
          ref: null,
          topic,
          event: "broadcast",
          payload: { type: "broadcast", event, payload: userPayload },
        });
    const deliver = () => {
      for (const member of topics.get(topic) ?? []) {
        if ((member === sender && !member.self) || member.private !== isPrivate || !member.permissions.readBroadcast)
          continue;
        if (member.conn.ws.readyState === member.conn.ws.OPEN) member.conn.ws.send(frame);
      }
    };
    // A re-check under way may be about to shut a reader out: private broadcasts wait for it.
    if (isPrivate && revocation.running()) void revocation.settled().then(deliver);
    else deliver();
  }

  function presence(channel: Channel, frame: Frame) {
    const payload = isObject(frame.payload) ? frame.payload : {};
    if ((payload.event === "track" || payload.event === "untrack") && !channel.permissions.writePresence) {
      return reply(channel.conn, frame, "error", {
        reason: `Unauthorized: You do not have permissions to track presence on this Channel topic: ${channel.topic.slice(9)}`,
      });
    }
    if (payload.event === "track") {
      const meta = isObject(payload.payload) ? payload.payload : {};
      if (payloadTooLarge(meta)) {
        return reply(channel.conn, frame, "error", {
          reason: `PayloadTooLarge: payload exceeds ${MAX_PAYLOAD_BYTES} bytes`,
        });
      }
      const previous = channel.presence;
      const { phx_ref: _ref, phx_ref_prev: _prev, ...previousMeta } = previous ?? {};
      if (previous && JSON.stringify(previousMeta) === JSON.stringify(meta))
        return reply(channel.conn, frame, "ok", {});
      channel.presence = { ...meta, phx_ref: nextPresenceRef() };
      const joined = previous ? { ...channel.presence, phx_ref_prev: previous.phx_ref } : channel.presence;
      presenceDiff(
        channel,
        { [channel.presenceKey]: { metas: [joined] } },
        previous ? { [channel.presenceKey]: { metas: [previous] } } : {},
      );
      return reply(channel.conn, frame, "ok", {});
    }
    if (payload.event === "untrack") {
      untrack(channel);
      return reply(channel.conn, frame, "ok", {});
    }
    return reply(channel.conn, frame, "error", { reason: "presence event must be track or untrack" });
  }

  function nextPresenceRef(): string {
    presenceCounter += 1;
    return `F${Date.now().toString(36)}${presenceCounter.toString(36)}`;
  }

  function untrack(channel: Channel) {
    const previous = channel.presence;
    if (!previous) return;
    channel.presence = null;
    presenceDiff(channel, {}, { [channel.presenceKey]: { metas: [previous] } });
  }

  /** Presence of the channel's topic (private and public channels of a name are apart). */
  function presenceState(of: Channel): Payload {
    const state: Record<string, { metas: Payload[] }> = {};
    for (const member of topics.get(of.topic) ?? []) {
      if (!member.presence || member.private !== of.private) continue;
      const entry = state[member.presenceKey] ?? { metas: [] };
      entry.metas.push(member.presence);
      state[member.presenceKey] = entry;
    }
    return state;
  }

  function presenceDiff(of: Channel, joins: Payload, leaves: Payload) {
    for (const member of topics.get(of.topic) ?? []) {
      if (member.private === of.private && member.permissions.readPresence)
        push(member, "presence_diff", { joins, leaves });
    }
  }

  /** Removes a channel from its topic, dropping its presence (socket drop, leave, rejoin). */
  function leave(channel: Channel) {
    clearTimeout(channel.expiry);
    const members = topics.get(channel.topic);
    if (!members?.delete(channel)) return;
    if (members.size === 0) topics.delete(channel.topic);
    untrack(channel);
  }

  /** Channels and bindings that listen for this change (before any RLS check). */
  function listenersOf(change: ChangeEvent): Array<{ channel: Channel; binding: Binding }> {
    const subscribers: Array<{ channel: Channel; binding: Binding }> = [];
    for (const members of topics.values()) {
      for (const channel of members) {
        for (const binding of channel.bindings) {
          if (!binding.active) continue;
          if (binding.schema !== "*" && binding.schema !== change.schema) continue;
          if (binding.table && binding.table !== "*" && binding.table !== change.table) continue;
          if (binding.event !== "*" && binding.event !== change.type) continue;
          subscribers.push({ channel, binding });
        }
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
    accept,
    tokenForApiKey,
    claimsOf,
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
      closed = true;
      hubs.delete(stack);
      await listening;
      await queue.catch(() => undefined);
      await revocation.settled();
      await stopListening?.();
      topics.clear();
    },
  };
}

function toBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** A stable positive 32-bit id for a binding, as Realtime's `:erlang.phash2(params)`. */
function bindingId(params: Payload): number {
  const text = JSON.stringify([params.event, params.schema, params.table ?? null, params.filter ?? null]);
  return createHash("sha1").update(text).digest().readUInt32BE(0) & 0x7ffffff || 1;
}
