/** `POST /token`: the grants that start or renew a session (password, refresh_token, pkce, and the off ones). */
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import { type Auth, clientKey, readBody, str } from "./context.js";
import { badRequest, OAuthError } from "./errors.js";
import { idTokenGrant, web3Grant } from "./external.js";
import { consumeFlowState } from "./flow-state.js";
import { type AuthMethod, issueSession, refreshGrant } from "./sessions.js";
import { findUserByEmail, isBanned, passwordMatches } from "./users.js";

export function tokenRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { stack } = auth;

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
