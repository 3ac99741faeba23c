import { Hono } from "hono";
import { authRouter } from "./auth/router.js";
import { functionsRouter } from "./functions/router.js";
import { apiKeyGate, corsPolicy, type StackEnv } from "./gateway/gateway.js";
import { mailRoutes } from "./mail/routes.js";
import { realtimeRouter } from "./realtime/router.js";
import { restRouter } from "./rest/router.js";
import type { Stack } from "./stack.js";
import { storageRouter } from "./storage/router.js";

/** The one origin clients talk to, routing by path prefix as Supabase's gateway does. */
export function createApp(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  app.use("*", corsPolicy);
  app.route("/mailbox", mailRoutes(stack.mailbox));
  app.get("/health", (c) => c.json({ status: "ok" }));
  app.use("*", apiKeyGate(stack.keys));
  app.route("/rest/v1", restRouter(stack));
  app.route("/auth/v1", authRouter(stack));
  app.route("/storage/v1", storageRouter(stack));
  app.route("/functions/v1", functionsRouter(stack));
  app.route("/realtime/v1", realtimeRouter(stack));
  return app;
}
