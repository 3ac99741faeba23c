import type { Queryable, Statement } from "./types.js";

/** Who a request acts as, and what PostgREST exposes of it to SQL. */
export interface RequestContext {
  /** Database role from the JWT's `role` claim: anon, authenticated or service_role. */
  role: string;
  /** The whole verified claim set (`{"role":"anon"}` for an anonymous request). */
  claims: Record<string, unknown>;
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  /** The request's schemas, as PostgREST sets search_path (left alone when absent). */
  searchPath?: string;
  /** Makes the transaction read-only (PostgREST does for GET and HEAD). */
  readOnly?: boolean;
}

/**
 * Sets the transaction-local settings PostgREST sets before running a request,
 * so RLS policies, auth.uid() and auth.jwt() see the caller. Also sets the
 * legacy per-claim settings that Supabase's helper functions read, and the
 * role's own statement_timeout (`alter role anon set statement_timeout`):
 * `set role` does not apply a role's settings, so PostgREST applies the
 * impersonated role's per transaction, and so does this. PGlite accepts the
 * setting but cannot cancel a running statement (see the README).
 */
export async function setRequestContext(tx: Queryable, context: RequestContext): Promise<void> {
  const statement = requestContextStatement(context);
  await tx.query(statement.text, statement.params);
}

const contextSql = `select set_config('role', $1, true),
            set_config('request.jwt.claims', $2, true),
            set_config('request.jwt.claim.sub', $3, true),
            set_config('request.jwt.claim.role', $4, true),
            set_config('request.jwt.claim.email', $5, true),
            set_config('request.method', $6, true),
            set_config('request.path', $7, true),
            set_config('request.headers', $8, true),
            case when $9::text is not null then set_config('search_path', $9, true) end,
            case when $10 then set_config('transaction_read_only', 'on', true) end,
            set_config('statement_timeout', coalesce(
              (select substr(setting, length('statement_timeout=') + 1)
                 from pg_catalog.pg_roles, unnest(rolconfig) as setting
                where rolname::text = $1 and left(setting, 18) = 'statement_timeout='),
              current_setting('statement_timeout')), true)`;

/** A claim as the legacy `request.jwt.claim.*` settings hold it. */
function claimText(value: unknown): string {
  return value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
}

/** The one statement `setRequestContext` runs, to send along with others. */
export function requestContextStatement(context: RequestContext): Statement {
  const claims = context.claims;
  return {
    text: contextSql,
    params: [
      context.role,
      JSON.stringify(claims),
      claimText(claims.sub),
      claimText(claims.role),
      claimText(claims.email),
      context.method ?? "POST",
      context.path ?? "/",
      JSON.stringify(context.headers ?? {}),
      context.searchPath ?? null,
      context.readOnly ?? false,
    ],
  };
}
