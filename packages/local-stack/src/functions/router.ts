import type { Context } from "hono";
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { FunctionBootError, type FunctionRegistry } from "./registry.js";

/**
 * Edge functions at `/functions/v1/<name>[/*]`, served in process as the CLI's
 * edge runtime serves them: `verify_jwt`, the function env, sub-paths, and the
 * runtime's error shapes. CORS preflights are answered by the gateway.
 */
export function functionsRouter(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const serve = (c: Context<StackEnv>) => invoke(stack, stack.functions, c);
  app.all("/:name", serve);
  app.all("/:name/*", serve);
  return app;
}

async function invoke(stack: Stack, registry: FunctionRegistry, c: Context<StackEnv>): Promise<Response> {
  const name = c.req.param("name") ?? "";
  const settings = stack.config.functions[name];
  let handler: Awaited<ReturnType<FunctionRegistry["load"]>>;
  try {
    handler = settings?.enabled === false ? null : await registry.load(name);
  } catch (error) {
    if (!(error instanceof FunctionBootError)) throw error;
    return c.json({ code: "BOOT_ERROR", message: "Worker failed to boot (please check logs)" }, 503);
  }
  if (!handler) return c.json({ code: "NOT_FOUND", message: "Requested function was not found" }, 404);

  const bearer = c.get("bearer");
  if ((settings?.verifyJwt ?? true) && c.req.method !== "OPTIONS") {
    // The edge runtime's answers (CLI `main.ts`).
    if (!bearer) return c.json({ msg: "Error: Missing authorization header" }, 401);
    try {
      await stack.keys.verify(bearer);
    } catch {
      return c.json({ msg: "Invalid JWT" }, 401);
    }
  }

  process.env.SUPABASE_URL = stack.url;
  process.env.SUPABASE_ANON_KEY = stack.keys.anonKey;
  process.env.SUPABASE_SERVICE_ROLE_KEY = stack.keys.serviceRoleKey;

  try {
    return await handler(functionRequest(stack, name, c, bearer));
  } catch (error) {
    stack.log(`functions: ${name} threw: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    return c.json({ code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" }, 500);
  }
}

/** The request as the function sees it: `/<name>/<rest>?<query>`, with the gateway's Authorization. */
function functionRequest(stack: Stack, name: string, c: Context<StackEnv>, bearer: string | null): Request {
  const incoming = new URL(c.req.url);
  const prefix = "/functions/v1";
  const at = incoming.pathname.indexOf(`${prefix}/${name}`);
  const path = at === -1 ? `/${name}` : incoming.pathname.slice(at + prefix.length);
  const headers = new Headers(c.req.raw.headers);
  if (bearer) headers.set("authorization", `Bearer ${bearer}`);
  const method = c.req.method;
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(`${path}${incoming.search}`, stack.url), {
    method,
    headers,
    body: hasBody ? c.req.raw.body : null,
    signal: c.req.raw.signal,
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}
