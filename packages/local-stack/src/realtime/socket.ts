import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { Stack } from "../stack.js";
import { createHub, type Hub } from "./hub.js";
import { deliverDatabaseBroadcasts } from "./messages.js";
import { vsnOf } from "./protocol.js";

export const REALTIME_PATH = "/realtime/v1/websocket";
/** Largest WebSocket message; larger ones close the connection with 1009 (the server stays up). */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

const hubs = new WeakMap<Stack, Hub>();

/**
 * The running realtime hub of a stack, if attached: the HTTP broadcast API and
 * database messages deliver through its `fanOut` / `broadcast`.
 */
export function realtimeOf(stack: Stack): Hub | undefined {
  return hubs.get(stack);
}

/** Serves `/realtime/v1/websocket` on the stack's HTTP server; returns a function that closes it. */
export function attachRealtime(stack: Stack, server: Server): () => Promise<void> {
  const hub = createHub(stack);
  hubs.set(stack, hub);
  // realtime.send and the like: committed rows of realtime.messages go out as server broadcasts.
  const stopDatabaseBroadcasts = deliverDatabaseBroadcasts(stack, (topic, isPrivate, event, payload, meta) =>
    hub.fanOut(`realtime:${topic}`, isPrivate, event, payload, null, meta),
  );
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== REALTIME_PATH) return;
    const apikey = url.searchParams.get("apikey") ?? headerOf(request, "x-api-key") ?? headerOf(request, "apikey");
    const vsn = vsnOf(url.searchParams.get("vsn"));
    if (!vsn) {
      socket.end("HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nUnsupported vsn");
      return;
    }
    hub.tokenForApiKey(apikey).then(
      (token) => {
        if (!token) {
          socket.end("HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nInvalid API key");
          return;
        }
        wss.handleUpgrade(request, socket, head, (ws) => hub.accept(ws, token, vsn));
      },
      () => socket.destroy(),
    );
  };
  server.on("upgrade", onUpgrade);
  return async () => {
    server.off("upgrade", onUpgrade);
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    hubs.delete(stack);
    await stopDatabaseBroadcasts();
    await hub.close();
  };
}

function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === "string" ? value : null;
}
