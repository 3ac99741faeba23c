import { describe, expect, it } from "vitest";
import { totpCode } from "../../src/auth/mfa.js";
import { clientFor, stackPerFile } from "../support/stack.js";
import { uniqueEmail } from "./helpers.js";

// Its own stack: GoTrue's MFA limits count per address, and every test here calls from one.
const stack = stackPerFile({
  configure: (config) => {
    config.auth.mfa.totp = { enrollEnabled: true, verifyEnabled: true };
  },
});

const password = "correct horse battery";

async function signedInWithFactor() {
  const email = uniqueEmail("mfa-limit");
  const created = await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  });
  if (created.error) throw created.error;
  const client = clientFor(stack);
  const signIn = await client.auth.signInWithPassword({ email, password });
  if (signIn.error) throw signIn.error;
  const { data, error } = await client.auth.mfa.enroll({ factorType: "totp" });
  if (error || data?.type !== "totp") throw error ?? new Error("no factor");
  return { client, factorId: data.id, secret: data.totp.secret };
}

/** Calls `attempt` until GoTrue answers 429; how many went through first, and how long that took. */
async function untilLimited(attempt: () => Promise<{ error: { status?: number; code?: string } | null }>) {
  const started = Date.now();
  for (let sent = 0; sent < 60; sent++) {
    const { error } = await attempt();
    if (error?.status === 429) {
      expect(error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
      return { through: sent, seconds: (Date.now() - started) / 1000 };
    }
  }
  throw new Error("never limited");
}

/** GoTrue's buckets hold 30 and refill at 15 a minute: 30 at once, one more for each 4 s it took. */
const expectBurst = ({ through, seconds }: { through: number; seconds: number }) => {
  expect(through).toBeGreaterThanOrEqual(30);
  expect(through).toBeLessThanOrEqual(30 + Math.ceil(seconds / 4));
};

describe("MFA rate limits (GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY)", () => {
  it("stops guessing codes: verifications past the burst are refused with 429, the right code too", async () => {
    const { client, factorId, secret } = await signedInWithFactor();
    const challenge = await client.auth.mfa.challenge({ factorId });
    const challengeId = challenge.data?.id ?? "";
    expectBurst(await untilLimited(() => client.auth.mfa.verify({ factorId, challengeId, code: "000000" })));
    const right = await client.auth.mfa.verify({ factorId, challengeId, code: totpCode(secret) });
    expect(right.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });

    // Challenges have their own bucket, of which the first challenge took one.
    const challenges = await untilLimited(() => client.auth.mfa.challenge({ factorId }));
    expectBurst({ ...challenges, through: challenges.through + 1 });
  });
});
