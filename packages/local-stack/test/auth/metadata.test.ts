import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { decodeJwt, lastEmail, uniqueEmail } from "./helpers.js";

const stack = stackPerFile();
const password = "correct horse battery";

describe("user_metadata holds the app's data; the provider's claims stay in identity_data", () => {
  it("signUp keeps sub, email and the verified flags out of user_metadata, in the user and the JWT", async () => {
    const email = uniqueEmail("meta");
    const client = clientFor(stack);
    const { data } = await client.auth.signUp({ email, password, options: { data: { name: "Ada" } } });
    expect(data.user?.user_metadata).toEqual({ name: "Ada" });
    expect(data.user?.identities?.[0]?.identity_data).toEqual({
      name: "Ada",
      sub: data.user?.id,
      email,
      email_verified: false,
      phone_verified: false,
    });

    // Confirming the address adds GoTrue's email_verified, and nothing else.
    const { otp } = await lastEmail(stack, email);
    const verified = await client.auth.verifyOtp({ email, token: otp, type: "signup" });
    expect(verified.data.user?.user_metadata).toEqual({ name: "Ada", email_verified: true });
    expect(decodeJwt(verified.data.session?.access_token ?? "").user_metadata).toEqual({
      name: "Ada",
      email_verified: true,
    });
  });

  it("admin createUser stores the given user_metadata, plus email_verified when it confirms the address", async () => {
    const admin = clientFor(stack, stack.serviceRoleKey).auth.admin;
    const confirmed = await admin.createUser({
      email: uniqueEmail("meta"),
      password,
      email_confirm: true,
      user_metadata: { name: "Grace" },
    });
    expect(confirmed.data.user?.user_metadata).toEqual({ name: "Grace", email_verified: true });
    const pending = await admin.createUser({ email: uniqueEmail("meta"), password, user_metadata: { name: "Ada" } });
    expect(pending.data.user?.user_metadata).toEqual({ name: "Ada" });
    expect(pending.data.user?.identities?.[0]?.identity_data).toMatchObject({
      sub: pending.data.user?.id,
      email: pending.data.user?.email,
    });
  });

  it("an address change does not copy the new address into user_metadata", async () => {
    const email = uniqueEmail("meta");
    const admin = clientFor(stack, stack.serviceRoleKey).auth.admin;
    const { data } = await admin.createUser({ email, password, email_confirm: true, user_metadata: { name: "Lin" } });
    const next = uniqueEmail("meta-next");
    const updated = await admin.updateUserById(data.user?.id ?? "", { email: next });
    expect(updated.data.user?.email).toBe(next);
    expect(updated.data.user?.user_metadata).toEqual({ name: "Lin", email_verified: true });
    expect(updated.data.user?.identities?.[0]?.identity_data).toMatchObject({ email: next });
  });
});
