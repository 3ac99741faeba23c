import { type Context, Hono } from "hono";
import { readCappedBody, readCappedText } from "../gateway/capped-body.js";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { socketRoute } from "./socket.js";

/** Plug.Parsers' default length, which Realtime's endpoint keeps. */
const maxBodyBytes = 8_000_000;

/** Plug's RequestTooLargeError, rendered by Realtime's error view (the status's message). */
const tooLarge = (c: Context) => c.json("Request Entity Too Large", 413);

const notJson = Symbol("not JSON");
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return notJson;
  }
}

/**
 * Realtime's socket (`/realtime/v1/websocket`) and its HTTP broadcast API
 * (`/realtime/v1/api/broadcast`): what channel.send() uses before joining and
 * channel.httpSend() always. The broadcast API answers 202 with no body.
 */
export function realtimeRouter(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { hub } = stack.realtime;

  app.get("/websocket", socketRoute(hub));

  const authorize = async (bearer: string | null | undefined) => {
    if (!bearer) return { error: "Unauthorized", status: 401 as const };
    const verified = await hub.claimsOf(bearer);
    if ("error" in verified) return { error: verified.error, status: 401 as const };
    return { hub, role: verified.role, claims: verified.claims };
  };

  app.post("/api/broadcast", async (c) => {
    const auth = await authorize(c.get("bearer"));
    if ("error" in auth) return c.json({ message: auth.error }, auth.status);
    const text = await readCappedText(c.req.raw, maxBodyBytes);
    if (text === null) return tooLarge(c);
    const parsed = parseJson(text);
    const body = (parsed === notJson ? null : parsed) as { messages?: unknown } | null;
    const messages = body?.messages;
    if (!Array.isArray(messages) || messages.length === 0) {
      return c.json({ errors: { messages: ["can't be blank"] } }, 422);
    }
    const valid = messages.every(
      (m) =>
        typeof m === "object" && m !== null && typeof m.topic === "string" && m.topic && typeof m.event === "string",
    );
    if (!valid) return c.json({ errors: { messages: ["topic and event are required"] } }, 422);
    for (const message of messages as Array<{ topic: string; event: string; payload?: unknown; private?: unknown }>) {
      if (auth.hub.payloadTooLarge(message.payload ?? {})) return c.json({ message: "Payload too large" }, 413);
    }
    for (const message of messages as Array<{ topic: string; event: string; payload?: unknown; private?: unknown }>) {
      // Private channels: sent only where INSERT policies on realtime.messages allow it.
      if (message.private === true && !(await auth.hub.canSendPrivate(message.topic, auth.role, auth.claims))) continue;
      auth.hub.broadcast(message.topic, message.private === true, message.event, message.payload ?? {});
    }
    return c.body(null, 202);
  });

  app.post("/api/broadcast/:topic/events/:event", async (c) => {
    const auth = await authorize(c.get("bearer"));
    if ("error" in auth) return c.json({ message: auth.error }, auth.status);
    const isPrivate = c.req.query("private") === "true";
    if (isPrivate && !(await auth.hub.canSendPrivate(c.req.param("topic"), auth.role, auth.claims))) {
      return c.json({ error: "Unauthorized" }, 403);
    }
    const binary = (c.req.header("content-type") ?? "").startsWith("application/octet-stream");
    let payload: unknown;
    const body = await readCappedBody(c.req.raw, maxBodyBytes);
    if (body === null) return tooLarge(c);
    if (binary) {
      payload = body;
    } else {
      payload = parseJson(new TextDecoder().decode(body));
      if (payload === notJson) return c.json({ error: "Invalid JSON body" }, 400);
    }
    if (auth.hub.payloadTooLarge(payload)) return c.json({ error: "Payload too large" }, 413);
    auth.hub.broadcast(c.req.param("topic"), isPrivate, c.req.param("event"), payload);
    return c.body(null, 202);
  });

  return app;
}
