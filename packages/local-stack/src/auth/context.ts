/** What the auth routes share, and request-reading helpers. */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { readCappedText } from "../gateway/capped-body.js";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { AuthError, badRequest } from "./errors.js";
import type { RateLimiter } from "./rate-limit.js";

export interface Auth {
  stack: Stack;
  limiter: RateLimiter;
}

export type AuthContext = Context<StackEnv>;

/** GoTrue reads at most 1 MiB of a request body (limitRequestBody). */
const maxBodyBytes = 1 << 20;

/** The JSON body as an object (GoTrue ignores unknown keys); an empty body is `{}`. */
export async function readBody(c: AuthContext): Promise<Record<string, unknown>> {
  const text = await readCappedText(c.req.raw, maxBodyBytes);
  if (text === null) {
    throw new AuthError(413, "request_entity_too_large", `Request body too large (max ${maxBodyBytes} bytes)`);
  }
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw badRequest("bad_json", "Could not parse request body as JSON");
}

/** The client the rate limits count against: its IP address, as GoTrue without a rate-limit header. */
export function clientKey(c: AuthContext): string {
  try {
    return getConnInfo(c).remote.address ?? "local";
  } catch {
    // Not served by @hono/node-server (e.g. app.request in a unit test).
    return "local";
  }
}

/** `[auth] enable_anonymous_sign_ins`, off unless config.toml turns it on (as the CLI). */
export const anonymousSignInsEnabled = (stack: Stack) => stack.config.auth.enableAnonymousSignIns;

export const str = (value: unknown) => (typeof value === "string" ? value : undefined);

/** Whether `value` is written as a UUID, as GoTrue checks ids in paths and bodies. */
export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export const record = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
