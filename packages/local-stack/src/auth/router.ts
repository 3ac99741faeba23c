import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { adminRoutes } from "./admin.js";
import type { Auth } from "./context.js";
import { apiVersion, errorResponse, wantsVersioned } from "./errors.js";
import { mfaRoutes } from "./mfa.js";
import { oauthClientRoutes } from "./oauth-clients.js";
import { createRateLimiter } from "./rate-limit.js";
import { settingsRoutes } from "./settings.js";
import { signupRoutes } from "./signup.js";
import { tokenRoutes } from "./token.js";
import { unroutedRoutes } from "./unrouted.js";
import { userRoutes } from "./user.js";
import { verifyRoutes } from "./verify.js";

/**
 * GoTrue-compatible `/auth/v1`: email/password, magic links and OTPs, PKCE, refresh
 * rotation, anonymous sign-ins, `/user`, `/logout`, TOTP factors (`/factors`) and the
 * admin API, one area per module. Known differences from GoTrue: no phone/SMS, OAuth
 * providers, SSO, or phone or WebAuthn factors (they answer as GoTrue does with them
 * off). User access tokens are ES256 as the CLI signs them, with the public key at
 * `/.well-known/jwks.json`.
 */
export function authRouter(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const auth: Auth = { stack, limiter: createRateLimiter(() => stack.config.auth.rateLimit) };

  app.use("*", async (c, next) => {
    // GoTrue reads only a `Bearer` Authorization, and the gateway passes any other on
    // untouched instead of the apikey's JWT: such a caller has no token.
    const header = c.req.header("authorization");
    if (header !== undefined && !/^bearer \S+$/i.test(header.trim())) c.set("bearer", null);
    await next();
    if (wantsVersioned(c)) c.header("X-Supabase-Api-Version", apiVersion);
  });
  app.onError((error, c) => errorResponse(c, error));

  app.route("/", settingsRoutes(auth));
  app.route("/", tokenRoutes(auth));
  app.route("/", signupRoutes(auth));
  app.route("/", verifyRoutes(auth));
  app.route("/", userRoutes(auth));
  app.route("/", mfaRoutes(auth));
  app.route("/", adminRoutes(auth));
  app.route("/", oauthClientRoutes(auth));
  // Last: what none of the areas serve.
  app.route("/", unroutedRoutes(auth));
  return app;
}
