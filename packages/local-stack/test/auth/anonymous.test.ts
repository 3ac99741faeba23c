import { describe, expect, it } from "vitest";
import type { StackConfig } from "../../src/config/config.js";
import { clientFor, stackPerFile } from "../support/stack.js";
import { decodeJwt, lastEmail, uniqueEmail } from "./helpers.js";

const anonymousUsersPerHour = 6;

const stack = stackPerFile({
  configure: (config: StackConfig) => {
    config.auth.enableAnonymousSignIns = true;
    config.auth.rateLimit.anonymousUsers = anonymousUsersPerHour;
    config.auth.mfa.totp = { enrollEnabled: true, verifyEnabled: true };
  },
});

describe("anonymous sign-ins with enable_anonymous_sign_ins on", () => {
  it("signInAnonymously gives a session for an anonymous authenticated user with the given data", async () => {
    const client = clientFor(stack);
    const { data, error } = await client.auth.signInAnonymously({ options: { data: { theme: "dark" } } });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      is_anonymous: true,
      role: "authenticated",
      aud: "authenticated",
      email: "",
      app_metadata: { provider: "anonymous", providers: ["anonymous"] },
      user_metadata: { theme: "dark" },
      identities: [],
    });
    const claims = decodeJwt(data.session?.access_token ?? "");
    expect(claims).toMatchObject({ is_anonymous: true, role: "authenticated", aal: "aal1", email: "" });
    expect(claims.amr).toEqual([{ method: "anonymous", timestamp: expect.any(Number) }]);
    expect((await client.auth.getUser()).data.user?.is_anonymous).toBe(true);
    // The session refreshes like any other.
    const refreshed = await client.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session?.access_token ?? "").is_anonymous).toBe(true);
  });

  it("RLS reads auth.jwt()->>'is_anonymous': an anonymous user may read but not post", async () => {
    const client = clientFor(stack);
    await client.auth.signInAnonymously();
    expect((await client.from("auth_board_posts").select("id")).error).toBeNull();
    const { error } = await client.from("auth_board_posts").insert({ body: "hello" });
    expect(error).toMatchObject({ code: "42501" });
    expect((await stack.stack.db.query("select 1 from public.auth_board_posts where body = 'hello'")).length).toBe(0);
  });

  it("an anonymous user becomes permanent by confirming an address, keeping their id, and may then post", async () => {
    const client = clientFor(stack);
    const { data: anonymous } = await client.auth.signInAnonymously();
    const id = anonymous.user?.id;
    const email = uniqueEmail("convert");

    const refused = await client.auth.updateUser({ password: "correct horse battery" });
    expect(refused.error).toMatchObject({
      status: 422,
      code: "validation_failed",
      message: "Updating password of an anonymous user without an email or phone is not allowed",
    });

    const pending = await client.auth.updateUser({ email });
    expect(pending.error).toBeNull();
    expect(pending.data.user).toMatchObject({ is_anonymous: true, new_email: email });

    const { otp } = await lastEmail(stack, email);
    const verified = await client.auth.verifyOtp({ email, token: otp, type: "email_change" });
    expect(verified.error).toBeNull();
    expect(verified.data.user).toMatchObject({ id, email, is_anonymous: false });
    expect(verified.data.user?.identities?.map((identity) => identity.provider)).toEqual(["email"]);
    expect(decodeJwt(verified.data.session?.access_token ?? "").is_anonymous).toBe(false);

    const posted = await client
      .from("auth_board_posts")
      .insert({ body: `from ${email}` })
      .select("author_id")
      .single();
    expect(posted.error).toBeNull();
    expect(posted.data?.author_id).toBe(id);

    // With an address, the password may now be set, and signs in.
    expect((await client.auth.updateUser({ password: "correct horse battery" })).error).toBeNull();
    const signedIn = await clientFor(stack).auth.signInWithPassword({ email, password: "correct horse battery" });
    expect(signedIn.data.user?.id).toBe(id);
  });

  it("an anonymous session may not enrol a second factor", async () => {
    const client = clientFor(stack);
    await client.auth.signInAnonymously();
    const { error } = await client.auth.mfa.enroll({ factorType: "totp" });
    expect(error).toMatchObject({
      status: 403,
      code: "no_authorization",
      message: "Anonymous user not allowed to perform these actions",
    });
  });

  it("counts anonymous sign-ins against [auth.rate_limit] anonymous_users, per hour", async () => {
    let refused: { status?: number; code?: string } | null = null;
    for (let attempt = 0; attempt <= anonymousUsersPerHour && !refused; attempt++) {
      refused = (await clientFor(stack).auth.signInAnonymously()).error;
    }
    expect(refused).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    const users = await stack.stack.db.query(
      "select 1 from auth.users where is_anonymous or raw_app_meta_data->>'provider' = 'anonymous'",
    );
    expect(users).toHaveLength(anonymousUsersPerHour);
  });
});
