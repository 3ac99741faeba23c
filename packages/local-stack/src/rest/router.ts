import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";

/** PostgREST-compatible `/rest/v1`. */
export function restRouter(_stack: Stack): Hono<StackEnv> {
  return new Hono<StackEnv>();
}
