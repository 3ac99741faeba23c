/** `GET`/`PUT /user` and `/logout`: what a signed-in user does with their own account. */
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import { audit } from "./audit.js";
import { type Auth, clientKey, readBody, record, str } from "./context.js";
import { sendEmailChange, sendReauthentication } from "./emails.js";
import { AuthError, badRequest, unprocessable } from "./errors.js";
import { listUserFactors } from "./factors.js";
import { readChallenge } from "./flow-state.js";
import { redirectTarget } from "./redirects.js";
import { authenticate, endSessions, endUserSessions, sessionIsAal2 } from "./sessions.js";
import {
  applyEmailChange,
  checkPassword,
  findUserByEmail,
  findUserById,
  hashPassword,
  mergeMetadata,
  passwordMatches,
  updateUser,
  userJson,
  validateEmail,
} from "./users.js";

export function userRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { stack } = auth;

  app.get("/user", async (c) => {
    const { user } = await authenticate(stack, c.get("bearer"));
    return c.json(await userJson(stack.db, user));
  });

  app.put("/user", async (c) => {
    const caller = await authenticate(stack, c.get("bearer"));
    const body = await readBody(c);
    const config = stack.config.auth;
    const challenge = readChallenge(body);
    const redirectTo = redirectTarget(config, c.req.query("redirect_to"));
    const updated = await stack.db.transaction(async (tx) => {
      const user = caller.user;
      const password = str(body.password);
      const email = body.email === undefined ? undefined : validateEmail(body.email);
      if (password !== undefined) checkPassword(password, config.minimumPasswordLength);
      const changesEmail = email !== undefined && email !== (user.email ?? "").toLowerCase();
      // GoTrue: once a factor is verified, the password and the address change only from an aal2 session.
      if (
        (password || changesEmail) &&
        (await listUserFactors(tx, user.id)).some((factor) => factor.status === "verified") &&
        !(await sessionIsAal2(tx, caller.sessionId))
      ) {
        throw new AuthError(
          401,
          "insufficient_aal",
          "AAL2 session is required to update email or password when MFA is enabled.",
        );
      }
      const data = record(body.data);
      if (data) {
        await updateUser(tx, user.id, { raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, data) });
      }
      // An anonymous user's password must come with an address to sign in with.
      if (password && user.is_anonymous && body.email === undefined && body.phone === undefined) {
        throw unprocessable(
          "validation_failed",
          "Updating password of an anonymous user without an email or phone is not allowed",
        );
      }
      if (password !== undefined) {
        if (await passwordMatches(user, password)) {
          throw unprocessable("same_password", "New password should be different from the old password.");
        }
        await updateUser(tx, user.id, { encrypted_password: await hashPassword(password) });
        // GoTrue's UpdatePassword signs out every other session of the user.
        await endUserSessions(tx, user.id, caller.sessionId);
      }
      if (email !== undefined && changesEmail) {
        const taken = await findUserByEmail(tx, email);
        if (taken && taken.id !== user.id) {
          throw unprocessable("email_exists", "A user with this email address has already been registered");
        }
        if (config.email.enableConfirmations) {
          await sendEmailChange(auth, tx, user, email, { redirectTo, challenge, client: clientKey(c) });
        } else {
          await applyEmailChange(tx, user, email);
        }
      }
      await audit(tx, user, password !== undefined ? "user_updated_password" : "user_modified");
      const fresh = await findUserById(tx, user.id);
      return userJson(tx, fresh ?? user);
    });
    return c.json(updated);
  });

  app.get("/reauthenticate", async (c) => {
    const { user } = await authenticate(stack, c.get("bearer"));
    if (!user.email && !user.phone) {
      throw badRequest("validation_failed", "Reauthentication requires the user to have an email or a phone number");
    }
    if (!user.email) throw badRequest("phone_provider_disabled", "Unsupported phone provider");
    if (!user.email_confirmed_at) throw unprocessable("email_not_confirmed", "Please verify your email first.");
    await stack.db.transaction((tx) => sendReauthentication(auth, tx, user, clientKey(c)));
    return c.json({});
  });

  app.post("/logout", async (c) => {
    const caller = await authenticate(stack, c.get("bearer"));
    const scope = c.req.query("scope") ?? "global";
    if (!["global", "local", "others"].includes(scope)) {
      throw unprocessable("validation_failed", `Unsupported logout scope "${scope}"`);
    }
    await endSessions(stack.db, caller, scope);
    return c.body(null, 204);
  });
  return app;
}
