import { fileURLToPath } from "node:url";
import { AuthApiError } from "@supabase/supabase-js";
import { describe, expect, test } from "vitest";
import { totpCode } from "../../src/auth/mfa.js";
import { clientFor, stackPerFile } from "../support/stack.js";

// The MFA verification attempt hook as GoTrue runs it, with Engram's own
// (supabase/config.toml: a valid authenticator code is accepted once).

const engramSupabaseDir = fileURLToPath(new URL("../../../../supabase/", import.meta.url));
const stack = stackPerFile({ supabaseDir: engramSupabaseDir });
const password = "correct horse battery";

type Client = ReturnType<typeof clientFor>;

async function newAccount(): Promise<{ id: string; email: string }> {
  const email = `hook-${crypto.randomUUID()}@example.com`;
  const { data, error } = await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (error || !data.user) throw error ?? new Error("no user");
  return { id: data.user.id, email };
}

async function signIn(email: string): Promise<Client> {
  const client = clientFor(stack);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return client;
}

/** A user with a verified authenticator app, set up on its first session. */
async function withFactor() {
  const account = await newAccount();
  const first = await signIn(account.email);
  const { data: factor, error } = await first.auth.mfa.enroll({ factorType: "totp" });
  if (error || factor?.type !== "totp") throw error ?? new Error("no factor");
  const code = totpCode(factor.totp.secret);
  const verified = await first.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
  if (verified.error) throw verified.error;
  return { ...account, first, factorId: factor.id, secret: factor.totp.secret, code };
}

const sessionsOf = async (userId: string) =>
  (
    await stack.stack.db.query<{ n: number }>("select count(*)::int as n from auth.sessions where user_id = $1", [
      userId,
    ])
  )[0]?.n;

describe("an authenticator code entered a second time", () => {
  test("is refused with GoTrue's answer for a rejecting hook, and every session of the user ends", async () => {
    const user = await withFactor();
    const second = await signIn(user.email);
    expect(await sessionsOf(user.id)).toBe(2);

    const { data, error } = await second.auth.mfa.challengeAndVerify({ factorId: user.factorId, code: user.code });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      status: 403,
      code: "mfa_verification_rejected",
      message: "This code was already used. Sign in again with the next code from your authenticator app.",
    });
    expect(await sessionsOf(user.id)).toBe(0);
    // The session that accepted the code first has ended too.
    const { data: first } = await user.first.auth.getSession();
    const asFirst = await fetch(`${stack.url}/auth/v1/user`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${first.session?.access_token}` },
    });
    expect(asFirst.status).toBe(403);
    expect(await asFirst.json()).toMatchObject({ error_code: "session_not_found" });
  });

  test("the raw answer is GoTrue's error body and header", async () => {
    const user = await withFactor();
    const second = await signIn(user.email);
    const { data: session } = await second.auth.getSession();
    const { data: challenge } = await second.auth.mfa.challenge({ factorId: user.factorId });
    const response = await fetch(`${stack.url}/auth/v1/factors/${user.factorId}/verify`, {
      method: "POST",
      headers: {
        apikey: stack.anonKey,
        authorization: `Bearer ${session.session?.access_token}`,
        "content-type": "application/json",
        "x-supabase-api-version": "2024-01-01",
      },
      body: JSON.stringify({ challenge_id: challenge?.id, code: user.code }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("x-sb-error-code")).toBe("mfa_verification_rejected");
    expect(await response.json()).toEqual({
      code: "mfa_verification_rejected",
      message: "This code was already used. Sign in again with the next code from your authenticator app.",
    });
  });

  test("a wrong code is still only wrong, and does not use up the window", async () => {
    const user = await withFactor();
    const second = await signIn(user.email);
    const accepted = [-1, 0, 1].map((step) => totpCode(user.secret, new Date(Date.now() + step * 30_000)));
    const wrong = ["000000", "111111", "222222"].find((code) => !accepted.includes(code)) ?? "333333";
    const { error } = await second.auth.mfa.challengeAndVerify({ factorId: user.factorId, code: wrong });
    expect(error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    expect(await sessionsOf(user.id)).toBe(2);
  });

  test("once the code's window has passed, the next code signs in", async () => {
    const user = await withFactor();
    // As if a minute and a half had passed: the accepted code's 30 s step and the one after are over.
    await stack.stack.db.query("update private.totp_verifications set step = step - 3 where factor_id = $1", [
      user.factorId,
    ]);
    const second = await signIn(user.email);
    const next = totpCode(user.secret, new Date(Date.now() + 30_000));
    const { data, error } = await second.auth.mfa.challengeAndVerify({ factorId: user.factorId, code: next });
    expect(error).toBeNull();
    expect(data?.access_token).toBeTruthy();
    const { data: level } = await second.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level?.currentLevel).toBe("aal2");
    // And that code is now the one refused.
    const third = await signIn(user.email);
    const again = await third.auth.mfa.challengeAndVerify({ factorId: user.factorId, code: next });
    expect(again.error).toMatchObject({ status: 403, code: "mfa_verification_rejected" });
  });
});
