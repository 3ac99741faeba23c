/** `/signup`, `/otp`, `/recover` and `/resend`: the routes that create users or send them emails. */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import { audit } from "./audit.js";
import { type Auth, anonymousSignInsEnabled, clientKey, readBody, record, str } from "./context.js";
import { sendConfirmation, sendEmailChange, sendRecoveryKind } from "./emails.js";
import { badRequest, unprocessable } from "./errors.js";
import { readChallenge } from "./flow-state.js";
import { redirectTarget } from "./redirects.js";
import { issueSession } from "./sessions.js";
import {
  checkPassword,
  createAnonymousUser,
  createUser,
  findUserByEmail,
  findUserById,
  userJson,
  validateEmail,
} from "./users.js";

export function signupRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { stack } = auth;
  const config = () => stack.config.auth;

  app.post("/signup", async (c) => {
    const body = await readBody(c);
    const client = clientKey(c);
    if (!str(body.email) && !str(body.phone)) return c.json(await signInAnonymously(auth, body, client));
    auth.limiter.hit("signInSignUps", client);
    if (!config().enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
    if (body.phone !== undefined && body.email === undefined) {
      throw badRequest("phone_provider_disabled", "Phone signups are disabled");
    }
    if (!config().email.enableSignup) throw badRequest("email_provider_disabled", "Email signups are disabled");
    const email = validateEmail(body.email);
    const password = str(body.password) ?? "";
    if (!password) throw unprocessable("validation_failed", "Signup requires a valid password");
    checkPassword(password, config().minimumPasswordLength);
    const challenge = readChallenge(body);
    const redirectTo = redirectTarget(config(), c.req.query("redirect_to"));
    const autoconfirm = !config().email.enableConfirmations;

    const result = await stack.db.transaction(async (tx) => {
      let user = await findUserByEmail(tx, email);
      if (user?.email_confirmed_at) {
        if (autoconfirm) throw unprocessable("user_already_exists", "User already registered");
        // GoTrue answers a fake user so signups cannot probe which emails exist.
        return { obfuscated: obfuscatedUser(await userJson(tx, user), record(body.data) ?? {}) };
      }
      if (!user) {
        user = await createUser(tx, {
          email,
          password,
          userMetadata: record(body.data) ?? {},
          confirmed: autoconfirm,
        });
      }
      if (autoconfirm) {
        await audit(tx, user, "user_signedup", { provider: "email" });
        return { session: await issueSession(stack, tx, user.id, "password") };
      }
      await sendConfirmation(auth, tx, user, { redirectTo, challenge, client });
      const fresh = await findUserById(tx, user.id);
      return { user: await userJson(tx, fresh ?? user) };
    });
    return c.json("session" in result ? result.session : "user" in result ? result.user : result.obfuscated);
  });

  app.post("/otp", async (c) => {
    const body = await readBody(c);
    const client = clientKey(c);
    if (body.phone !== undefined && body.email === undefined) {
      throw badRequest("phone_provider_disabled", "Unsupported phone provider");
    }
    const email = validateEmail(body.email);
    const challenge = readChallenge(body);
    const redirectTo = redirectTarget(config(), c.req.query("redirect_to"));
    await stack.db.transaction(async (tx) => {
      let user = await findUserByEmail(tx, email);
      if (!user) {
        if (body.create_user === false) throw unprocessable("otp_disabled", "Signups not allowed for otp");
        if (!config().enableSignup || !config().email.enableSignup) {
          throw unprocessable("signup_disabled", "Signups not allowed for this instance");
        }
        auth.limiter.hit("signInSignUps", client);
        user = await createUser(tx, {
          email,
          userMetadata: record(body.data) ?? {},
          confirmed: !config().email.enableConfirmations,
        });
      }
      if (!user.email_confirmed_at) await sendConfirmation(auth, tx, user, { redirectTo, challenge, client });
      else await sendRecoveryKind(auth, tx, user, "magiclink", { redirectTo, challenge, client });
    });
    return c.json({});
  });

  app.post("/recover", async (c) => {
    const body = await readBody(c);
    const email = validateEmail(body.email);
    const challenge = readChallenge(body);
    const redirectTo = redirectTarget(config(), c.req.query("redirect_to"));
    await stack.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email);
      // Unknown addresses get the same answer, so the endpoint reveals nothing.
      if (user) await sendRecoveryKind(auth, tx, user, "recovery", { redirectTo, challenge, client: clientKey(c) });
    });
    return c.json({});
  });

  app.post("/resend", async (c) => {
    const body = await readBody(c);
    const type = str(body.type);
    if (type !== "signup" && type !== "email_change") {
      throw badRequest("validation_failed", "Missing one of these types: signup, email_change, sms, phone_change");
    }
    const email = validateEmail(body.email);
    const challenge = readChallenge(body);
    const redirectTo = redirectTarget(config(), c.req.query("redirect_to"));
    await stack.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email);
      const options = { redirectTo, challenge, client: clientKey(c) };
      if (type === "signup" && user && !user.email_confirmed_at) await sendConfirmation(auth, tx, user, options);
      if (type === "email_change" && user?.email_change) {
        await sendEmailChange(auth, tx, user, user.email_change, options);
      }
    });
    return c.json({});
  });
  return app;
}

/**
 * `/signup` without an email or phone, as GoTrue routes it: refused unless
 * `enable_anonymous_sign_ins`, then counted against `anonymous_users`, then a
 * new anonymous user signed in with the `anonymous` method.
 */
async function signInAnonymously(auth: Auth, body: Record<string, unknown>, client: string) {
  const { stack } = auth;
  if (!anonymousSignInsEnabled(stack)) {
    throw unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled");
  }
  auth.limiter.hit("anonymousUsers", client);
  if (!stack.config.auth.enableSignup) throw unprocessable("signup_disabled", "Signups not allowed for this instance");
  return stack.db.transaction(async (tx) => {
    const user = await createAnonymousUser(tx, record(body.data) ?? {});
    return issueSession(stack, tx, user.id, "anonymous");
  });
}

/** GoTrue's `sanitizeUser`: a plausible user with a random id, no identities, and the request's own data. */
function obfuscatedUser(user: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    ...user,
    id: randomUUID(),
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: data,
    identities: [],
    email_confirmed_at: undefined,
    confirmed_at: undefined,
    last_sign_in_at: undefined,
    created_at: now,
    updated_at: now,
    confirmation_sent_at: now,
  };
}
