import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { authRouter } from "./auth/router.js";
import { functionsRouter } from "./functions/router.js";
import { apiKeyGate, corsPolicy, type StackEnv } from "./gateway/gateway.js";
import { mailRoutes } from "./mail/routes.js";
import { realtimeRouter } from "./realtime/router.js";
import { restRouter } from "./rest/router.js";
import type { Stack } from "./stack.js";
import { storageRouter } from "./storage/router.js";

const restMaxBody = 10 * 1024 * 1024;
const restTooLarge = (c: Context) =>
  c.json({ code: "PGRST102", details: null, hint: null, message: "Request body too large" }, 413);
const streamedBodyLimit = bodyLimit({ maxSize: restMaxBody, onError: restTooLarge });

/**
 * The REST body limit. hono's bodyLimit looks at the request's body stream, which
 * turns the server's lightweight request into a full one on every request; a
 * declared length is checked from the header, and only a chunked body is counted.
 */
const restBodyLimit: MiddlewareHandler = (c, next) => {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD") return next();
  const length = c.req.header("content-length");
  if (length === undefined || c.req.header("transfer-encoding") !== undefined) return streamedBodyLimit(c, next);
  return Number.parseInt(length, 10) > restMaxBody ? Promise.resolve(restTooLarge(c)) : next();
};

/** The one origin clients talk to, routing by path prefix as Supabase's gateway does. */
export function createApp(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  app.use("*", corsPolicy);
  app.route("/mailbox", mailRoutes(stack.mailbox));
  app.get("/health", (c) => c.json({ status: "ok" }));
  app.use("*", apiKeyGate(stack.keys));
  app.use("/rest/v1/*", restBodyLimit);
  app.route("/rest/v1", restRouter(stack));
  app.route("/auth/v1", authRouter(stack));
  app.route("/storage/v1", storageRouter(stack));
  app.route("/functions/v1", functionsRouter(stack));
  app.route("/realtime/v1", realtimeRouter(stack));
  return app;
}
