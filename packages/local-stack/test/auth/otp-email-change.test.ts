import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { cookieJar, decodeJwt, follow, lastEmail, serverClient, uniqueEmail } from "./helpers.js";

const stack = stackPerFile();

const password = "correct horse battery";

async function confirmedUser() {
  const email = uniqueEmail();
  await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
  return email;
}

describe("email OTP and magic links", () => {
  it("signs up a new address on signInWithOtp and verifies its code", async () => {
    const email = uniqueEmail();
    const client = clientFor(stack);
    const { data, error } = await client.auth.signInWithOtp({ email });
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null, messageId: undefined });
    const { otp, subject } = await lastEmail(stack, email);
    expect(subject).toBe("Confirm Your Signup");
    const verified = await client.auth.verifyOtp({ email, token: otp, type: "email" });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
    expect(decodeJwt(verified.data.session?.access_token ?? "").amr).toEqual([
      { method: "otp", timestamp: expect.any(Number) },
    ]);
  });

  it("sends an existing user a magic link whose implicit-flow link signs in", async () => {
    const email = await confirmedUser();
    await clientFor(stack).auth.signInWithOtp({ email, options: { emailRedirectTo: "http://127.0.0.1:3000/in" } });
    const mail = await lastEmail(stack, email);
    expect(mail.subject).toBe("Your Magic Link");
    expect(mail.link).toContain("type=magiclink");
    const redirect = await follow(mail.link);
    expect(redirect.location.startsWith("http://127.0.0.1:3000/in#")).toBe(true);
    expect(redirect.fragment.type).toBe("magiclink");
    const { data } = await clientFor(stack).auth.getUser(redirect.fragment.access_token);
    expect(data.user?.email).toBe(email);
  });

  it("verifies a token_hash from the email (the server-side template pattern)", async () => {
    const email = await confirmedUser();
    await clientFor(stack).auth.signInWithOtp({ email });
    const tokenHash = new URL((await lastEmail(stack, email)).link).searchParams.get("token") ?? "";
    const { data, error } = await clientFor(stack).auth.verifyOtp({ token_hash: tokenHash, type: "magiclink" });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    const again = await clientFor(stack).auth.verifyOtp({ token_hash: tokenHash, type: "magiclink" });
    expect(again.error?.code).toBe("otp_expired");
  });

  it("rejects a wrong code as otp_expired (403)", async () => {
    const email = await confirmedUser();
    await clientFor(stack).auth.signInWithOtp({ email });
    const { otp } = await lastEmail(stack, email);
    const wrong = otp === "000000" ? "111111" : "000000";
    const { error } = await clientFor(stack).auth.verifyOtp({ email, token: wrong, type: "email" });
    expect(error?.status).toBe(403);
    expect(error?.code).toBe("otp_expired");
    expect(error?.message).toBe("Token has expired or is invalid");
  });

  it("rejects a code older than otp_expiry", async () => {
    const email = await confirmedUser();
    await clientFor(stack).auth.signInWithOtp({ email });
    const { otp } = await lastEmail(stack, email);
    await stack.stack.db.query("update auth.users set recovery_sent_at = now() - interval '2 hours' where email = $1", [
      email,
    ]);
    const { error } = await clientFor(stack).auth.verifyOtp({ email, token: otp, type: "email" });
    expect(error?.code).toBe("otp_expired");
  });

  it("refuses to create a user when shouldCreateUser is false", async () => {
    const { error } = await clientFor(stack).auth.signInWithOtp({
      email: uniqueEmail(),
      options: { shouldCreateUser: false },
    });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("otp_disabled");
  });

  it("limits how often one user gets emails (max_frequency)", async () => {
    const email = await confirmedUser();
    expect((await clientFor(stack).auth.signInWithOtp({ email })).error).toBeNull();
    const { error } = await clientFor(stack).auth.signInWithOtp({ email });
    expect(error?.status).toBe(429);
    expect(error?.code).toBe("over_email_send_rate_limit");
  });

  it("answers recovery for an unknown address like a known one", async () => {
    const { error } = await clientFor(stack).auth.resetPasswordForEmail(uniqueEmail());
    expect(error).toBeNull();
  });

  it("resends a signup confirmation", async () => {
    const email = uniqueEmail();
    await clientFor(stack).auth.signUp({ email, password });
    await stack.stack.db.query(
      "update auth.users set confirmation_sent_at = now() - interval '1 minute' where email = $1",
      [email],
    );
    expect((await clientFor(stack).auth.resend({ type: "signup", email })).error).toBeNull();
    expect((await lastEmail(stack, email)).count).toBe(2);
  });
});

describe("email change", () => {
  async function signedIn() {
    const email = await confirmedUser();
    const client = clientFor(stack);
    await client.auth.signInWithPassword({ email, password });
    return { client, email };
  }

  it("with double_confirm_changes needs both the new and the current address to confirm", async () => {
    const { client, email } = await signedIn();
    const newEmail = uniqueEmail("new");
    const { data, error } = await client.auth.updateUser(
      { email: newEmail },
      { emailRedirectTo: "http://127.0.0.1:3000/changed" },
    );
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.new_email).toBe(newEmail);
    const toNew = await lastEmail(stack, newEmail);
    const toCurrent = await lastEmail(stack, email);
    expect(toNew.subject).toBe("Confirm Email Change");
    expect(toCurrent.subject).toBe("Confirm Email Change");

    const first = await follow(toNew.link);
    expect(first.fragment.message).toBe(
      "Confirmation link accepted. Please proceed to confirm link sent to the other email",
    );
    expect((await client.auth.getUser()).data.user?.email).toBe(email);

    const second = await follow(toCurrent.link);
    expect(second.fragment.type).toBe("email_change");
    const { data: after } = await client.auth.getUser(second.fragment.access_token);
    expect(after.user?.email).toBe(newEmail);
    expect(after.user?.new_email).toBeUndefined();
    expect(after.user?.identities?.[0]?.identity_data?.email).toBe(newEmail);
    const signIn = await clientFor(stack).auth.signInWithPassword({ email: newEmail, password });
    expect(signIn.error).toBeNull();
  });

  it("verifies email change codes with verifyOtp, first answering a message", async () => {
    const { client, email } = await signedIn();
    const newEmail = uniqueEmail("new");
    await client.auth.updateUser({ email: newEmail });
    const first = await client.auth.verifyOtp({
      email: newEmail,
      token: (await lastEmail(stack, newEmail)).otp,
      type: "email_change",
    });
    expect(first.error).toBeNull();
    expect(first.data).toEqual({ user: null, session: null });
    const second = await client.auth.verifyOtp({
      email,
      token: (await lastEmail(stack, email)).otp,
      type: "email_change",
    });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(newEmail);
  });

  it("completes a PKCE email change with the ssr client: message, then ?code=", async () => {
    const email = await confirmedUser();
    const jar = cookieJar();
    await serverClient(stack, jar).auth.signInWithPassword({ email, password });
    const newEmail = uniqueEmail("new");
    const callback = "http://127.0.0.1:3000/auth/callback";
    const { error } = await serverClient(stack, jar).auth.updateUser(
      { email: newEmail },
      { emailRedirectTo: callback },
    );
    expect(error).toBeNull();
    const first = await follow((await lastEmail(stack, email)).link);
    expect(first.query.message).toBe(
      "Confirmation link accepted. Please proceed to confirm link sent to the other email",
    );
    const second = await follow((await lastEmail(stack, newEmail)).link);
    expect(second.query.code).toBeTruthy();
    const exchanged = await serverClient(stack, jar).auth.exchangeCodeForSession(second.query.code ?? "");
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(newEmail);
  });

  it("resends the email change links", async () => {
    const { client, email } = await signedIn();
    const newEmail = uniqueEmail("new");
    await client.auth.updateUser({ email: newEmail });
    await stack.stack.db.query(
      "update auth.users set email_change_sent_at = now() - interval '1 minute' where email = $1",
      [email],
    );
    expect((await clientFor(stack).auth.resend({ type: "email_change", email })).error).toBeNull();
    expect((await lastEmail(stack, newEmail)).count).toBe(2);
    expect((await lastEmail(stack, email)).count).toBe(2);
  });

  it("rejects an address another user has as email_exists", async () => {
    const { client } = await signedIn();
    const taken = await confirmedUser();
    const { error } = await client.auth.updateUser({ email: taken });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("email_exists");
  });
});
