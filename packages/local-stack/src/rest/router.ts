/** PostgREST-compatible `/rest/v1`: tables and views by path, functions under `/rpc`. */
import { type Context, Hono } from "hono";
import { readCappedBody } from "../gateway/capped-body.js";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import type { ApiRequest } from "./api-request.js";
import { authenticate, type Caller, requestSchema } from "./context.js";
import { ApiError, toApiError } from "./errors.js";
import { headerRecord } from "./headers.js";
import { isPlan, negotiate, parsePrefer, planOptions, stripsNulls } from "./preferences.js";
import { checkRegexFilters } from "./regex-cost.js";
import { errorResponse } from "./respond.js";
import { rpc } from "./rpc-handler.js";
import { type SchemaCache, SchemaCacheLoader } from "./schema-cache.js";
import { table } from "./table-handler.js";

// Errors a stale schema cache can cause: unknown table, column, function or relationship,
// or a feature the in-database config may just have turned on.
const schemaMissCodes = new Set([
  "PGRST200",
  "PGRST202",
  "PGRST204",
  "PGRST205",
  "PGRST123",
  "42703",
  "42P01",
  "42883",
]);

function schemaMiss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && schemaMissCodes.has(code);
}

function apiRequest(
  stack: Stack,
  c: Context<StackEnv>,
  caller: Caller,
  rawBytes: Uint8Array,
  cache: SchemaCache,
): ApiRequest {
  const url = new URL(c.req.url);
  const method = c.req.method;
  const headers = c.req.raw.headers;
  // @hono/node-server passes node's request as the env.
  const incoming = (c.env as { incoming?: { rawHeaders?: string[] } } | undefined)?.incoming;
  const accept = headers.get("accept") ?? undefined;
  return {
    stack,
    caller,
    method,
    path: url.pathname.replace(/^\/rest\/v1/, ""),
    headers,
    headerRecord: headerRecord(headers, incoming?.rawHeaders),
    query: url.searchParams,
    schema: requestSchema(stack, method, headers),
    media: negotiate(accept),
    stripNulls: stripsNulls(accept),
    prefs: parsePrefer(headers.get("prefer") ?? undefined),
    rawBody: new TextDecoder().decode(rawBytes),
    rawBytes,
    cache,
  };
}

/** A plan media type as PostgREST prints it back: `application/vnd.pgrst.plan+json; for="…"; options=a|b`. */
function planMime(req: ApiRequest): string {
  const accept = req.headers.get("accept") ?? "";
  const forType = /for="([^"]*)"/i.exec(accept)?.[1] ?? "application/json";
  const options = planOptions(accept);
  const format = req.media === "plan-text" ? "text" : "json";
  return `application/vnd.pgrst.plan+${format}; for="${forType}"${options.length ? `; options=${options.join("|")}` : ""}`;
}

/** PostgREST's request body limit (its server's default), refused as PGRST102 413. */
const maxBodyBytes = 10 * 1024 * 1024;

export function restRouter(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const loader = new SchemaCacheLoader(stack.db, stack.config.api.schemas);
  const handle = (action: (req: ApiRequest, name: string) => Promise<Response>) => async (c: Context<StackEnv>) => {
    const method = c.req.method;
    const rawBytes =
      method === "GET" || method === "HEAD" ? new Uint8Array() : await readCappedBody(c.req.raw, maxBodyBytes);
    if (rawBytes === null) return errorResponse(new ApiError(413, "PGRST102", "Request body too large"));
    const caller = await authenticate(stack, c.get("bearer")).catch((error: unknown) => error as ApiError);
    if (caller instanceof ApiError) return errorResponse(caller);
    const name = c.req.param("name") ?? "";
    try {
      let req = apiRequest(stack, c, caller, rawBytes, await loader.get());
      // PostgreSQL cancels a runaway regex at the statement timeout; the embedded database cannot.
      if (stack.db.kind === "pglite") checkRegexFilters(req.query);
      // The plan media types exist only while the in-database config turns them on.
      if (isPlan(req.media) && !req.cache.config.planEnabled) {
        req = { ...req, cache: await loader.reload() };
        if (!req.cache.config.planEnabled) {
          throw new ApiError(406, "PGRST107", `None of these media types are available: ${planMime(req)}`);
        }
      }
      try {
        return await action(req, name);
      } catch (error) {
        // Maybe the schema changed since the cache was read: re-read it and try once more
        // (a failed request rolled back, so nothing ran twice).
        if (!schemaMiss(error)) throw error;
        return await action({ ...req, cache: await loader.reload() }, name);
      }
    } catch (error) {
      return errorResponse(toApiError(error, caller.role === "anon"));
    }
  };
  app.all("/rpc/:name", handle(rpc));
  app.all("/:name", handle(table));
  app.all("*", () => errorResponse(new ApiError(404, "PGRST125", "Invalid path specified in request URL")));
  return app;
}
