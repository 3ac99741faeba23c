import { type Channel, isObject, reply, subTopicOf } from "./channel.js";
import type { Frame } from "./protocol.js";

/** Largest broadcast or presence payload accepted (bytes of JSON); larger pushes get an error reply. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;
export const tooLargeReason = `PayloadTooLarge: payload exceeds ${MAX_PAYLOAD_BYTES} bytes`;

export function payloadTooLarge(payload: unknown): boolean {
  if (payload instanceof Uint8Array) return payload.byteLength > MAX_PAYLOAD_BYTES;
  return Buffer.byteLength(JSON.stringify(payload) ?? "") > MAX_PAYLOAD_BYTES;
}

/** Sends a broadcast to a topic's members; see Hub.fanOut. */
export type FanOut = (
  topic: string,
  isPrivate: boolean,
  event: string,
  payload: unknown,
  sender: Channel | null,
) => void;

/** Handles a client's `broadcast` push: checks it, fans it out, acks when asked to. */
export function handleBroadcast(channel: Channel, frame: Frame, fanOut: FanOut) {
  const payload = frame.payload;
  if (!isObject(payload) || typeof payload.event !== "string") {
    return reply(channel.conn, frame, "error", { reason: "broadcast needs an event" });
  }
  if (payloadTooLarge(payload.payload)) return reply(channel.conn, frame, "error", { reason: tooLargeReason });
  if (!channel.permissions.writeBroadcast) {
    return reply(channel.conn, frame, "error", {
      reason: `Unauthorized: You do not have permissions to write to this Channel topic: ${subTopicOf(channel.topic)}`,
    });
  }
  fanOut(channel.topic, channel.private, payload.event, payload.payload, channel);
  if (channel.ack) reply(channel.conn, frame, "ok", {});
}
