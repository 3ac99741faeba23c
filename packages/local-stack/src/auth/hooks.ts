/**
 * Auth hooks that are Postgres functions, called as GoTrue calls them
 * (internal/hooks/hookspgfunc): in a transaction of their own, as
 * supabase_auth_admin, with a 2 s statement timeout, the input as one JSON
 * argument; an answer `{"error": {"http_code", "message"}}` fails the request.
 */
import { randomUUID } from "node:crypto";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { PgFunctionHook } from "../config/config.js";
import type { Stack } from "../stack.js";
import { AuthError } from "./errors.js";

/** GoTrue's hook timeout for Postgres functions. */
const hookTimeoutMs = 2000;

/** Every hook's input starts with this (GoTrue's v0hooks.Metadata). */
function metadata(name: string, ipAddress: string) {
  return { uuid: randomUUID(), time: new Date().toISOString(), name, ip_address: ipAddress };
}

/** hookserrors.Check: an error object with a message fails the request, with its status or 500. */
function checkHookError(response: unknown): void {
  const error = (response as { error?: { http_code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error !== "object" || typeof error.message !== "string" || !error.message) return;
  const status = typeof error.http_code === "number" && error.http_code > 0 ? error.http_code : 500;
  throw new AuthError(status as ContentfulStatusCode, status === 500 ? "unexpected_failure" : "unknown", error.message);
}

async function runPgFunctionHook(stack: Stack, hook: PgFunctionHook, input: unknown): Promise<unknown> {
  const response = await stack.db.transaction(async (tx) => {
    await tx.exec(`set local role supabase_auth_admin; set local statement_timeout = ${hookTimeoutMs};`);
    const [row] = await tx.query<{ response: unknown }>(`select ${hook.name}($1) as response`, [JSON.stringify(input)]);
    return row?.response ?? null;
  });
  const parsed = typeof response === "string" ? (JSON.parse(response) as unknown) : response;
  checkHookError(parsed);
  return parsed;
}

export interface MfaVerificationAttempt {
  userId: string;
  factorId: string;
  factorType: string;
  valid: boolean;
  ipAddress: string;
}

/** GoTrue's answer when the hook rejects without a message. */
const defaultRejection = "Further MFA verification attempts will be rejected.";

/**
 * The MFA verification attempt hook, when config.toml enables it: its
 * decision for a code already checked (`valid`). A rejection comes back as
 * its message, which GoTrue answers after ending the user's sessions.
 */
export async function mfaVerificationAttempt(
  stack: Stack,
  attempt: MfaVerificationAttempt,
): Promise<{ rejected: false } | { rejected: true; message: string }> {
  const hook = stack.config.auth.hooks.mfaVerificationAttempt;
  if (!hook) return { rejected: false };
  const output = await runPgFunctionHook(stack, hook, {
    metadata: metadata("mfa-verification", attempt.ipAddress),
    user_id: attempt.userId,
    factor_id: attempt.factorId,
    factor_type: attempt.factorType,
    valid: attempt.valid,
  });
  const { decision, message } = (output ?? {}) as { decision?: unknown; message?: unknown };
  if (decision !== "reject") return { rejected: false };
  return { rejected: true, message: typeof message === "string" && message ? message : defaultRejection };
}
