import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";

/** GoTrue-compatible `/auth/v1`. */
export function authRouter(_stack: Stack): Hono<StackEnv> {
  return new Hono<StackEnv>();
}
