import type { WebSocket } from "ws";
import type { Permissions } from "./changes.js";
import type { Filter } from "./filters.js";
import { encodeText, encodeTextWithJson, type Frame, type Vsn } from "./protocol.js";

/** One `postgres_changes` entry of a join's config. */
export interface Binding {
  event: string;
  schema: string;
  table?: string;
  filter?: string;
  /** Columns to send instead of the whole row. */
  select?: string[];
  id: number;
  /** The filter's conditions (none without a filter). */
  parsed: Filter;
  /** False when the binding was rejected (table not published, bad filter). */
  active: boolean;
}

/** A joined topic on one connection. */
export interface Channel {
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
  /** The access token the channel acts as (the join's, then each refreshed one). */
  token: string;
  role: string;
  claims: Record<string, unknown>;
}

export interface Connection {
  ws: WebSocket;
  /** The protocol version this socket speaks. */
  vsn: Vsn;
  token: string;
  channels: Map<string, Channel>;
  /** Frames of one socket are handled in order, one at a time. */
  queue: Promise<void>;
  closed: boolean;
}

export type Payload = Record<string, unknown>;

export const isObject = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `realtime:room` → `room`, the name Realtime's messages and policies use. */
export const subTopicOf = (topic: string): string => topic.slice("realtime:".length);

export function send(conn: Connection, frame: Frame) {
  if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(encodeText(frame, conn.vsn));
}

export function reply(conn: Connection, frame: Frame, status: "ok" | "error", response: Payload) {
  send(conn, {
    joinRef: frame.joinRef,
    ref: frame.ref,
    topic: frame.topic,
    event: "phx_reply",
    payload: { status, response },
  });
}

/** A server push on a joined channel. */
export function push(channel: Channel, event: string, payload: unknown) {
  send(channel.conn, { joinRef: channel.joinRef, ref: null, topic: channel.topic, event, payload });
}

/** A server push whose payload is already JSON (see encodeTextWithJson). */
export function pushJson(channel: Channel, event: string, payloadJson: string) {
  const { conn } = channel;
  if (conn.ws.readyState !== conn.ws.OPEN) return;
  conn.ws.send(
    encodeTextWithJson({ joinRef: channel.joinRef, ref: null, topic: channel.topic, event }, payloadJson, conn.vsn),
  );
}
