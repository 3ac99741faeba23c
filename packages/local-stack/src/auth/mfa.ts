/**
 * GoTrue's multi-factor API for TOTP (internal/api/mfa.go): `POST /factors`
 * enrols an authenticator app, `/factors/{id}/challenge` and `/verify` raise the
 * session to aal2, `DELETE /factors/{id}` removes a factor. Phone and WebAuthn
 * factors are not served (their enrolment answers as disabled). The MFA
 * verification attempt hook runs when config.toml enables it (./hooks.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { Hono } from "hono";
import type { Queryable } from "../database/types.js";
import type { StackEnv } from "../gateway/gateway.js";
import type { Stack } from "../stack.js";
import { type Auth, clientKey, isUuid, readBody, str } from "./context.js";
import { AuthError, badRequest, forbidden, unprocessable } from "./errors.js";
import {
  createChallenge,
  deleteChallenge,
  deleteFactor,
  deleteStaleFactors,
  deleteUnverifiedTotpFactors,
  findChallenge,
  findUserFactor,
  insertTotpFactor,
  listUserFactors,
  markChallengeVerified,
  markFactorVerified,
} from "./factors.js";
import { mfaVerificationAttempt } from "./hooks.js";
import {
  authenticate,
  type Caller,
  downgradeFactorSessions,
  endSessionsBelowAal2,
  endUserSessions,
  raiseSession,
  sessionIsAal2,
} from "./sessions.js";
import type { FactorRow } from "./users.js";

/** GoTrue's defaults: unverified factors and challenges live five minutes; ten verified factors at most. */
const factorExpirySeconds = 300;
const challengeExpirySeconds = 300;
const maxVerifiedFactors = 10;

// RFC 6238 as GoTrue validates it: SHA-1, 6 digits, 30 s steps, one step of skew either way.
const period = 30;
const digits = 6;
const skew = 1;

const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, as otpauth secrets are written. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/=+$/, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The TOTP code of a base32 secret at a time (RFC 6238 over RFC 4226's HOTP). */
export function totpCode(secret: string, at: Date = new Date()): string {
  const counter = Math.floor(at.getTime() / 1000 / period);
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac("sha1", base32Decode(secret)).update(message).digest();
  const offset = (hmac[hmac.length - 1] ?? 0) & 15;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

function totpValid(code: string, secret: string, now = Date.now()): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  for (let step = -skew; step <= skew; step++) {
    const expected = totpCode(secret, new Date(now + step * period * 1000));
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(code))) return true;
  }
  return false;
}

/** The otpauth URI GoTrue's TOTP library (pquerna/otp) writes: query keys sorted. */
function otpauthUri(issuer: string, account: string, secret: string): string {
  const query = new URLSearchParams({
    algorithm: "SHA1",
    digits: String(digits),
    issuer,
    period: String(period),
    secret,
  });
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  return `otpauth://totp/${label}?${query.toString().replaceAll("+", "%20")}`;
}

/** The address a challenge is bound to; a request not served over a socket counts as loopback. */
function clientIp(c: Parameters<typeof clientKey>[0]): string {
  const address = clientKey(c);
  return isIP(address) ? address : "127.0.0.1";
}

function requireSession(caller: Caller): string {
  if (!caller.sessionId) {
    throw new AuthError(500, "unexpected_failure", "A valid session and a registered user are required");
  }
  return caller.sessionId;
}

/** GoTrue's loadFactor: the path's factor, only if it is the caller's. */
async function loadFactor(db: Queryable, caller: Caller, id: string): Promise<FactorRow> {
  if (!isUuid(id)) throw new AuthError(404, "validation_failed", "factor_id must be an UUID");
  const factor = await findUserFactor(db, caller.user.id, id);
  if (!factor) throw new AuthError(404, "mfa_factor_not_found", "Factor not found");
  return factor;
}

/** GoTrue's validateFactors: stale enrolments go, names stay unique, the counts stay within limits. */
async function validateNewFactor(auth: Auth, caller: Caller, friendlyName: string): Promise<void> {
  const { db, config } = auth.stack;
  await deleteStaleFactors(db, factorExpirySeconds);
  const factors = await listUserFactors(db, caller.user.id);
  if (factors.some((factor) => (factor.friendly_name ?? "") === friendlyName)) {
    throw unprocessable(
      "mfa_factor_name_conflict",
      `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`,
    );
  }
  const verified = factors.filter((factor) => factor.status === "verified").length;
  if (factors.length >= config.auth.mfa.maxEnrolledFactors || verified >= maxVerifiedFactors) {
    throw unprocessable(
      "too_many_enrolled_mfa_factors",
      "Maximum number of verified factors reached, unenroll to continue",
    );
  }
  if (verified > 0 && !(await sessionIsAal2(db, caller.sessionId))) {
    throw forbidden("insufficient_aal", "AAL2 required to enroll a new factor");
  }
}

/** GoTrue's requireNotAnonymous in front of /factors: an anonymous session may not add a second factor. */
async function authenticateNotAnonymous(stack: Stack, bearer: string | null | undefined) {
  const caller = await authenticate(stack, bearer);
  if (caller.claims.is_anonymous === true) {
    throw forbidden("no_authorization", "Anonymous user not allowed to perform these actions");
  }
  return caller;
}

export function mfaRoutes(auth: Auth): Hono<StackEnv> {
  const app = new Hono<StackEnv>();
  const { stack } = auth;
  const totpConfig = () => stack.config.auth.mfa.totp;

  app.post("/factors", async (c) => {
    const caller = await authenticateNotAnonymous(stack, c.get("bearer"));
    requireSession(caller);
    const body = await readBody(c);
    const factorType = str(body.factor_type);
    if (factorType === "phone") throw unprocessable("mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone");
    if (factorType === "webauthn") {
      throw unprocessable("mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn");
    }
    if (factorType !== "totp") {
      throw badRequest("validation_failed", "factor_type needs to be totp, phone, or webauthn");
    }
    if (!totpConfig().enrollEnabled)
      throw unprocessable("mfa_totp_enroll_not_enabled", "MFA enroll is disabled for TOTP");

    const friendlyName = str(body.friendly_name) ?? "";
    const issuer = str(body.issuer) || new URL(stack.config.auth.siteUrl).host;
    await validateNewFactor(auth, caller, friendlyName);

    // pquerna/otp's default: a 20-byte secret, 32 base32 characters.
    const secret = base32Encode(randomBytes(20));
    const uri = otpauthUri(issuer, caller.user.email ?? "", secret);
    // Loaded at the first enrolment, not with the stack.
    const { default: QRCode } = await import("qrcode");
    // GoTrue answers the bare SVG; auth-js turns it into a data URL.
    const qrCode = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "H", margin: 4, width: 200 });
    const id = await insertTotpFactor(stack.db, caller.user.id, friendlyName, secret);
    return c.json({ id, type: "totp", friendly_name: friendlyName, totp: { qr_code: qrCode, secret, uri } });
  });

  app.post("/factors/:id/challenge", async (c) => {
    const caller = await authenticateNotAnonymous(stack, c.get("bearer"));
    const factor = await loadFactor(stack.db, caller, c.req.param("id"));
    auth.limiter.take("mfaChallenge", clientKey(c));
    if (!totpConfig().verifyEnabled) {
      throw unprocessable("mfa_totp_verify_not_enabled", "MFA verification is disabled for TOTP");
    }
    const challenge = await stack.db.transaction((tx) => createChallenge(tx, factor.id, clientIp(c)));
    const expiresAt = Math.floor(new Date(challenge.created_at).getTime() / 1000) + challengeExpirySeconds;
    return c.json({ id: challenge.id, type: "totp", expires_at: expiresAt });
  });

  app.post("/factors/:id/verify", async (c) => {
    const caller = await authenticateNotAnonymous(stack, c.get("bearer"));
    const factor = await loadFactor(stack.db, caller, c.req.param("id"));
    auth.limiter.take("mfaVerify", clientKey(c));
    const body = await readBody(c);
    const code = str(body.code) ?? "";
    if (!code) throw badRequest("validation_failed", "Code needs to be non-empty");
    if (!totpConfig().verifyEnabled) {
      throw unprocessable("mfa_totp_verify_not_enabled", "MFA verification is disabled for TOTP");
    }
    const challengeId = str(body.challenge_id) ?? "";
    if (!isUuid(challengeId)) throw badRequest("validation_failed", "challenge_id must be an UUID");
    const sessionId = requireSession(caller);

    const challenge = await findChallenge(stack.db, challengeId, factor.id, clientIp(c), challengeExpirySeconds);
    if (!challenge) {
      throw unprocessable("mfa_factor_not_found", "MFA factor with the provided challenge ID not found");
    }
    if (challenge.verified_at || !challenge.same_ip) {
      throw unprocessable("mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.");
    }
    if (challenge.expired) {
      await deleteChallenge(stack.db, challenge.id);
      throw unprocessable(
        "mfa_challenge_expired",
        `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    const valid = totpValid(code, factor.secret ?? "");
    // As GoTrue: the hook hears every attempt, valid or not, before the answer.
    const hook = await mfaVerificationAttempt(stack, {
      userId: caller.user.id,
      factorId: factor.id,
      factorType: "totp",
      valid,
      ipAddress: clientIp(c),
    });
    if (hook.rejected) {
      await endUserSessions(stack.db, caller.user.id);
      throw forbidden("mfa_verification_rejected", hook.message);
    }
    if (!valid) throw unprocessable("mfa_verification_failed", "Invalid TOTP code entered");

    const session = await stack.db.transaction(async (tx) => {
      await markChallengeVerified(tx, challenge.id);
      if (factor.status !== "verified") await markFactorVerified(tx, factor.id);
      const raised = await raiseSession(stack, tx, caller.user.id, sessionId, factor.id, "totp");
      // Every other session of the user that never reached aal2 ends, as in GoTrue.
      await endSessionsBelowAal2(tx, caller.user.id);
      await deleteUnverifiedTotpFactors(tx, caller.user.id);
      return raised;
    });
    return c.json(session);
  });

  app.delete("/factors/:id", async (c) => {
    const caller = await authenticateNotAnonymous(stack, c.get("bearer"));
    requireSession(caller);
    const factor = await loadFactor(stack.db, caller, c.req.param("id"));
    if (factor.status === "verified" && !(await sessionIsAal2(stack.db, caller.sessionId))) {
      throw unprocessable("insufficient_aal", "AAL2 required to unenroll verified factor");
    }
    await stack.db.transaction(async (tx) => {
      await downgradeFactorSessions(tx, caller.user.id, factor.id);
      await deleteFactor(tx, factor.id);
    });
    return c.json({ id: factor.id });
  });
  return app;
}
