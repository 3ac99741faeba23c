/** PostgREST-compatible `/rest/v1`: tables and views by path, functions under `/rpc`. */
import { type Context, Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { authenticate, requestSchema } from "./context.js";
import { ApiError, toApiError } from "./errors.js";
import { negotiate, parsePrefer, stripsNulls } from "./preferences.js";
import type { ApiRequest } from "./request.js";
import { errorResponse } from "./respond.js";
import { rpc } from "./rpc-handler.js";
import { type SchemaCache, SchemaCacheLoader } from "./schema-cache.js";
import { table } from "./table-handler.js";

// Errors a stale schema cache can cause: unknown table, column, function or relationship.
const schemaMissCodes = new Set(["PGRST200", "PGRST202", "PGRST204", "PGRST205", "42703", "42P01", "42883"]);

function schemaMiss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && schemaMissCodes.has(code);
}

export function restRouter(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const loader = new SchemaCacheLoader(stack.db, stack.config.api.schemas);
  const handle = (action: (req: ApiRequest, name: string) => Promise<Response>) => async (c: Context<StackEnv>) => {
    const caller = await authenticate(stack, c.get("bearer")).catch((error: unknown) => error as ApiError);
    if (caller instanceof ApiError) return errorResponse(caller);
    const url = new URL(c.req.url);
    const method = c.req.method;
    const rawBody = method === "GET" || method === "HEAD" ? "" : await c.req.text();
    const attempt = async (cache: SchemaCache) => {
      const req: ApiRequest = {
        stack,
        caller,
        method,
        path: url.pathname.replace(/^\/rest\/v1/, ""),
        headers: c.req.raw.headers,
        query: url.searchParams,
        schema: requestSchema(stack, method, c.req.raw.headers),
        media: negotiate(c.req.header("accept")),
        stripNulls: stripsNulls(c.req.header("accept")),
        prefs: parsePrefer(c.req.header("prefer")),
        rawBody,
        cache,
      };
      return action(req, c.req.param("name") ?? "");
    };
    try {
      try {
        return await attempt(await loader.get());
      } catch (error) {
        // Maybe the schema changed since the cache was read: re-read it and try once more
        // (a failed request rolled back, so nothing ran twice).
        if (!schemaMiss(error)) throw error;
        return await attempt(await loader.reload());
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
