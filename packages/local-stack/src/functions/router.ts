import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";

/** Edge functions at `/functions/v1/<name>`. */
export function functionsRouter(_stack: Stack): Hono<StackEnv> {
  return new Hono<StackEnv>();
}
