/**
 * A Phoenix message. Connections speak vsn 2.0.0 (arrays and binary frames, what
 * realtime-js sends by default) or vsn 1.0.0 (JSON objects only), chosen by the
 * `vsn` query parameter as Phoenix does; 1.0.0 when it is absent.
 */
export type Vsn = "1.0.0" | "2.0.0";

/** The protocol a `vsn` query parameter asks for, or null when none is served. */
export function vsnOf(param: string | null): Vsn | null {
  if (param === null || /^1\.\d+\.\d+$/.test(param)) return "1.0.0";
  if (/^2\.\d+\.\d+$/.test(param)) return "2.0.0";
  return null;
}

export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

export class FrameError extends Error {}

const textDecoder = new TextDecoder("utf-8", { fatal: true });
const textEncoder = new TextEncoder();

/** Decodes a text frame of the connection's protocol. */
export function decodeText(text: string, vsn: Vsn = "2.0.0"): Frame {
  return vsn === "1.0.0" ? decodeObject(text) : decodeArray(text);
}

/** vsn 1.0.0: `{"topic", "event", "payload", "ref", "join_ref"?}`; all but join_ref required, as Phoenix. */
function decodeObject(text: string): Frame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FrameError("malformed JSON frame");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new FrameError("frame must be an object with topic, event, payload and ref");
  const message = parsed as Record<string, unknown>;
  for (const key of ["topic", "event", "payload", "ref"]) {
    if (!(key in message)) throw new FrameError(`missing key "${key}"`);
  }
  const { topic, event, payload, ref } = message;
  const joinRef = message.join_ref;
  if (!isRef(joinRef) || !isRef(ref) || typeof topic !== "string" || typeof event !== "string") {
    throw new FrameError("malformed frame header");
  }
  return { joinRef: joinRef ?? null, ref: ref ?? null, topic, event, payload };
}

/** vsn 2.0.0: `[join_ref, ref, topic, event, payload]`. */
function decodeArray(text: string): Frame {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new FrameError("malformed JSON frame");
  }
  if (!Array.isArray(parsed) || parsed.length !== 5)
    throw new FrameError("frame must be [join_ref, ref, topic, event, payload]");
  const [joinRef, ref, topic, event, payload] = parsed as unknown[];
  if (!isRef(joinRef) || !isRef(ref) || typeof topic !== "string" || typeof event !== "string") {
    throw new FrameError("malformed frame header");
  }
  return { joinRef: joinRef ?? null, ref: ref ?? null, topic, event, payload };
}

function isRef(value: unknown): value is string | null | undefined {
  return value === null || value === undefined || typeof value === "string";
}

/**
 * Decodes binary kind 3 (user broadcast push): header bytes kind, len(join_ref),
 * len(ref), len(topic), len(event), len(metadata), encoding (0 binary, 1 JSON).
 */
export function decodeBinary(bytes: Uint8Array): Frame & { binary: boolean } {
  if (bytes.length < 7 || bytes[0] !== 3) throw new FrameError("unsupported binary frame");
  const lengths = [bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]] as number[];
  const encoding = bytes[6];
  let offset = 7;
  const fields: string[] = [];
  for (const length of lengths) {
    if (offset + length > bytes.length) throw new FrameError("truncated binary frame");
    try {
      fields.push(textDecoder.decode(bytes.subarray(offset, offset + length)));
    } catch {
      throw new FrameError("invalid UTF-8 in binary frame");
    }
    offset += length;
  }
  const [joinRef, ref, topic, userEvent, metadata] = fields as [string, string, string, string, string];
  const body = bytes.subarray(offset);
  let userPayload: unknown;
  if (encoding === 1) {
    try {
      userPayload = JSON.parse(textDecoder.decode(body));
    } catch {
      throw new FrameError("malformed JSON payload in binary frame");
    }
  } else if (encoding === 0) {
    userPayload = body.slice();
  } else {
    throw new FrameError("unknown payload encoding");
  }
  const payload: Record<string, unknown> = { type: "broadcast", event: userEvent, payload: userPayload };
  if (metadata) {
    try {
      payload.meta = JSON.parse(metadata);
    } catch {
      throw new FrameError("malformed metadata in binary frame");
    }
  }
  return { joinRef: joinRef || null, ref: ref || null, topic, event: "broadcast", payload, binary: encoding === 0 };
}

/**
 * A text frame around a payload already encoded as JSON, so one payload sent to
 * many channels is encoded once.
 */
export function encodeTextWithJson(frame: Omit<Frame, "payload">, payloadJson: string, vsn: Vsn): string {
  if (vsn === "1.0.0")
    return `{"topic":${JSON.stringify(frame.topic)},"event":${JSON.stringify(frame.event)},"payload":${payloadJson},"ref":${JSON.stringify(frame.ref)}}`;
  return `${JSON.stringify([frame.joinRef, frame.ref, frame.topic, frame.event]).slice(0, -1)},${payloadJson}]`;
}

/** A text frame in the connection's protocol (vsn 1.0.0 leaves join_ref out, as Phoenix's V1 serializer). */
export function encodeText(frame: Frame, vsn: Vsn = "2.0.0"): string {
  if (vsn === "1.0.0")
    return JSON.stringify({ topic: frame.topic, event: frame.event, payload: frame.payload, ref: frame.ref });
  return JSON.stringify([frame.joinRef, frame.ref, frame.topic, frame.event, frame.payload]);
}

/** Binary kind 4 (user broadcast, server to client) for binary payloads. */
export function encodeUserBroadcast(topic: string, event: string, payload: Uint8Array, meta?: object): Buffer {
  const t = textEncoder.encode(topic);
  const e = textEncoder.encode(event);
  const m = textEncoder.encode(meta ? JSON.stringify(meta) : "");
  if (t.length > 255 || e.length > 255 || m.length > 255) throw new FrameError("topic, event or metadata too long");
  return Buffer.concat([Buffer.from([4, t.length, e.length, m.length, 0]), t, e, m, payload]);
}

/**
 * A broadcast to subscribers: binary payloads as kind 4 frames (vsn 2.0.0 only;
 * null for vsn 1.0.0, which cannot carry them, as in Realtime), JSON in a text frame.
 * `meta` (Realtime's `{ id }` of stored messages) goes out beside the payload.
 */
export function encodeBroadcast(
  topic: string,
  event: string,
  payload: unknown,
  vsn: Vsn,
  meta?: object,
): string | Buffer | null {
  if (payload instanceof Uint8Array) return vsn === "2.0.0" ? encodeUserBroadcast(topic, event, payload, meta) : null;
  const message = meta ? { type: "broadcast", event, payload, meta } : { type: "broadcast", event, payload };
  return encodeText({ joinRef: null, ref: null, topic, event: "broadcast", payload: message }, vsn);
}
