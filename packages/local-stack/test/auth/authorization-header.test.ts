import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const stack = stackPerFile({
  configure: (config) => {
    config.auth.mfa.totp = { enrollEnabled: true, verifyEnabled: true };
  },
});

describe("an Authorization header that is not a Bearer token", () => {
  it("leaves the caller without a token, as GoTrue reads only Bearer: no_authorization, not the apikey's role", async () => {
    const client = clientFor(stack, stack.anonKey, {
      global: { headers: { Authorization: stack.anonKey } },
      auth: { persistSession: false, autoRefreshToken: false },
    });
    const { data, error } = await client.auth.mfa.enroll({ factorType: "totp" });
    expect(data).toBeNull();
    expect(error).toMatchObject({
      status: 401,
      code: "no_authorization",
      message: "This endpoint requires a valid Bearer token",
    });
  });

  it("with only the apikey, the caller acts as the apikey's role, which has no user", async () => {
    const client = clientFor(stack, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const { error } = await client.auth.mfa.enroll({ factorType: "totp" });
    expect(error).toMatchObject({ status: 403, code: "bad_jwt", message: "invalid claim: missing sub claim" });
  });
});
