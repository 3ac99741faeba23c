import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";

/** Supabase Storage-compatible `/storage/v1`. */
export function storageRouter(_stack: Stack): Hono<StackEnv> {
  return new Hono<StackEnv>();
}
