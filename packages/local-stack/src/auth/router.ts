import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { adminRoutes } from "./admin.js";
import { type Auth, anonymousSignInsEnabled, clientKey, readBody, str } from "./context.js";
import { apiVersion, badRequest, errorResponse, OAuthError, wantsVersioned } from "./errors.js";
import { idTokenGrant, web3Grant } from "./external.js";
import { consumeFlowState } from "./flow-state.js";
import { mfaRoutes } from "./mfa.js";
import { createRateLimiter } from "./rate-limit.js";
import { type AuthMethod, issueSession, refreshGrant } from "./sessions.js";
import { signupRoutes } from "./signup.js";
import { unroutedRoutes } from "./unrouted.js";
import { userRoutes } from "./user.js";
import { findUserByEmail, isBanned, passwordMatches } from "./users.js";
import { verifyRoutes } from "./verify.js";

/**
 * GoTrue-compatible `/auth/v1`: email/password, magic links and OTPs, PKCE, refresh
 * rotation, `/user`, `/logout`, TOTP factors (`/factors`) and the admin API. Known
 * differences from GoTrue: no phone/SMS, OAuth providers, SSO, phone or WebAuthn
 * factors, or anonymous sign-ins. User access tokens are
 * ES256 as the CLI signs them, with the public key at `/.well-known/jwks.json`.
 */
export function authRouter(stack: Stack): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  // anonymous_users defaults to the CLI's 30 an hour when config.toml does not set it.
  const limits = () => ({ anonymousUsers: 30, ...stack.config.auth.rateLimit });
  const auth: Auth = { stack, limiter: createRateLimiter(limits) };

  app.use("*", async (c, next) => {
    await next();
    if (wantsVersioned(c)) c.header("X-Supabase-Api-Version", apiVersion);
  });
  app.onError((error, c) => errorResponse(c, error));

  app.get("/health", (c) =>
    c.json({
      version: "local-stack",
      name: "GoTrue",
      description: "GoTrue is a user registration and authentication API",
    }),
  );
  app.get("/.well-known/jwks.json", (c) => {
    c.header("Cache-Control", "public, max-age=600");
    return c.json({ keys: stack.keys.jwks });
  });
  app.get("/settings", (c) => {
    const config = stack.config.auth;
    return c.json({
      external: { anonymous_users: anonymousSignInsEnabled(stack), email: config.email.enableSignup, phone: false },
      disable_signup: !config.enableSignup,
      mailer_autoconfirm: !config.email.enableConfirmations,
      phone_autoconfirm: false,
      sms_provider: "",
      saml_enabled: false,
    });
  });

  app.post("/token", async (c) => {
    const grantType = c.req.query("grant_type");
    const body = await readBody(c);
    const client = clientKey(c);
    if (grantType === "password") {
      auth.limiter.hit("signInSignUps", client);
      return c.json(await passwordGrant(auth, body));
    }
    if (grantType === "refresh_token") {
      auth.limiter.hit("tokenRefresh", client);
      const token = str(body.refresh_token);
      if (!token) throw new OAuthError("invalid_request", "refresh_token required");
      return c.json(await refreshGrant(stack, token));
    }
    if (grantType === "pkce") {
      auth.limiter.hit("tokenVerifications", client);
      const session = await stack.db.transaction(async (tx) => {
        const flow = await consumeFlowState(tx, body.auth_code, body.code_verifier);
        return issueSession(stack, tx, flow.userId, flow.authenticationMethod as AuthMethod);
      });
      return c.json(session);
    }
    if (grantType === "id_token") idTokenGrant(body);
    if (grantType === "web3") web3Grant();
    throw new OAuthError("unsupported_grant_type", `unsupported_grant_type: ${grantType ?? ""}`);
  });

  signupRoutes(app, auth);
  verifyRoutes(app, auth);
  userRoutes(app, auth);
  mfaRoutes(app, auth);
  adminRoutes(app, auth);
  unroutedRoutes(app, auth);
  return app;
}

async function passwordGrant(auth: Auth, body: Record<string, unknown>) {
  const { stack } = auth;
  const email = str(body.email);
  const password = str(body.password) ?? "";
  if (body.phone !== undefined && !email) throw badRequest("phone_provider_disabled", "Phone logins are disabled");
  const invalid = badRequest("invalid_credentials", "Invalid login credentials");
  if (!email) throw invalid;
  const user = await findUserByEmail(stack.db, email.trim());
  if (!user || !(await passwordMatches(user, password))) throw invalid;
  if (isBanned(user)) throw badRequest("user_banned", "User is banned");
  if (!user.email_confirmed_at && stack.config.auth.email.enableConfirmations) {
    throw badRequest("email_not_confirmed", "Email not confirmed");
  }
  const session = await stack.db.transaction((tx) => issueSession(stack, tx, user.id, "password"));
  const minimum = stack.config.auth.minimumPasswordLength;
  if (password.length < minimum) {
    return {
      ...session,
      weak_password: { message: `Password should be at least ${minimum} characters.`, reasons: ["length"] },
    };
  }
  return session;
}
