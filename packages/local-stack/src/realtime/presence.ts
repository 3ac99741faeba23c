import { payloadTooLarge, tooLargeReason } from "./broadcast.js";
import { type Channel, isObject, type Payload, push, reply, subTopicOf } from "./channel.js";
import type { Frame } from "./protocol.js";

let presenceCounter = 0;

/** A phx_ref: unique per track, as Phoenix.Presence's. */
function nextPresenceRef(): string {
  presenceCounter += 1;
  return `F${Date.now().toString(36)}${presenceCounter.toString(36)}`;
}

/** Handles a `presence` push (track / untrack); `members` are the channels of its topic. */
export function handlePresence(channel: Channel, frame: Frame, members: Iterable<Channel>) {
  const payload = isObject(frame.payload) ? frame.payload : {};
  if ((payload.event === "track" || payload.event === "untrack") && !channel.permissions.writePresence) {
    return reply(channel.conn, frame, "error", {
      reason: `Unauthorized: You do not have permissions to track presence on this Channel topic: ${subTopicOf(channel.topic)}`,
    });
  }
  if (payload.event === "track") {
    const meta = isObject(payload.payload) ? payload.payload : {};
    if (payloadTooLarge(meta)) return reply(channel.conn, frame, "error", { reason: tooLargeReason });
    const previous = channel.presence;
    const { phx_ref: _ref, phx_ref_prev: _prev, ...previousMeta } = previous ?? {};
    if (previous && JSON.stringify(previousMeta) === JSON.stringify(meta)) return reply(channel.conn, frame, "ok", {});
    channel.presence = { ...meta, phx_ref: nextPresenceRef() };
    const joined = previous ? { ...channel.presence, phx_ref_prev: previous.phx_ref } : channel.presence;
    presenceDiff(
      channel,
      members,
      { [channel.presenceKey]: { metas: [joined] } },
      previous ? { [channel.presenceKey]: { metas: [previous] } } : {},
    );
    return reply(channel.conn, frame, "ok", {});
  }
  if (payload.event === "untrack") {
    untrack(channel, members);
    return reply(channel.conn, frame, "ok", {});
  }
  return reply(channel.conn, frame, "error", { reason: "presence event must be track or untrack" });
}

/** Drops a channel's tracked presence, telling the topic. */
export function untrack(channel: Channel, members: Iterable<Channel>) {
  const previous = channel.presence;
  if (!previous) return;
  channel.presence = null;
  presenceDiff(channel, members, {}, { [channel.presenceKey]: { metas: [previous] } });
}

/** Presence of the channel's topic (private and public channels of a name are apart). */
export function presenceState(of: Channel, members: Iterable<Channel>): Payload {
  const state: Record<string, { metas: Payload[] }> = {};
  for (const member of members) {
    if (!member.presence || member.private !== of.private) continue;
    const entry = state[member.presenceKey] ?? { metas: [] };
    entry.metas.push(member.presence);
    state[member.presenceKey] = entry;
  }
  return state;
}

function presenceDiff(of: Channel, members: Iterable<Channel>, joins: Payload, leaves: Payload) {
  for (const member of members) {
    if (member.private === of.private && member.permissions.readPresence)
      push(member, "presence_diff", { joins, leaves });
  }
}
