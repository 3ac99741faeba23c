/** `/verify`: email links (GET, redirecting) and OTPs or token hashes (POST, returning a session). */
import { Hono } from "hono";
import type { Queryable } from "../database/types.js";
import type { StackEnv } from "../gateway/gateway.js";
import { type Auth, clientKey, readBody, str } from "./context.js";
import { AuthError, badRequest, errorResponse, forbidden, unprocessable } from "./errors.js";
import { issueAuthCode } from "./flow-state.js";
import { clearToken, type EmailTokenColumn as TokenColumn, tokenHash } from "./one-time-tokens.js";
import { redirectTarget } from "./redirects.js";
import { type AuthMethod, issueSession, type SessionJson } from "./sessions.js";
import {
  applyEmailChange,
  confirmEmail,
  findUserById,
  findUserByOtp,
  findUserByTokenHash,
  isBanned,
  type UserRow,
  updateUser,
  validateEmail,
} from "./users.js";

const linkTypes = ["signup", "invite", "recovery", "magiclink", "email_change"] as const;
const otpTypes = [...linkTypes, "email"] as const;
type VerifyType = (typeof otpTypes)[number];

const columnsOf: Record<VerifyType, TokenColumn[]> = {
  signup: ["confirmation_token"],
  invite: ["confirmation_token"],
  recovery: ["recovery_token"],
  magiclink: ["recovery_token"],
  email_change: ["email_change_token_new", "email_change_token_current"],
  email: ["confirmation_token", "recovery_token"],
};

const methodOf: Record<VerifyType, AuthMethod> = {
  signup: "email/signup",
  invite: "invite",
  recovery: "recovery",
  magiclink: "magiclink",
  email_change: "email_change",
  email: "otp",
};

const expired = () => forbidden("otp_expired", "Token has expired or is invalid");

interface Match {
  user: UserRow;
  column: TokenColumn;
  pkce: boolean;
}

// GoTrue words a bad link (a token hash) and a bad code (email + OTP) differently.
const linkExpired = () => forbidden("otp_expired", "Email link is invalid or has expired");

type Lookup = { hash: string } | { email: string; otp: string };

/**
 * Finds the user whose token of that type matches (a token hash, or email +
 * OTP), checked as GoTrue's verifyTokenHash / verifyUserAndToken: unknown or
 * expired is otp_expired, a banned user is user_banned.
 */
async function findByToken(db: Queryable, type: string, lookup: Lookup, otpExpiry: number): Promise<Match> {
  const invalid = "hash" in lookup ? linkExpired : expired;
  if (!(otpTypes as readonly string[]).includes(type)) {
    // Phone types and unknown ones: no email token can match them.
    if ("hash" in lookup) throw badRequest("validation_failed", "Invalid email verification type");
    throw expired();
  }
  for (const column of columnsOf[type as VerifyType]) {
    const user =
      "hash" in lookup
        ? await findUserByTokenHash(db, column, lookup.hash)
        : await findUserByOtp(db, column, lookup.email, tokenHash(lookup.email.toLowerCase(), lookup.otp));
    if (!user) continue;
    if (isBanned(user)) throw forbidden("user_banned", "User is banned");
    const match = { user, column, pkce: String(user[column] ?? "").startsWith("pkce_") };
    if (!withinExpiry(match, otpExpiry)) throw invalid();
    return match;
  }
  throw invalid();
}

function withinExpiry(match: Match, otpExpiry: number): boolean {
  const sentAt =
    match.column === "confirmation_token"
      ? match.user.confirmation_sent_at
      : match.column === "recovery_token"
        ? match.user.recovery_sent_at
        : match.user.email_change_sent_at;
  return sentAt != null && Date.now() <= new Date(sentAt).getTime() + otpExpiry * 1000;
}

type Outcome = { kind: "session"; user: UserRow; method: AuthMethod } | { kind: "message"; message: string };

/** Applies a matched token: confirms the email, consumes a magic link or recovery, or advances an email change. */
async function apply(auth: Auth, db: Queryable, type: VerifyType, match: Match): Promise<Outcome> {
  const { user, column } = match;
  const method = type === "email" && column === "recovery_token" ? "otp" : methodOf[type];
  if (column === "confirmation_token") {
    await confirmEmail(db, user.id);
  } else if (column === "recovery_token") {
    await clearToken(db, user.id, column);
    if (!user.email_confirmed_at) await confirmEmail(db, user.id);
  } else {
    await clearToken(db, user.id, column);
    const other: TokenColumn =
      column === "email_change_token_new" ? "email_change_token_current" : "email_change_token_new";
    const pendingOther = auth.stack.config.auth.email.doubleConfirmChanges && (user[other] ?? "") !== "";
    if (pendingOther && user.email_change_confirm_status === 0) {
      await updateUser(db, user.id, { email_change_confirm_status: 1 });
      return {
        kind: "message",
        message: "Confirmation link accepted. Please proceed to confirm link sent to the other email",
      };
    }
    await applyEmailChange(db, user, user.email_change ?? "");
  }
  const fresh = await findUserById(db, user.id);
  return { kind: "session", user: fresh ?? user, method };
}

const flowMethodOf: Record<string, string> = {
  signup: "email/signup",
  invite: "invite",
  recovery: "recovery",
  magiclink: "magiclink",
  email_change: "email_change",
};

export function verifyRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { stack } = auth;

  app.get("/verify", async (c) => {
    const redirectTo = redirectTarget(stack.config.auth, c.req.query("redirect_to"));
    const type = c.req.query("type") ?? "";
    const token = c.req.query("token") ?? "";
    const isPkce = token.startsWith("pkce_");
    if (!type) throw badRequest("validation_failed", "Verify requires a verification type");
    if (!token) throw badRequest("validation_failed", "Verify requires a token or a token hash");
    try {
      auth.limiter.hit("tokenVerifications", clientKey(c));
      const result = await stack.db.transaction(async (tx) => {
        const match = await findByToken(tx, type, { hash: token }, stack.config.auth.email.otpExpiry);
        const outcome = await apply(auth, tx, type as VerifyType, match);
        if (outcome.kind === "message") {
          const target = isPkce ? withQuery(redirectTo, { message: outcome.message }) : redirectTo;
          return withFragment(target, { message: outcome.message });
        }
        if (isPkce) {
          return withQuery(redirectTo, { code: await issueAuthCode(tx, outcome.user.id, flowMethodOf[type] ?? type) });
        }
        const session = await issueSession(stack, tx, outcome.user.id, outcome.method);
        return withFragment(redirectTo, sessionFragment(session, type));
      });
      return c.redirect(result, 303);
    } catch (error) {
      if (!(error instanceof AuthError)) return errorResponse(c, error);
      const params = {
        error: error.status === 403 ? "access_denied" : error.status >= 500 ? "server_error" : "invalid_request",
        error_code: error.code,
        error_description: error.message,
      };
      const target = isPkce ? withQuery(redirectTo, params) : redirectTo;
      return c.redirect(withFragment(target, { ...params, sb: "" }), 303);
    }
  });

  app.post("/verify", async (c) => {
    const body = await readBody(c);
    const type = str(body.type) ?? "";
    const lookup = verifyLookup(body, type);
    auth.limiter.hit("tokenVerifications", clientKey(c));
    const result = await stack.db.transaction(async (tx) => {
      const match = await findByToken(tx, type, lookup, stack.config.auth.email.otpExpiry);
      const outcome = await apply(auth, tx, type as VerifyType, match);
      if (outcome.kind === "message") return { msg: outcome.message, code: 200 };
      return issueSession(stack, tx, outcome.user.id, outcome.method);
    });
    return c.json(result);
  });
  return app;
}

/** The POST body checked as GoTrue's VerifyParams.Validate, in its order and words. */
function verifyLookup(body: Record<string, unknown>, type: string): Lookup {
  if (!type) throw badRequest("validation_failed", "Verify requires a verification type");
  const token = str(body.token) ?? "";
  const hash = str(body.token_hash) ?? "";
  if ((!token && !hash) || (token && hash)) {
    throw badRequest("validation_failed", "Verify requires either a token or a token hash");
  }
  const email = str(body.email) ?? "";
  const phone = str(body.phone) ?? "";
  if (hash) {
    if (email || phone || str(body.redirect_to)) {
      throw badRequest("validation_failed", "Only the token_hash and type should be provided");
    }
    return { hash };
  }
  if (phone && !email) {
    // GoTrue's validatePhone: "+" and spaces dropped, then E.164 digits.
    if (!/^[1-9][0-9]{1,14}$/.test(phone.replace(/^\+/, "").replaceAll(" ", ""))) {
      throw badRequest("validation_failed", "Invalid phone number format (E.164 required)");
    }
    return { email: "", otp: token }; // no user here has a phone: never matches
  }
  if (!email || phone) {
    throw badRequest("validation_failed", "Only an email address or phone number should be provided on verify");
  }
  try {
    return { email: validateEmail(email), otp: token.replaceAll("-", "") };
  } catch {
    throw unprocessable("validation_failed", "Invalid email format");
  }
}

function sessionFragment(session: SessionJson, type: string): Record<string, string> {
  return {
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: session.refresh_token,
    token_type: "bearer",
    type,
    sb: "",
  };
}

function withQuery(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

function withFragment(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  url.hash = new URLSearchParams(params).toString();
  return url.toString();
}
