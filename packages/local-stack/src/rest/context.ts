/** Who a request runs as and in which schema, and the one transaction every request runs in. */
import { requestContextStatement } from "../database/request-context.js";
import type { Queryable, Statement } from "../database/types.js";
import { JwtError } from "../keys/keys.js";
import type { Stack } from "../stack.js";
import { ApiError } from "./errors.js";
import { quoteIdent } from "./sql.js";

export interface Caller {
  role: string;
  claims: Record<string, unknown>;
}

/** Verifies the bearer as PostgREST does: PGRST301 for a bad token, PGRST303 when expired. */
export async function authenticate(stack: Stack, bearer: string | null): Promise<Caller> {
  if (bearer === null) return { role: "anon", claims: { role: "anon" } };
  try {
    const claims = (await stack.keys.verify(bearer)) as Record<string, unknown>;
    return { role: typeof claims.role === "string" && claims.role ? claims.role : "anon", claims };
  } catch (error) {
    const message = error instanceof JwtError ? error.message : "JWSError JWSInvalidSignature";
    const code = message === "JWT expired" ? "PGRST303" : "PGRST301";
    throw new ApiError(401, code, message, null, null, {
      "WWW-Authenticate": `Bearer error="invalid_token", error_description="${message}"`,
    });
  }
}

/** The schema of `Accept-Profile` (reads) or `Content-Profile` (writes); only exposed schemas. */
export function requestSchema(stack: Stack, method: string, headers: Headers): string {
  const exposed = stack.config.api.schemas;
  const read = method === "GET" || method === "HEAD";
  const asked = headers.get(read ? "accept-profile" : "content-profile");
  const schema = asked ?? exposed[0] ?? "public";
  if (!exposed.includes(schema)) {
    throw new ApiError(
      406,
      "PGRST106",
      `Invalid schema: ${schema}`,
      null,
      `Only the following schemas are exposed: ${exposed.join(", ")}`,
    );
  }
  return schema;
}

/**
 * PostgREST connects as `authenticator` and can only become the roles granted
 * to it; the stack connects as a superuser, so it checks the same rule. An
 * unknown role is left to `set role`, which fails with PostgREST's 22023.
 */
async function checkRoleSwitch(stack: Stack, tx: Queryable, role: string): Promise<void> {
  const allowed = stack.switchableRoles;
  if (allowed.has(role)) return;
  const [row] = await tx.query<{ allowed: boolean | null }>(
    `select case when not exists (select 1 from pg_roles where rolname = $1) then null
                 when not exists (select 1 from pg_roles where rolname = 'authenticator') then true
                 else pg_has_role('authenticator', $1, 'member') end as allowed`,
    [role],
  );
  if (row?.allowed === false) {
    throw new ApiError(role === "anon" ? 401 : 403, "42501", `permission denied to set role "${role}"`);
  }
  // Grants to authenticator are fixed by the platform bootstrap; only a yes is remembered.
  if (row?.allowed) allowed.add(role);
}

export interface RunOptions {
  caller: Caller;
  schema: string;
  readOnly: boolean;
  rollback: boolean;
  method: string;
  path: string;
  headerRecord: Record<string, string>;
  timezone?: string | null;
  /** A called function's own statement_timeout, which replaces the role's. */
  statementTimeout?: string | null;
}

/**
 * Runs `statement` in one transaction as the caller, with PostgREST's settings
 * in place, and returns its rows; `check` may still fail the request (and roll
 * the transaction back) after seeing them.
 */
export async function runAs<Row>(
  stack: Stack,
  options: RunOptions,
  statement: Statement,
  check?: (rows: Row[]) => void,
): Promise<Row[]> {
  await checkRoleSwitch(stack, stack.db, options.caller.role);
  const schemas = [options.schema, ...stack.config.api.extraSearchPath.filter((s) => s !== options.schema)];
  const context = requestContextStatement({
    searchPath: schemas.map(quoteIdent).join(", "),
    readOnly: options.readOnly,
    role: options.caller.role,
    claims: options.caller.claims,
    method: options.method,
    path: options.path,
    headers: options.headerRecord,
  });
  const timezone: Statement[] = options.timezone
    ? [
        {
          text: "select set_config('timezone', $1, true) where exists (select 1 from pg_timezone_names where name = $1)",
          params: [options.timezone],
        },
      ]
    : [];
  const timeout: Statement[] = options.statementTimeout
    ? [{ text: "select set_config('statement_timeout', $1, true)", params: [options.statementTimeout] }]
    : [];
  return stack.db.batch<Row>([context, ...timezone, ...timeout, statement], { rollback: options.rollback, check });
}
