import { randomUUID } from "node:crypto";
import type { Keys } from "../keys/keys.js";
import { ALL_PERMISSIONS, channelPermissions } from "./changes.js";
import { type Channel, type Connection, isObject, type Payload, push, reply, subTopicOf } from "./channel.js";
import type { Hub } from "./hub.js";
import { presenceState } from "./presence.js";
import type { Frame } from "./protocol.js";
import { pushReplayed, replayMessages, replayRequest } from "./replay.js";

export type Verified = { role: string; claims: Payload } | { error: string };

/** Verifies a token as Realtime does: signature, expiry, and `role` + `exp` present. */
export async function claimsOf(keys: Keys, token: string): Promise<Verified> {
  try {
    const claims = (await keys.verify(token)) as Payload;
    if (typeof claims.role !== "string" || typeof claims.exp !== "number") {
      return { error: "InvalidJWTToken: Fields `role` and `exp` are required in JWT" };
    }
    return { role: claims.role, claims };
  } catch (error) {
    return { error: `InvalidJWTToken: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const readDenied = (topic: string) =>
  `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopicOf(topic)}`;

/** Handles `phx_join`: token, private channel policies, bindings; then joins the topic. */
export async function join(hub: Hub, conn: Connection, frame: Frame) {
  if (!frame.topic.startsWith("realtime:") || frame.topic.length === "realtime:".length) {
    return reply(conn, frame, "error", { reason: "unmatched topic" });
  }
  const payload = isObject(frame.payload) ? frame.payload : {};
  const config = isObject(payload.config) ? payload.config : {};
  const broadcastConfig = isObject(config.broadcast) ? config.broadcast : {};
  const presenceConfig = isObject(config.presence) ? config.presence : {};
  const rawToken = typeof payload.access_token === "string" ? payload.access_token : "";
  const token = !rawToken || rawToken.startsWith("sb_") ? conn.token : rawToken;
  const verified = await claimsOf(hub.stack.keys, token);
  if ("error" in verified) return reply(conn, frame, "error", { reason: verified.error });
  let permissions = ALL_PERMISSIONS;
  if (config.private === true) {
    permissions = await channelPermissions(hub.stack.db, subTopicOf(frame.topic), verified.role, verified.claims);
    if (!permissions.readBroadcast && !permissions.readPresence) {
      return reply(conn, frame, "error", { reason: readDenied(frame.topic) });
    }
    // Strict mode re-checks after committed changes, so published tables must be capturing them.
    if (hub.stack.strict) await hub.changes.capturing();
  }
  // Replay needs broadcast read access, and only private channels have stored messages.
  if ("replay" in broadcastConfig && config.private === true && !permissions.readBroadcast) {
    return reply(conn, frame, "error", { reason: readDenied(frame.topic) });
  }
  const replay = replayRequest(broadcastConfig, config.private === true);
  if ("error" in replay) return reply(conn, frame, "error", { reason: replay.error });
  const bindings = await hub.changes.bindingsOf(config.postgres_changes, verified.role);
  if ("error" in bindings) return reply(conn, frame, "error", { reason: bindings.error });
  // Database broadcasts sent after this join must reach it.
  await hub.databaseBroadcastsReady;
  const replayed = replay.request
    ? await replayMessages(hub.stack.db, subTopicOf(frame.topic), replay.request, {
        // Strict mode reads each stored message under the joiner's SELECT policies.
        asReader: hub.stack.strict ? { role: verified.role, claims: verified.claims } : null,
      })
    : [];
  // A second join on the same topic replaces the first (realtime-js rejoins this way).
  const previous = conn.channels.get(frame.topic);
  if (previous) hub.leave(previous);
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
    token,
    role: verified.role,
    claims: verified.claims,
  };
  // The subscription is live before the reply, so SUBSCRIBED means changes arrive from then on.
  // With postgres_changes_options.wait a failure is the join's error, as Realtime answers it.
  const options = isObject(config.postgres_changes_options) ? config.postgres_changes_options : {};
  const wait = options.wait === true || options.wait === "true";
  const failed = bindings.length > 0 ? await hub.changes.validate(channel) : null;
  if (wait && failed) return reply(conn, frame, "error", { reason: `RealtimeDisabledForConfiguration: ${failed}` });
  if (conn.closed) return;
  hub.add(channel);
  watchExpiry(hub, channel);
  reply(conn, frame, "ok", {
    postgres_changes: bindings.map(({ event, schema, table, filter, select, id }) =>
      select === undefined ? { event, schema, table, filter, id } : { event, schema, table, filter, select, id },
    ),
  });
  pushReplayed(channel, replayed);
  if (channel.presenceEnabled && permissions.readPresence)
    push(channel, "presence_state", presenceState(channel, hub.members(channel.topic)));
  if (broadcastConfig.replication_ready === true) void announceReplication(hub, channel);
  if (bindings.length > 0) hub.changes.report(channel, failed);
}

/**
 * `broadcast.replication_ready`: a `system` message once changes are being
 * captured, or an error and the channel closed when capture cannot start.
 */
async function announceReplication(hub: Hub, channel: Channel) {
  const capturing = await hub.changes.capturing().then(
    () => hub.changes.running(),
    () => false,
  );
  if (channel.conn.channels.get(channel.topic) !== channel) return;
  if (!capturing) return shutDown(hub, channel, "Replication connection was not established in time");
  push(channel, "system", {
    extension: "system",
    status: "ok",
    message: "Replication connection established",
    channel: subTopicOf(channel.topic),
  });
}

/** Stops a channel for an auth problem: a `system` error, then phx_close. */
export function shutDown(hub: Hub, channel: Channel, message: string) {
  if (channel.conn.channels.get(channel.topic) !== channel) return;
  push(channel, "system", { extension: "system", status: "error", message, channel: subTopicOf(channel.topic) });
  hub.leave(channel);
  channel.conn.channels.delete(channel.topic);
  push(channel, "phx_close", {});
}

/** Strict mode: stops a private channel whose reader lost access after a change (revocation.ts). */
export const revoke = (hub: Hub, channel: Channel) => shutDown(hub, channel, readDenied(channel.topic));

/** Closes the channel when its token expires, as Realtime does for never-refreshed tokens. */
function watchExpiry(hub: Hub, channel: Channel) {
  clearTimeout(channel.expiry);
  const exp = channel.claims.exp;
  if (typeof exp !== "number") return;
  const delay = exp * 1000 - Date.now();
  if (delay > 2 ** 31 - 1) return;
  channel.expiry = setTimeout(() => shutDown(hub, channel, "Token has expired 0 seconds ago"), Math.max(0, delay));
  channel.expiry.unref?.();
}

/**
 * Handles `access_token`: a new token for the channel, checked as at join, as
 * Realtime does; this is when hosted Realtime re-evaluates a private channel's
 * policies. The token the channel already has changes nothing. A reader left with
 * no read access, or who lost broadcast or presence read, is shut out.
 */
export async function refreshToken(hub: Hub, channel: Channel, frame: Frame) {
  const payload = isObject(frame.payload) ? frame.payload : {};
  const token = payload.access_token;
  if (typeof token !== "string" || token.startsWith("sb_") || token === channel.token) return;
  const verified = await claimsOf(hub.stack.keys, token);
  if ("error" in verified) return shutDown(hub, channel, verified.error);
  if (channel.private) {
    const name = subTopicOf(channel.topic);
    const permissions = await channelPermissions(hub.stack.db, name, verified.role, verified.claims);
    if (!permissions.readBroadcast && !permissions.readPresence) {
      return shutDown(hub, channel, `You do not have permissions to read from this Channel topic: ${name}`);
    }
    const previous = channel.permissions;
    if (
      (previous.readBroadcast && !permissions.readBroadcast) ||
      (previous.readPresence && !permissions.readPresence)
    ) {
      return shutDown(hub, channel, `You no longer have permission to read from this Channel topic: ${name}`);
    }
    channel.permissions = permissions;
  }
  channel.token = token;
  channel.role = verified.role;
  channel.claims = verified.claims;
  watchExpiry(hub, channel);
}
