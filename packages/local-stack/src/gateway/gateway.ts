import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { Keys } from "../keys/keys.js";

/** What every router learns from the gateway about the caller. */
export type StackEnv = {
  Variables: {
    /** The bearer token the upstream service sees (a JWT, or the API key itself). */
    bearer: string | null;
  };
};

// The new-style keys the CLI hard-codes; the gateway maps them to the legacy JWTs.
export const publishableKey = "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH";
export const secretKey = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz";

const exposeHeaders = [
  "Content-Range",
  "Range-Unit",
  "Content-Location",
  "Location",
  "X-Total-Count",
  "Link",
  "X-Supabase-Api-Version",
];

const preflight = cors({
  origin: "*",
  allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"],
  allowHeaders: [
    "authorization",
    "apikey",
    "x-client-info",
    "content-type",
    "accept",
    "accept-profile",
    "content-profile",
    "prefer",
    "range",
    "x-upsert",
    "cache-control",
    "x-metadata",
    "x-region",
    "x-supabase-api-version",
    "x-retry-count",
    "traceparent",
    "tracestate",
    "baggage",
  ],
  exposeHeaders,
  maxAge: 86400,
});

const corsHeaders: [string, string][] = [
  ["Access-Control-Allow-Origin", "*"],
  ["Access-Control-Expose-Headers", exposeHeaders.join(",")],
];

/**
 * CORS as the Supabase gateway answers it (browsers need the exposed headers to
 * read errors and counts). Preflights are hono's cors; other responses get the
 * headers once the handler has answered, because hono's cors adds them to a
 * response made before the handler runs, and merging that into the handler's
 * turns the server's lightweight response into a full one (a copy of the body
 * through a stream) on every request.
 */
export const corsPolicy: MiddlewareHandler = async (c, next) => {
  if (c.req.method === "OPTIONS") return preflight(c, next);
  await next();
  try {
    for (const [name, value] of corsHeaders) c.res.headers.set(name, value);
  } catch {
    // A response with immutable headers (e.g. one fetched elsewhere): answer with a copy.
    const copy = new Response(c.res.body, c.res);
    for (const [name, value] of corsHeaders) copy.headers.set(name, value);
    c.res = copy;
  }
};

// Paths a browser opens without headers: email links and public files.
const openPaths = [
  /^\/auth\/v1\/(verify|callback|authorize)(\/|$)/,
  /^\/storage\/v1\/object\/(public|sign|info\/public)\//,
  /^\/storage\/v1\/render\/image\/(public|sign)\//,
];

/**
 * The API key check and Authorization rewrite of Supabase's gateway: an
 * `apikey` header (or query parameter) must be one of the project's keys;
 * `sb_` keys become the matching JWT; a request without Authorization acts
 * with its API key.
 */
export function apiKeyGate(keys: Keys): MiddlewareHandler<StackEnv> {
  const known = new Map([
    [keys.anonKey, keys.anonKey],
    [keys.serviceRoleKey, keys.serviceRoleKey],
    [publishableKey, keys.anonKey],
    [secretKey, keys.serviceRoleKey],
  ]);
  return async (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (c.req.method === "OPTIONS" || openPaths.some((pattern) => pattern.test(path))) {
      c.set("bearer", bearerOf(c.req.header("authorization")));
      return next();
    }
    const apikey = c.req.header("apikey") ?? c.req.query("apikey");
    // Supabase's gateway has no key check on functions (webhooks call them bare); the
    // edge runtime's verify_jwt guards them instead.
    if (path.startsWith("/functions/v1/") && (!apikey || !known.has(apikey))) {
      const bearer = bearerOf(c.req.header("authorization"));
      c.set("bearer", bearer === null ? null : (known.get(bearer) ?? bearer));
      return next();
    }
    if (!apikey) {
      return c.json(
        { message: "No API key found in request", hint: "No `apikey` request header or url param was found." },
        401,
      );
    }
    const keyJwt = known.get(apikey);
    if (!keyJwt) {
      return c.json(
        { message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key." },
        401,
      );
    }
    const bearer = bearerOf(c.req.header("authorization"));
    c.set("bearer", bearer === null ? keyJwt : (known.get(bearer) ?? bearer));
    return next();
  };
}

function bearerOf(header: string | undefined): string | null {
  const match = header ? /^bearer\s+(.+)$/i.exec(header.trim()) : null;
  return match?.[1] ?? null;
}
