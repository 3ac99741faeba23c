/** The admin API (`/admin/users`, `/admin/generate_link`, `/invite`) for callers with the service role. */
import { Hono } from "hono";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { type Auth, type AuthContext, clientKey, isUuid, readBody, record, str } from "./context.js";
import { sendInvite } from "./emails.js";
import { AuthError, badRequest, forbidden, unprocessable } from "./errors.js";
import { deleteFactor, findUserFactor, listUserFactors } from "./factors.js";
import { verificationLink } from "./mail.js";
import { issueToken, type TokenColumn } from "./one-time-tokens.js";
import { redirectTarget } from "./redirects.js";
import { downgradeFactorSessions, endUserSessions } from "./sessions.js";
import {
  checkPassword,
  confirmEmail,
  createUser,
  deleteUser,
  factorJson,
  findUserByEmail,
  findUserById,
  hashPassword,
  listUsers,
  mergeMetadata,
  setIdentityEmail,
  softDeleteUser,
  updateUser,
  userJson,
  validateEmail,
} from "./users.js";

async function requireAdmin(stack: Stack, c: AuthContext): Promise<void> {
  const bearer = c.get("bearer");
  let role: unknown;
  try {
    role = bearer ? (await stack.keys.verify(bearer)).role : undefined;
  } catch {
    throw forbidden("bad_jwt", "invalid JWT: unable to parse or verify signature");
  }
  if (role !== "service_role") throw forbidden("not_admin", "User not allowed");
}

const notFound = () => new AuthError(404, "user_not_found", "User not found");

const duration = (value: string) => {
  const match = /^(\d+(?:\.\d+)?)(h|m|s|ms)$/.exec(value);
  if (!match) throw badRequest("validation_failed", "invalid format for ban duration");
  return Number(match[1]) * { h: 3600_000, m: 60_000, s: 1000, ms: 1 }[match[2] as "h" | "m" | "s" | "ms"];
};

/** Go's strconv.ParseUint(value, 10, 64), with its error text. */
function parseUint(value: string): number {
  const quoted = JSON.stringify(value);
  if (!/^\d+$/.test(value)) throw new Error(`strconv.ParseUint: parsing ${quoted}: invalid syntax`);
  if (BigInt(value) > 18446744073709551615n)
    throw new Error(`strconv.ParseUint: parsing ${quoted}: value out of range`);
  return Number(value);
}

/** `page` and `per_page` checked as GoTrue's Paginate (empty means the default). */
function pagination(pageParam = "", perPageParam = ""): { page: number; perPage: number } {
  try {
    const page = pageParam ? parseUint(pageParam) : 1;
    if (page === 0) throw new Error("page must be greater than 0");
    if (page > 2147483647) throw new Error("page exceeds maximum allowed value");
    const perPage = perPageParam ? parseUint(perPageParam) : 50;
    if (perPage === 0) throw new Error("per_page must be greater than 0");
    if (perPage > 1000) throw new Error("per_page must not exceed 1000");
    return { page, perPage };
  } catch (error) {
    throw badRequest("validation_failed", `Bad Pagination Parameters: ${(error as Error).message}`);
  }
}

export function adminRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { stack } = auth;
  app.use("/admin/*", async (c, next) => {
    await requireAdmin(stack, c);
    await next();
  });
  app.use("/invite", async (c, next) => {
    await requireAdmin(stack, c);
    await next();
  });

  app.get("/admin/users", async (c) => {
    const { page, perPage } = pagination(c.req.query("page"), c.req.query("per_page"));
    const { users: rows, total: count } = await listUsers(stack.db, page, perPage);
    const users = [];
    for (const row of rows) users.push(await userJson(stack.db, row));
    const base = `${stack.url}/auth/v1/admin/users`;
    const last = Math.max(1, Math.ceil(count / perPage));
    const links = [];
    if (page < last) links.push(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    links.push(`<${base}?page=${last}&per_page=${perPage}>; rel="last"`);
    c.header("X-Total-Count", String(count));
    c.header("Link", links.join(", "));
    return c.json({ users, aud: "authenticated" });
  });

  app.post("/admin/users", async (c) => {
    const body = await readBody(c);
    const email = validateEmail(body.email);
    const password = str(body.password);
    if (password) checkPassword(password, stack.config.auth.minimumPasswordLength);
    const user = await stack.db.transaction(async (tx) => {
      if (await findUserByEmail(tx, email)) {
        throw unprocessable("email_exists", "A user with this email address has already been registered");
      }
      const created = await createUser(tx, {
        ...(str(body.id) ? { id: str(body.id) } : {}),
        email,
        password: password ?? null,
        passwordHash: str(body.password_hash) ?? null,
        userMetadata: record(body.user_metadata) ?? {},
        appMetadata: record(body.app_metadata) ?? {},
        role: str(body.role) ?? "authenticated",
        confirmed: body.email_confirm === true,
      });
      const banDuration = str(body.ban_duration);
      if (banDuration && banDuration !== "none") {
        await updateUser(tx, created.id, { banned_until: new Date(Date.now() + duration(banDuration)) });
      }
      return userJson(tx, (await findUserById(tx, created.id)) ?? created);
    });
    return c.json(user);
  });

  app.get("/admin/users/:id", async (c) => {
    const user = await findUserById(stack.db, c.req.param("id"));
    if (!user) throw notFound();
    return c.json(await userJson(stack.db, user));
  });

  app.put("/admin/users/:id", async (c) => {
    const body = await readBody(c);
    const result = await stack.db.transaction(async (tx) => {
      const user = await findUserById(tx, c.req.param("id"));
      if (!user) throw notFound();
      if (body.email !== undefined) {
        const email = validateEmail(body.email);
        const taken = await findUserByEmail(tx, email);
        if (taken && taken.id !== user.id) {
          throw unprocessable("email_exists", "A user with this email address has already been registered");
        }
        await updateUser(tx, user.id, { email });
        await setIdentityEmail(tx, user.id, email);
      }
      const password = str(body.password);
      if (password !== undefined) {
        checkPassword(password, stack.config.auth.minimumPasswordLength);
        await updateUser(tx, user.id, { encrypted_password: await hashPassword(password) });
        await endUserSessions(tx, user.id);
      }
      if (body.email_confirm === true) await confirmEmail(tx, user.id);
      const userMetadata = record(body.user_metadata);
      if (userMetadata) {
        await updateUser(tx, user.id, { raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, userMetadata) });
      }
      const appMetadata = record(body.app_metadata);
      if (appMetadata) {
        await updateUser(tx, user.id, { raw_app_meta_data: mergeMetadata(user.raw_app_meta_data, appMetadata) });
      }
      const role = str(body.role);
      if (role) await updateUser(tx, user.id, { role });
      const banDuration = str(body.ban_duration);
      if (banDuration) {
        const until = banDuration === "none" ? null : new Date(Date.now() + duration(banDuration));
        await updateUser(tx, user.id, { banned_until: until });
      }
      return userJson(tx, (await findUserById(tx, user.id)) ?? user);
    });
    return c.json(result);
  });

  app.delete("/admin/users/:id", async (c) => {
    const body = await readBody(c);
    const user = await findUserById(stack.db, c.req.param("id"));
    if (!user) throw notFound();
    if (body.should_soft_delete === true) {
      await stack.db.transaction(async (tx) => {
        await softDeleteUser(tx, user.id);
        await endUserSessions(tx, user.id);
      });
    } else {
      await deleteUser(stack.db, user.id);
    }
    return c.json({});
  });

  // GoTrue's admin factor routes: loadUser, then loadFactor for one factor.
  const userOf = async (id: string) => {
    const user = await findUserById(stack.db, id);
    if (!user) throw notFound();
    return user;
  };
  const factorOf = async (userId: string, id: string) => {
    if (!isUuid(id)) throw new AuthError(404, "validation_failed", "factor_id must be an UUID");
    const factor = await findUserFactor(stack.db, userId, id);
    if (!factor) throw new AuthError(404, "mfa_factor_not_found", "Factor not found");
    return factor;
  };

  app.get("/admin/users/:id/factors", async (c) => {
    const user = await userOf(c.req.param("id"));
    return c.json((await listUserFactors(stack.db, user.id)).map(factorJson));
  });

  app.put("/admin/users/:id/factors/:factor", async (c) => {
    const user = await userOf(c.req.param("id"));
    const factor = await factorOf(user.id, c.req.param("factor"));
    const friendlyName = str((await readBody(c)).friendly_name);
    if (friendlyName) {
      await stack.db.query("update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1", [
        factor.id,
        friendlyName,
      ]);
    }
    return c.json(factorJson((await findUserFactor(stack.db, user.id, factor.id)) ?? factor));
  });

  app.delete("/admin/users/:id/factors/:factor", async (c) => {
    const user = await userOf(c.req.param("id"));
    const factor = await factorOf(user.id, c.req.param("factor"));
    await stack.db.transaction(async (tx) => {
      await deleteFactor(tx, factor.id);
      await downgradeFactorSessions(tx, user.id, factor.id);
    });
    return c.json(factorJson(factor));
  });

  app.post("/invite", async (c) => {
    const body = await readBody(c);
    const email = validateEmail(body.email);
    const redirectTo = redirectTarget(stack.config.auth, c.req.query("redirect_to"));
    const user = await stack.db.transaction(async (tx) => {
      let user = await findUserByEmail(tx, email);
      if (user?.email_confirmed_at) {
        throw unprocessable("email_exists", "A user with this email address has already been registered");
      }
      user ??= await createUser(tx, { email, userMetadata: record(body.data) ?? {}, confirmed: false, invited: true });
      await sendInvite(auth, tx, user, { redirectTo, challenge: null, client: clientKey(c) });
      return userJson(tx, (await findUserById(tx, user.id)) ?? user);
    });
    return c.json(user);
  });

  app.post("/admin/generate_link", async (c) => {
    const body = await readBody(c);
    const type = str(body.type) ?? "";
    const email = validateEmail(body.email);
    const redirectTo = redirectTarget(stack.config.auth, c.req.query("redirect_to") ?? str(body.redirect_to));
    const kinds: Record<
      string,
      { column: TokenColumn; link: "signup" | "invite" | "magiclink" | "recovery" | "email_change" }
    > = {
      signup: { column: "confirmation_token", link: "signup" },
      invite: { column: "confirmation_token", link: "invite" },
      magiclink: { column: "recovery_token", link: "magiclink" },
      recovery: { column: "recovery_token", link: "recovery" },
      email_change_current: { column: "email_change_token_current", link: "email_change" },
      email_change_new: { column: "email_change_token_new", link: "email_change" },
    };
    const kind = kinds[type];
    if (!kind) throw badRequest("validation_failed", "Invalid email action link type requested");
    const result = await stack.db.transaction(async (tx) => {
      let user = await findUserByEmail(tx, email);
      if (type === "signup") {
        if (user?.email_confirmed_at)
          throw unprocessable("email_exists", "A user with this email address has already been registered");
        const password = str(body.password);
        if (!password) throw unprocessable("validation_failed", "Signup requires a valid password");
        checkPassword(password, stack.config.auth.minimumPasswordLength);
        user ??= await createUser(tx, { email, password, userMetadata: record(body.data) ?? {}, confirmed: false });
      } else if (type === "invite") {
        user ??= await createUser(tx, {
          email,
          userMetadata: record(body.data) ?? {},
          confirmed: false,
          invited: true,
        });
      } else if (type === "magiclink" && !user) {
        user = await createUser(tx, { email, userMetadata: record(body.data) ?? {}, confirmed: false });
      }
      if (!user) throw notFound();
      let tokenEmail = email;
      if (type.startsWith("email_change")) {
        const newEmail = validateEmail(body.new_email);
        if (await findUserByEmail(tx, newEmail)) {
          throw unprocessable("email_exists", "A user with this email address has already been registered");
        }
        await updateUser(tx, user.id, { email_change: newEmail, email_change_confirm_status: 0 });
        if (type === "email_change_new") tokenEmail = newEmail;
      }
      const token = await issueToken(tx, user.id, kind.column, tokenEmail, {
        otpLength: stack.config.auth.email.otpLength,
        pkce: false,
      });
      const json = await userJson(tx, (await findUserById(tx, user.id)) ?? user);
      return {
        ...json,
        action_link: verificationLink(stack, token.hash, kind.link, redirectTo),
        email_otp: token.otp,
        hashed_token: token.hash,
        verification_type: kind.link,
        redirect_to: redirectTo,
      };
    });
    return c.json(result);
  });
  return app;
}
