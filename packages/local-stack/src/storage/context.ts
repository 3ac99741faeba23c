/** Who a storage request acts as, and the one transaction it runs in (as that role, claims set, like Storage). */
import type { Context } from "hono";
import { setRequestContext } from "../database/request-context.js";
import type { Queryable } from "../database/types.js";
import type { StackEnv } from "../gateway/gateway.js";
import { JwtError } from "../keys/keys.js";
import type { Stack } from "../stack.js";
import { errors } from "./errors.js";

export interface Caller {
  role: string;
  claims: Record<string, unknown>;
}

export const anonymous: Caller = { role: "anon", claims: { role: "anon" } };

/**
 * Verifies the bearer as Storage's JWT plugin does: a missing, malformed,
 * invalid or expired token is `AccessDenied` (403 inside a 400) with
 * jsonwebtoken's message, except on the reads that allow an invalid JWT
 * (download and info), which then act as anon.
 */
export async function callerOf(
  stack: Stack,
  c: Context<StackEnv>,
  { allowInvalidJwt = false }: { allowInvalidJwt?: boolean } = {},
): Promise<Caller> {
  const bearer = c.get("bearer");
  try {
    // Storage verifies an absent token as an empty one, in jose's words.
    if (!bearer) throw errors.invalidJwt("Invalid Compact JWS");
    const claims = (await stack.keys.verify(bearer)) as Record<string, unknown>;
    return { role: typeof claims.role === "string" && claims.role ? claims.role : "anon", claims };
  } catch (error) {
    if (allowInvalidJwt) return anonymous;
    throw error instanceof JwtError ? errors.invalidJwt(jsonwebtokenMessage(error)) : error;
  }
}

/** The verifier's reasons in jsonwebtoken's words, which Storage passes on. */
export function jsonwebtokenMessage(error: JwtError): string {
  if (error.message === "JWT expired") return "jwt expired";
  if (error.message.startsWith("Expected 3 parts")) return "jwt malformed";
  return "invalid signature";
}

/** The JWT's `sub` as Storage stores it: `owner_id` always, `owner` only when it is a uuid. */
export function ownerOf(caller: Caller): { owner: string | null; ownerId: string | null } {
  const sub = typeof caller.claims.sub === "string" ? caller.claims.sub : null;
  const uuid = sub && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sub) ? sub : null;
  return { owner: uuid, ownerId: sub };
}

/**
 * Runs `fn` in one transaction. It starts with the stack's own privileges
 * (for the bucket lookups Storage does as superuser); `becomeCaller()` then
 * switches to the JWT's role and claims for everything RLS must decide.
 */
export function transact<T>(
  stack: Stack,
  c: Context<StackEnv>,
  caller: Caller,
  fn: (tx: Queryable, becomeCaller: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, name) => {
    if (name !== "authorization" && name !== "apikey") headers[name] = value;
  });
  return stack.db.transaction(async (tx) => {
    // Storage's delete-protection triggers let a DELETE through only when the
    // request says it comes from the Storage API, as the real one does per request.
    await tx.query("select set_config('storage.allow_delete_query', 'true', true)");
    return fn(tx, () =>
      setRequestContext(tx, {
        role: caller.role,
        claims: caller.claims,
        method: c.req.method,
        path: new URL(c.req.url).pathname,
        headers,
      }),
    );
  });
}

/**
 * Runs `check` as the caller and undoes it, as Storage's `testPermission` does:
 * RLS decides on a trial write, which is then rolled back (the caller's role
 * and claims with it), and the real write follows with the server's privileges.
 */
export async function asCallerRolledBack<T>(
  tx: Queryable,
  becomeCaller: () => Promise<void>,
  check: () => Promise<T>,
): Promise<T> {
  await tx.query("savepoint storage_test_permission");
  try {
    await becomeCaller();
    return await check();
  } finally {
    await tx.query("rollback to savepoint storage_test_permission");
  }
}

/**
 * Serialises writers of one object until commit, so each knows which version
 * file it replaces (and no replaced file is left behind or removed too early).
 */
export async function lockObject(tx: Queryable, bucket: string, key: string): Promise<void> {
  await tx.query("select pg_advisory_xact_lock(hashtextextended($1, 0))", [`${bucket}/${key}`]);
}
