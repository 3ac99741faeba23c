/** Sessions, refresh tokens (rotation and reuse detection) and GoTrue's access tokens. */
import { randomInt, randomUUID } from "node:crypto";
import type { Queryable } from "../database/types.js";
import { JwtError } from "../keys/keys.js";
import type { Stack } from "../stack.js";
import { audit } from "./audit.js";
import { AuthError, badRequest, forbidden } from "./errors.js";
import { findUserById, type UserRow, userJson } from "./users.js";

/** How a session was authenticated (the `amr` claim's methods). */
export type AuthMethod =
  | "password"
  | "otp"
  | "magiclink"
  | "email/signup"
  | "recovery"
  | "invite"
  | "email_change"
  | "anonymous"
  | "totp";

/** Methods that are a second factor: a session holding one of their claims is aal2. */
const secondFactorMethods = new Set(["totp", "mfa/phone", "mfa/webauthn"]);

interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  updated_at: Date;
  parent: string | null;
  session_id: string | null;
}

const base32 = "abcdefghijklmnopqrstuvwxyz234567";

/** 12 lowercase base32 characters, as GoTrue's `SecureAlphanumeric(12)`. */
function newRefreshToken(): string {
  let token = "";
  for (let i = 0; i < 12; i++) token += base32[randomInt(32)];
  return token;
}

async function insertRefreshToken(db: Queryable, userId: string, sessionId: string, parent: string | null) {
  const token = newRefreshToken();
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token, userId, parent, sessionId],
  );
  return token;
}

/**
 * Signs the access token with exactly GoTrue's claims. As its CalculateAALAndAMR,
 * `aal` follows the session's claims and `amr` lists them most recent first.
 */
async function accessToken(stack: Stack, user: UserRow, sessionId: string, db: Queryable) {
  const amr = await db.query<{ authentication_method: string; updated_at: Date }>(
    "select authentication_method, updated_at from auth.mfa_amr_claims where session_id = $1 order by updated_at desc",
    [sessionId],
  );
  const aal = amr.some((claim) => secondFactorMethods.has(claim.authentication_method)) ? "aal2" : "aal1";
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + stack.config.auth.jwtExpiry;
  const token = await stack.keys.signAccessToken({
    iss: `${stack.url}/auth/v1`,
    sub: user.id,
    aud: user.aud ?? "authenticated",
    exp,
    iat,
    email: user.email ?? "",
    phone: user.phone ?? "",
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? "authenticated",
    aal,
    amr: amr.map((claim) => ({
      method: claim.authentication_method,
      timestamp: Math.floor(new Date(claim.updated_at).getTime() / 1000),
    })),
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  });
  return { token, exp };
}

async function sessionJson(stack: Stack, db: Queryable, userId: string, sessionId: string, refreshToken: string) {
  const user = await findUserById(db, userId);
  if (!user) throw new AuthError(404, "user_not_found", "User not found");
  const { token, exp } = await accessToken(stack, user, sessionId, db);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: stack.config.auth.jwtExpiry,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await userJson(db, user),
  };
}

export type SessionJson = Awaited<ReturnType<typeof sessionJson>>;

/** Starts a session for a user (sign-in), stamping last_sign_in_at as GoTrue does. */
export async function issueSession(stack: Stack, db: Queryable, userId: string, method: AuthMethod) {
  const sessionId = randomUUID();
  await db.query(
    "insert into auth.sessions (id, user_id, created_at, updated_at, aal) values ($1, $2, now(), now(), 'aal1')",
    [sessionId, userId],
  );
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values ($1, $2, now(), now(), $3)`,
    [randomUUID(), sessionId, method],
  );
  await db.query("update auth.users set last_sign_in_at = now() where id = $1", [userId]);
  await db.query("update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'", [
    userId,
  ]);
  const refreshToken = await insertRefreshToken(db, userId, sessionId, null);
  const user = await findUserById(db, userId);
  if (user) await audit(db, user, "login", { provider: "email" });
  return sessionJson(stack, db, userId, sessionId, refreshToken);
}

/**
 * A verified second factor raises the caller's session (GoTrue's
 * updateMFASessionAndClaims): the method's amr claim is added or renewed, the
 * session becomes aal2 bound to the factor, and its newest refresh token is
 * swapped for a child, so the answer is a fresh access and refresh token.
 */
export async function raiseSession(
  stack: Stack,
  db: Queryable,
  userId: string,
  sessionId: string,
  factorId: string,
  method: AuthMethod,
): Promise<SessionJson> {
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values ($1, $2, now(), now(), $3)
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [randomUUID(), sessionId, method],
  );
  await db.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [
    sessionId,
    factorId,
  ]);
  const [current] = await db.query<{ id: string; token: string }>(
    "select id, token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1",
    [sessionId],
  );
  if (current) {
    await db.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1", [current.id]);
  }
  const token = await insertRefreshToken(db, userId, sessionId, current?.token ?? null);
  return sessionJson(stack, db, userId, sessionId, token);
}

/**
 * `grant_type=refresh_token` as GoTrue's RefreshTokenGrant: the presented token is
 * revoked and a child issued. A revoked token that is the parent of the active one
 * gets the active token back (a retry); one revoked within the reuse interval gets
 * a new child; later reuse revokes the session's whole family (refresh_token_already_used).
 */
export async function refreshGrant(stack: Stack, presented: string): Promise<SessionJson> {
  const outcome = await stack.db.transaction(async (tx) => {
    const [row] = await tx.query<RefreshTokenRow>("select * from auth.refresh_tokens where token = $1 for update", [
      presented,
    ]);
    if (!row?.session_id) {
      return badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    }
    const [session] = await tx.query<{ id: string; not_after: Date | null }>(
      "select id, not_after from auth.sessions where id = $1",
      [row.session_id],
    );
    if (!session) return badRequest("session_not_found", "Invalid Refresh Token: No Valid Session Found");
    if (session.not_after && new Date(session.not_after) < new Date()) {
      return badRequest("session_expired", "Invalid Refresh Token: Session Expired");
    }
    const user = await findUserById(tx, row.user_id);
    if (!user) return badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    if (user.banned_until && new Date(user.banned_until) > new Date()) {
      return badRequest("user_banned", "Invalid Refresh Token: User Banned");
    }
    let token: string | null = null;
    if (row.revoked) {
      const [active] = await tx.query<RefreshTokenRow>(
        "select * from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1",
        [row.session_id],
      );
      const reuseUntil = new Date(row.updated_at).getTime() + stack.config.auth.refreshTokenReuseInterval * 1000;
      if (active && active.parent === row.token) {
        // The client lost the answer to its refresh and retries: it gets the same active token.
        token = active.token;
      } else if (Date.now() > reuseUntil) {
        if (stack.config.auth.enableRefreshTokenRotation) {
          await tx.query("update auth.refresh_tokens set revoked = true where session_id = $1 and revoked = false", [
            row.session_id,
          ]);
        }
        return { revokedFamily: true } as const;
      }
    }
    if (token === null) {
      // GoTrue's GrantRefreshTokenSwap: revoke the presented token, issue its child.
      await tx.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1", [row.id]);
      token = await insertRefreshToken(tx, row.user_id, row.session_id, row.token);
    }
    await audit(tx, user, "token_refreshed");
    await tx.query("update auth.sessions set refreshed_at = now()::timestamp, updated_at = now() where id = $1", [
      row.session_id,
    ]);
    return sessionJson(stack, tx, row.user_id, row.session_id, token);
  });
  // The family's revocation must commit even though the request fails.
  if ("revokedFamily" in outcome) throw badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used");
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

export interface Caller {
  user: UserRow;
  sessionId: string | null;
  claims: Record<string, unknown>;
}

/** The user behind a request's bearer JWT, checked as GoTrue's `requireAuthentication` does. */
export async function authenticate(stack: Stack, bearer: string | null | undefined): Promise<Caller> {
  if (!bearer) throw new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token");
  let claims: Record<string, unknown>;
  try {
    claims = (await stack.keys.verify(bearer)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof JwtError ? error.message : "unable to parse or verify signature";
    throw forbidden("bad_jwt", `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
  const sub = typeof claims.sub === "string" ? claims.sub : "";
  if (!sub) throw forbidden("bad_jwt", "invalid claim: missing sub claim");
  const user = await findUserById(stack.db, sub);
  if (!user) throw forbidden("user_not_found", "User from sub claim in JWT does not exist");
  const sessionId = typeof claims.session_id === "string" ? claims.session_id : null;
  if (sessionId) {
    const [session] = await stack.db.query("select id from auth.sessions where id = $1", [sessionId]);
    if (!session) throw forbidden("session_not_found", "Session from session_id claim in JWT does not exist");
  }
  return { user, sessionId, claims };
}

/** Whether the session is aal2, as GoTrue's `session.IsAAL2()` reads it from auth.sessions. */
export async function sessionIsAal2(db: Queryable, sessionId: string | null): Promise<boolean> {
  if (!sessionId) return false;
  const [session] = await db.query<{ aal: string | null }>("select aal::text from auth.sessions where id = $1", [
    sessionId,
  ]);
  return session?.aal === "aal2";
}

/** Ends every session of the user that never reached aal2 (after a factor is verified, as GoTrue). */
export async function endSessionsBelowAal2(db: Queryable, userId: string): Promise<void> {
  await db.query("delete from auth.sessions where user_id = $1 and (aal is null or aal::text < 'aal2')", [userId]);
}

/** GoTrue's DowngradeSessionsToAAL1: sessions raised by the factor lose its claim and fall to aal1. */
export async function downgradeFactorSessions(db: Queryable, userId: string, factorId: string): Promise<void> {
  await db.query(
    `delete from auth.mfa_amr_claims where authentication_method = 'totp'
       and session_id in (select id from auth.sessions where factor_id = $1)`,
    [factorId],
  );
  await db.query("update auth.sessions set aal = 'aal1', factor_id = null where user_id = $1 and factor_id = $2", [
    userId,
    factorId,
  ]);
}

/** Ends the user's sessions, all of them or all but `keep`. */
export async function endUserSessions(db: Queryable, userId: string, keep: string | null = null): Promise<void> {
  await db.query("delete from auth.sessions where user_id = $1 and id is distinct from $2", [userId, keep]);
}

/** `/logout`: this session, every session of the user, or all but this one. */
export async function endSessions(db: Queryable, caller: Caller, scope: string): Promise<void> {
  await audit(db, caller.user, "logout");
  if (scope === "global" || !caller.sessionId) {
    await db.query("delete from auth.sessions where user_id = $1", [caller.user.id]);
  } else if (scope === "others") {
    await db.query("delete from auth.sessions where user_id = $1 and id <> $2", [caller.user.id, caller.sessionId]);
  } else {
    await db.query("delete from auth.sessions where id = $1", [caller.sessionId]);
  }
}
