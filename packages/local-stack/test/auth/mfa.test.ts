import { describe, expect, it } from "vitest";
import { totpCode } from "../../src/auth/mfa.js";
import { clientFor, stackPerFile } from "../support/stack.js";
import { decodeJwt, uniqueEmail } from "./helpers.js";

const stack = stackPerFile({
  configure: (config) => {
    config.auth.mfa.totp = { enrollEnabled: true, verifyEnabled: true };
  },
});

const password = "correct horse battery";

async function newAccount() {
  const email = uniqueEmail("mfa");
  const { data, error } = await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw error ?? new Error("no user");
  return { email, id: data.user.id };
}

async function signIn(email: string) {
  const client = clientFor(stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ?? new Error("no session");
  return { client, session: data.session };
}

type Client = ReturnType<typeof clientFor>;

async function enroll(client: Client, friendlyName?: string) {
  const { data, error } = await client.auth.mfa.enroll({
    factorType: "totp",
    ...(friendlyName ? { friendlyName } : {}),
  });
  if (error || !data) throw error ?? new Error("no factor");
  if (data.type !== "totp") throw new Error("not a TOTP factor");
  return data;
}

/** Enrols and verifies a factor; the client's session is then aal2. */
async function withVerifiedFactor() {
  const account = await newAccount();
  const { client } = await signIn(account.email);
  const factor = await enroll(client, "Phone");
  const { error } = await client.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: totpCode(factor.totp.secret),
  });
  if (error) throw error;
  return { ...account, client, factor };
}

/** A code the authenticator shows at none of the accepted steps. */
function wrongCode(secret: string) {
  const now = Date.now();
  const accepted = [-1, 0, 1].map((step) => totpCode(secret, new Date(now + step * 30_000)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!accepted.includes(candidate)) return candidate;
  }
}

describe("TOTP factors", () => {
  it("enrols: an SVG QR code, a base32 secret and an otpauth URI naming the site and the user", async () => {
    const { email } = await newAccount();
    const { client } = await signIn(email);
    const factor = await enroll(client, "My phone");
    expect(factor.friendly_name).toBe("My phone");
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg[\s\S]*<\/svg>\s*$/);
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(factor.totp.uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe(`/127.0.0.1:3000:${email}`);
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      algorithm: "SHA1",
      digits: "6",
      issuer: "127.0.0.1:3000",
      period: "30",
      secret: factor.totp.secret,
    });

    const { data } = await client.auth.mfa.listFactors();
    expect(data?.all).toEqual([
      expect.objectContaining({ id: factor.id, friendly_name: "My phone", factor_type: "totp", status: "unverified" }),
    ]);
    expect(data?.totp).toEqual([]);
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
  });

  it("takes an issuer, and refuses a second factor of the same name", async () => {
    const { email } = await newAccount();
    const { client } = await signIn(email);
    const { data } = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Key", issuer: "Engram" });
    expect(data?.type === "totp" && new URL(data.totp.uri).searchParams.get("issuer")).toBe("Engram");
    const again = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Key" });
    expect(again.error).toMatchObject({ status: 422, code: "mfa_factor_name_conflict" });
  });

  it("verifies: a wrong code is refused, the right one gives a new aal2 session and verifies the factor", async () => {
    const { email, id } = await newAccount();
    const { client, session } = await signIn(email);
    const other = await signIn(email);
    const factor = await enroll(client, "Phone");

    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.data).toMatchObject({ type: "totp" });
    const expiresAt = challenge.data?.expires_at ?? 0;
    expect(expiresAt - Date.now() / 1000).toBeGreaterThan(290);
    const challengeId = challenge.data?.id ?? "";

    const wrong = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId,
      code: wrongCode(factor.totp.secret),
    });
    expect(wrong.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });

    const verified = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId,
      code: totpCode(factor.totp.secret),
    });
    expect(verified.error).toBeNull();
    const raised = verified.data;
    expect(raised?.refresh_token).not.toBe(session.refresh_token);
    const claims = decodeJwt(raised?.access_token ?? "");
    expect(claims.aal).toBe("aal2");
    expect(claims.session_id).toBe(decodeJwt(session.access_token).session_id);
    expect((claims.amr as { method: string }[]).map((entry) => entry.method)).toEqual(["totp", "password"]);
    expect(raised?.user.factors).toEqual([expect.objectContaining({ id: factor.id, status: "verified" })]);

    // The same challenge cannot be used twice.
    const replay = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId,
      code: totpCode(factor.totp.secret),
    });
    expect(replay.error).toMatchObject({ status: 422 });

    // GoTrue ends every other session of the user that is still aal1.
    const { error } = await other.client.auth.getUser();
    expect(error?.name).toBe("AuthSessionMissingError");

    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
    const [row] = await stack.stack.db.query<{ aal: string; factor_id: string }>(
      "select aal, factor_id from auth.sessions where user_id = $1",
      [id],
    );
    expect(row).toEqual({ aal: "aal2", factor_id: factor.id });
  });

  it("signs in by password at aal1 with aal2 next; refreshing an aal2 session keeps aal2", async () => {
    const { email, client: raisedClient } = await withVerifiedFactor();
    const { client, session } = await signIn(email);
    expect(decodeJwt(session.access_token)).toMatchObject({ aal: "aal1", amr: [{ method: "password" }] });
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });

    const { data, error } = await raisedClient.auth.refreshSession();
    expect(error).toBeNull();
    expect(decodeJwt(data.session?.access_token ?? "").aal).toBe("aal2");
  });

  it("refuses an expired challenge and a factor that is not the caller's", async () => {
    const { email } = await newAccount();
    const { client } = await signIn(email);
    const factor = await enroll(client);
    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    await stack.stack.db.query(
      "update auth.mfa_challenges set created_at = now() - interval '10 minutes' where id = $1",
      [challenge.data?.id],
    );
    const late = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data?.id ?? "",
      code: totpCode(factor.totp.secret),
    });
    expect(late.error).toMatchObject({ status: 422, code: "mfa_challenge_expired" });

    const stranger = await signIn((await newAccount()).email);
    const foreign = await stranger.client.auth.mfa.challenge({ factorId: factor.id });
    expect(foreign.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
    const removed = await stranger.client.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
  });

  it("needs aal2 to unenroll a verified factor or enrol another; unenrolling returns the session to aal1", async () => {
    const { email, client, factor } = await withVerifiedFactor();
    const { client: weak } = await signIn(email);
    const refused = await weak.auth.mfa.unenroll({ factorId: factor.id });
    expect(refused.error).toMatchObject({ status: 422, code: "insufficient_aal" });
    const second = await weak.auth.mfa.enroll({ factorType: "totp", friendlyName: "Backup" });
    expect(second.error).toMatchObject({ status: 403, code: "insufficient_aal" });

    const removed = await client.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    const { data } = await client.auth.refreshSession();
    expect(decodeJwt(data.session?.access_token ?? "")).toMatchObject({ aal: "aal1", amr: [{ method: "password" }] });
    expect(data.user?.factors).toBeUndefined();
  });

  it("lists and removes a user's factors through the admin API, the session returning to aal1", async () => {
    const { id, client, factor } = await withVerifiedFactor();
    const admin = clientFor(stack, stack.serviceRoleKey).auth.admin;
    const listed = await admin.mfa.listFactors({ userId: id });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors).toMatchObject([{ id: factor.id, factor_type: "totp", status: "verified" }]);

    const unknown = await admin.mfa.deleteFactor({ userId: id, id: "00000000-0000-0000-0000-000000000000" });
    expect(unknown.error).toMatchObject({ status: 404, code: "mfa_factor_not_found", message: "Factor not found" });
    const removed = await admin.mfa.deleteFactor({ userId: id, id: factor.id });
    expect(removed.error).toBeNull();
    // auth-js hands the deleted factor back one level down, as `data.data`.
    expect(removed.data).toMatchObject({ data: { id: factor.id, status: "verified" } });
    expect((await admin.mfa.listFactors({ userId: id })).data?.factors).toEqual([]);
    const { data } = await client.auth.refreshSession();
    expect(decodeJwt(data.session?.access_token ?? "")).toMatchObject({ aal: "aal1" });

    const nobody = await admin.mfa.listFactors({ userId: "00000000-0000-0000-0000-000000000000" });
    expect(nobody.error).toMatchObject({ status: 404, code: "user_not_found" });
  });

  it("changes the password or the address of a user with a verified factor only from an aal2 session", async () => {
    const { email, client: raised } = await withVerifiedFactor();
    const { client: weak } = await signIn(email);
    const insufficient = { status: 401, code: "insufficient_aal" };
    expect((await weak.auth.updateUser({ password: "a new password" })).error).toMatchObject(insufficient);
    expect((await weak.auth.updateUser({ email: uniqueEmail("moved") })).error).toMatchObject(insufficient);
    // Metadata, and the address it already has, need no second factor.
    expect((await weak.auth.updateUser({ data: { theme: "dark" } })).error).toBeNull();
    expect((await weak.auth.updateUser({ email })).error).toBeNull();
    // Nothing changed: the old password still signs in.
    await signIn(email);

    const { data, error } = await raised.auth.updateUser({ password: "a new password" });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
  });

  it("keeps to the number of factors a user may enrol", async () => {
    const { email } = await newAccount();
    const { client } = await signIn(email);
    const limits = stack.stack.config.auth.mfa;
    const before = limits.maxEnrolledFactors;
    limits.maxEnrolledFactors = 2;
    try {
      await enroll(client, "One");
      await enroll(client, "Two");
      const third = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Three" });
      expect(third.error).toMatchObject({ status: 422, code: "too_many_enrolled_mfa_factors" });
    } finally {
      limits.maxEnrolledFactors = before;
    }
  });

  it("answers as GoTrue when TOTP is turned off in config.toml", async () => {
    const { email } = await newAccount();
    const { client } = await signIn(email);
    const factor = await enroll(client);
    const totp = stack.stack.config.auth.mfa.totp;
    try {
      totp.enrollEnabled = false;
      const enrolment = await client.auth.mfa.enroll({ factorType: "totp", friendlyName: "Later" });
      expect(enrolment.error).toMatchObject({ status: 422, code: "mfa_totp_enroll_not_enabled" });
      totp.verifyEnabled = false;
      const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
      expect(challenge.error).toMatchObject({ status: 422, code: "mfa_totp_verify_not_enabled" });
    } finally {
      totp.enrollEnabled = true;
      totp.verifyEnabled = true;
    }
  });
});
