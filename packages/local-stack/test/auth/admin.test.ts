import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningStack } from "../../src/server.js";
import { clientFor, stackPerFile, startTestStack } from "../support/stack.js";
import { follow, lastEmail, uniqueEmail } from "./helpers.js";

const stack = stackPerFile();

const password = "correct horse battery";
const admin = () => clientFor(stack, stack.serviceRoleKey).auth.admin;

describe("admin users API", () => {
  it("creates a confirmed user with metadata, who can sign in at once", async () => {
    const email = uniqueEmail();
    const { data, error } = await admin().createUser({
      email,
      password,
      email_confirm: true,
      user_metadata: { name: "Grace" },
      app_metadata: { plan: "pro" },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      user_metadata: { name: "Grace", email_verified: true },
      app_metadata: { provider: "email", providers: ["email"], plan: "pro" },
    });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect((await clientFor(stack).auth.signInWithPassword({ email, password })).error).toBeNull();
  });

  it("rejects an existing email as email_exists", async () => {
    const email = uniqueEmail();
    await admin().createUser({ email, password });
    const { error } = await admin().createUser({ email, password });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("email_exists");
  });

  it("gets, updates and deletes a user by id", async () => {
    const email = uniqueEmail();
    const { data: created } = await admin().createUser({ email, password });
    const id = created.user?.id ?? "";
    expect((await admin().getUserById(id)).data.user?.email).toBe(email);
    const updated = await admin().updateUserById(id, {
      email_confirm: true,
      user_metadata: { nickname: "gh" },
      app_metadata: { roles: ["editor"] },
      password: "another good password",
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata.nickname).toBe("gh");
    expect(updated.data.user?.app_metadata.roles).toEqual(["editor"]);
    expect(updated.data.user?.email_confirmed_at).toBeTruthy();
    const signIn = await clientFor(stack).auth.signInWithPassword({ email, password: "another good password" });
    expect(signIn.error).toBeNull();
    expect((await admin().deleteUser(id)).error).toBeNull();
    const gone = await admin().getUserById(id);
    expect(gone.error?.status).toBe(404);
    expect(gone.error?.code).toBe("user_not_found");
  });

  it("bans a user, who then cannot sign in", async () => {
    const email = uniqueEmail();
    const { data } = await admin().createUser({ email, password, email_confirm: true });
    await admin().updateUserById(data.user?.id ?? "", { ban_duration: "24h" });
    const { error } = await clientFor(stack).auth.signInWithPassword({ email, password });
    expect(error?.code).toBe("user_banned");
  });

  it("lists users with paging headers", async () => {
    for (let i = 0; i < 3; i++) await admin().createUser({ email: uniqueEmail("list"), password });
    const { data, error } = await admin().listUsers({ page: 1, perPage: 2 });
    expect(error).toBeNull();
    expect(data.users).toHaveLength(2);
    expect(data).toMatchObject({ aud: "authenticated", nextPage: 2 });
    const paging = data as unknown as { total: number; lastPage: number };
    expect(paging.total).toBeGreaterThanOrEqual(3);
    expect(paging.lastPage).toBeGreaterThanOrEqual(2);
  });

  it("rejects paging GoTrue's Paginate rejects, with its message", async () => {
    const negative = await admin().listUsers({ page: -1 });
    expect(negative.error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: 'Bad Pagination Parameters: strconv.ParseUint: parsing "-1": invalid syntax',
    });
    expect(negative.data.users).toEqual([]);
    expect((await admin().listUsers({ page: 1, perPage: 1001 })).error?.message).toBe(
      "Bad Pagination Parameters: per_page must not exceed 1000",
    );
  });

  it("refuses callers without the service role as not_admin", async () => {
    const { error } = await clientFor(stack).auth.admin.listUsers();
    expect(error?.status).toBe(403);
    expect(error?.code).toBe("not_admin");
  });

  it("generates a magic link that signs the user in, without sending mail", async () => {
    const email = uniqueEmail();
    await admin().createUser({ email, password, email_confirm: true });
    const { data, error } = await admin().generateLink({
      type: "magiclink",
      email,
      options: { redirectTo: "http://127.0.0.1:3000/admin-link" },
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.properties).toMatchObject({
      verification_type: "magiclink",
      redirect_to: "http://127.0.0.1:3000/admin-link",
    });
    expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
    expect(stack.stack.mailbox.list(email)).toHaveLength(0);
    const redirect = await follow(data.properties?.action_link ?? "");
    expect(redirect.location.startsWith("http://127.0.0.1:3000/admin-link#access_token=")).toBe(true);
  });

  it("generates a signup link that confirms a new user", async () => {
    const email = uniqueEmail();
    const { data } = await admin().generateLink({ type: "signup", email, password });
    const verified = await clientFor(stack).auth.verifyOtp({
      token_hash: data.properties?.hashed_token ?? "",
      type: "signup",
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
  });

  it("invites a user by email; the invite link confirms them", async () => {
    const email = uniqueEmail();
    const { data, error } = await admin().inviteUserByEmail(email);
    expect(error).toBeNull();
    expect(data.user?.invited_at).toBeTruthy();
    const mail = await lastEmail(stack, email);
    expect(mail.subject).toBe("You have been invited");
    const redirect = await follow(mail.link);
    expect(redirect.fragment.type).toBe("invite");
  });
});

describe("rate limits", () => {
  let limited: RunningStack;
  beforeAll(async () => {
    limited = await startTestStack({
      configure: (config) => {
        config.auth.rateLimit.signInSignUps = 2;
        config.auth.rateLimit.emailSent = 1;
      },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("answers over_request_rate_limit after sign_in_sign_ups attempts", async () => {
    const attempt = () => clientFor(limited).auth.signInWithPassword({ email: uniqueEmail(), password });
    expect((await attempt()).error?.code).toBe("invalid_credentials");
    expect((await attempt()).error?.code).toBe("invalid_credentials");
    const { error } = await attempt();
    expect(error?.status).toBe(429);
    expect(error?.code).toBe("over_request_rate_limit");
  });

  it("answers over_email_send_rate_limit after email_sent emails an hour", async () => {
    expect((await clientFor(limited).auth.resetPasswordForEmail(uniqueEmail())).error).toBeNull();
    const first = uniqueEmail();
    const second = uniqueEmail();
    const admin = clientFor(limited, limited.serviceRoleKey).auth.admin;
    await admin.createUser({ email: first, password, email_confirm: true });
    await admin.createUser({ email: second, password, email_confirm: true });
    expect((await clientFor(limited).auth.resetPasswordForEmail(first)).error).toBeNull();
    const { error } = await clientFor(limited).auth.resetPasswordForEmail(second);
    expect(error?.status).toBe(429);
    expect(error?.code).toBe("over_email_send_rate_limit");
  });
});
