import { upgradeWebSocket } from "@hono/node-server";
import type { Handler } from "hono";
import { type WebSocket, WebSocketServer } from "ws";
import type { StackEnv } from "../gateway/gateway.js";
import type { StackParts } from "../stack.js";
import { createHub, type Hub } from "./hub.js";
import { vsnOf } from "./protocol.js";

/** Largest WebSocket message; larger ones close the connection with 1009 (the server stays up). */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** A stack's realtime: the hub, and the WebSocket server its sockets are accepted by. */
export interface Realtime {
  /** Connections and topics: the socket route, the HTTP broadcast API and database messages deliver through it. */
  hub: Hub;
  /** Handed to `serve()`, which passes it the upgrades the app's socket route accepts. */
  sockets: WebSocketServer;
  /** Drops every socket, then stops the hub. */
  close(): Promise<void>;
}

export function createRealtime(stack: StackParts): Realtime {
  const hub = createHub(stack);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  return {
    hub,
    sockets,
    async close() {
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      await hub.close();
    },
  };
}

/**
 * `/realtime/v1/websocket`. The gateway has checked the API key and left the
 * JWT the socket acts as in `bearer`; a `vsn` the socket does not speak is refused with 403.
 */
export function socketRoute(hub: Hub): Handler<StackEnv> {
  return (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") return c.notFound();
    const vsn = vsnOf(new URL(c.req.url).searchParams.get("vsn"));
    if (!vsn) return c.text("Unsupported vsn", 403);
    const token = c.get("bearer");
    if (!token) return c.text("Invalid API key", 403);
    // serve() was given ws's server, so the raw socket is ws's WebSocket.
    return upgradeWebSocket(c, { onOpen: (_event, ws) => hub.accept(ws.raw as WebSocket, token, vsn) });
  };
}
