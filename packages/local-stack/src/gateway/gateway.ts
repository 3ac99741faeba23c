import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { apiKeyJwts } from "../keys/api-keys.js";
import type { Keys } from "../keys/keys.js";
import { claimsOf } from "../realtime/joins.js";

/** What every router learns from the gateway about the caller. */
export type StackEnv = {
  Variables: {
    /**
     * The bearer token the upstream service sees (a JWT, or the API key itself);
     * for Realtime's socket, the JWT its API key acts as.
     */
    bearer: string | null;
  };
};

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

/**
 * The routes of Supabase's gateway that check the `apikey` (Kong's key-auth):
 * the Data API, Auth, GraphQL and Realtime. Storage and Functions have none;
 * their servers check the Authorization header themselves.
 */
const keyAuthRoutes = [/^\/rest\/v1(\/|$)/, /^\/auth\/v1(\/|$)/, /^\/graphql\/v1(\/|$)/, /^\/realtime\/v1(\/|$)/];
const keylessRoutes = [/^\/storage\/v1(\/|$)/, /^\/functions\/v1(\/|$)/];
// Auth's open routes: email links and OAuth redirects a browser opens bare, and the public keys.
const openAuthPaths = /^\/auth\/v1\/(verify|callback|authorize|\.well-known\/jwks\.json)(\/|$)/;
const realtimeSocketPath = "/realtime/v1/websocket";

/**
 * The API key check and Authorization rewrite of Supabase's gateway. On a
 * key-auth route the `apikey` header (or query parameter) must be one of the
 * project's keys. On every route the upstream sees the Authorization bearer
 * unless it is an `sb_` key; otherwise the JWT of the `apikey`, or the raw
 * `apikey`. An `sb_` key sent as the bearer alone (`new StorageClient(url,
 * { Authorization: 'Bearer sb_secret_…' })`) acts as its JWT.
 */
export function apiKeyGate(keys: Keys): MiddlewareHandler<StackEnv> {
  const known = apiKeyJwts(keys);
  const upstreamBearer = (bearer: string | null, apikey: string | undefined): string | null => {
    if (bearer !== null && !bearer.startsWith("sb_")) return bearer;
    if (apikey) return known.get(apikey) ?? apikey;
    return bearer === null ? null : (known.get(bearer) ?? null);
  };
  return async (c, next) => {
    const url = new URL(c.req.url);
    const path = url.pathname;
    if (path === realtimeSocketPath && c.req.header("upgrade")?.toLowerCase() === "websocket") {
      const token = await realtimeSocketToken(keys, known, url, c);
      if (!token) return c.text("Invalid API key", 403);
      c.set("bearer", token);
      return next();
    }
    const apikey = c.req.header("apikey") ?? c.req.query("apikey");
    const bearer = bearerOf(c.req.header("authorization"));
    if (c.req.method === "OPTIONS" || openAuthPaths.test(path) || keylessRoutes.some((route) => route.test(path))) {
      c.set("bearer", upstreamBearer(bearer, apikey));
      return next();
    }
    if (!keyAuthRoutes.some((route) => route.test(path))) {
      return c.json({ message: "no Route matched with those values" }, 404);
    }
    if (!apikey) {
      return c.json(
        { message: "No API key found in request", hint: "No `apikey` request header or url param was found." },
        401,
      );
    }
    if (!known.has(apikey)) {
      return c.json(
        { message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key." },
        401,
      );
    }
    c.set("bearer", upstreamBearer(bearer, apikey));
    return next();
  };
}

/**
 * The JWT a Realtime socket acts as, or null when its key is refused. Realtime
 * reads the key from the URL first (a browser's WebSocket sends no headers),
 * then `x-api-key` or `apikey`; a JWT the project signed counts as a key and
 * the socket acts as it. A refused socket gets Realtime's 403, not a 401.
 */
async function realtimeSocketToken(
  keys: Keys,
  known: Map<string, string>,
  url: URL,
  c: Context,
): Promise<string | null> {
  const apikey = url.searchParams.get("apikey") ?? c.req.header("x-api-key") ?? c.req.header("apikey");
  if (!apikey) return null;
  const keyJwt = known.get(apikey);
  if (keyJwt) return keyJwt;
  const verified = await claimsOf(keys, apikey);
  return "error" in verified ? null : apikey;
}

function bearerOf(header: string | undefined): string | null {
  const match = header ? /^bearer\s+(.+)$/i.exec(header.trim()) : null;
  return match?.[1] ?? null;
}
