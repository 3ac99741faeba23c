import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningStack } from "../../src/server.js";
import { clientFor, stackPerFile, startTestStack } from "../support/stack.js";
import { decodeJwt, follow, lastEmail, uniqueEmail } from "./helpers.js";

const stack = stackPerFile();

const password = "correct horse battery";

describe("signup with email confirmation on", () => {
  it("returns the user without a session and emails a confirmation link", async () => {
    const email = uniqueEmail();
    const { data, error } = await clientFor(stack).auth.signUp({
      email,
      password,
      options: { data: { name: "Ada" }, emailRedirectTo: "http://127.0.0.1:3000/welcome" },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: "authenticated",
      role: "authenticated",
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { name: "Ada" },
      is_anonymous: false,
    });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.confirmation_sent_at).toBeTruthy();
    expect(data.user?.identities?.[0]).toMatchObject({ provider: "email", id: data.user?.id, user_id: data.user?.id });
    const mail = await lastEmail(stack, email);
    expect(mail.subject).toBe("Confirm Your Signup");
    expect(mail.link).toMatch(new RegExp(`^${stack.url}/auth/v1/verify\\?token=[0-9a-f]{56}&type=signup&redirect_to=`));
    expect(mail.otp).toMatch(/^\d{6}$/);
  });

  it("stores the user in auth.users so triggers and joins see it", async () => {
    const email = uniqueEmail();
    const { data } = await clientFor(stack).auth.signUp({ email, password });
    const rows = await stack.stack.db.query<{ email: string; encrypted_password: string }>(
      "select email, encrypted_password from auth.users where id = $1",
      [data.user?.id],
    );
    expect(rows[0]?.email).toBe(email);
    expect(rows[0]?.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
  });

  it("fires triggers on auth.users, as apps' profile triggers expect", async () => {
    await stack.stack.db.exec(`
      create table if not exists public.auth_test_profiles (id uuid primary key, name text);
      create or replace function public.auth_test_new_user() returns trigger language plpgsql security definer
      set search_path = '' as $$
      begin
        insert into public.auth_test_profiles (id, name) values (new.id, new.raw_user_meta_data ->> 'name');
        return new;
      end $$;
      drop trigger if exists auth_test_on_signup on auth.users;
      create trigger auth_test_on_signup after insert on auth.users
        for each row execute function public.auth_test_new_user();
    `);
    try {
      const { data } = await clientFor(stack).auth.signUp({
        email: uniqueEmail(),
        password,
        options: { data: { name: "Lin" } },
      });
      const rows = await stack.stack.db.query("select name from public.auth_test_profiles where id = $1", [
        data.user?.id,
      ]);
      expect(rows).toEqual([{ name: "Lin" }]);
    } finally {
      await stack.stack.db.exec("drop trigger if exists auth_test_on_signup on auth.users");
    }
  });

  it("refuses password sign-in until the email is confirmed", async () => {
    const email = uniqueEmail();
    await clientFor(stack).auth.signUp({ email, password });
    const { data, error } = await clientFor(stack).auth.signInWithPassword({ email, password });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(400);
    expect(error?.code).toBe("email_not_confirmed");
    expect(error?.message).toBe("Email not confirmed");
  });

  it("confirms through the emailed link, redirecting with the session in the fragment", async () => {
    const email = uniqueEmail();
    await clientFor(stack).auth.signUp({
      email,
      password,
      options: { emailRedirectTo: "http://127.0.0.1:3000/welcome" },
    });
    const { link } = await lastEmail(stack, email);
    const result = await follow(link);
    expect(result.status).toBe(303);
    expect(result.location.startsWith("http://127.0.0.1:3000/welcome#")).toBe(true);
    expect(result.fragment).toMatchObject({ token_type: "bearer", type: "signup", expires_in: "3600" });
    expect(result.fragment.refresh_token).toMatch(/^[a-z2-7]{12}$/);
    const claims = decodeJwt(result.fragment.access_token ?? "");
    expect(claims.amr).toEqual([{ method: "email/signup", timestamp: expect.any(Number) }]);

    const { data, error } = await clientFor(stack).auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.user_metadata.email_verified).toBe(true);
  });

  it("rejects a used or unknown confirmation link with an error redirect", async () => {
    const email = uniqueEmail();
    await clientFor(stack).auth.signUp({ email, password });
    const { link } = await lastEmail(stack, email);
    await follow(link);
    const again = await follow(link);
    expect(again.status).toBe(303);
    expect(again.location.startsWith("http://127.0.0.1:3000")).toBe(true);
    expect(again.fragment).toMatchObject({
      error: "access_denied",
      error_code: "otp_expired",
      error_description: "Email link is invalid or has expired",
    });
  });

  it("sends redirects outside the allow-list to the site URL", async () => {
    const email = uniqueEmail();
    await clientFor(stack).auth.signUp({ email, password, options: { emailRedirectTo: "https://evil.example/steal" } });
    const { link } = await lastEmail(stack, email);
    expect(new URL(link).searchParams.get("redirect_to")).toBe("http://127.0.0.1:3000");
  });

  it("answers an already confirmed email with an obfuscated user and no identities", async () => {
    const email = uniqueEmail();
    const admin = clientFor(stack, stack.serviceRoleKey);
    const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
    const { data, error } = await clientFor(stack).auth.signUp({ email, password });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.identities).toEqual([]);
    expect(data.user?.id).not.toBe(created.data.user?.id);
  });

  it("re-sends the confirmation when an unconfirmed address signs up again", async () => {
    const email = uniqueEmail();
    const first = await clientFor(stack).auth.signUp({ email, password });
    await stack.stack.db.query(
      "update auth.users set confirmation_sent_at = now() - interval '1 minute' where email = $1",
      [email],
    );
    const second = await clientFor(stack).auth.signUp({ email, password });
    expect(second.error).toBeNull();
    expect(second.data.user?.id).toBe(first.data.user?.id);
    expect((await lastEmail(stack, email)).count).toBe(2);
  });

  it("rejects a password shorter than minimum_password_length as weak_password", async () => {
    const { error } = await clientFor(stack).auth.signUp({ email: uniqueEmail(), password: "short" });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("weak_password");
    expect(error?.name).toBe("AuthWeakPasswordError");
    expect((error as unknown as { reasons: string[] }).reasons).toEqual(["length"]);
  });

  it("rejects a malformed email as validation_failed", async () => {
    const { error } = await clientFor(stack).auth.signUp({ email: "not-an-email", password });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe("validation_failed");
  });
});

describe("password sign-in", () => {
  it("returns GoTrue's session JSON and access token claims", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const { data, error } = await clientFor(stack).auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    const session = data.session;
    expect(session).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    expect(session?.refresh_token).toMatch(/^[a-z2-7]{12}$/);
    expect(session?.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
    const claims = decodeJwt(session?.access_token ?? "");
    expect(Object.keys(claims).sort()).toEqual(
      [
        "aal",
        "amr",
        "app_metadata",
        "aud",
        "email",
        "exp",
        "iat",
        "is_anonymous",
        "iss",
        "phone",
        "role",
        "session_id",
        "sub",
        "user_metadata",
      ].sort(),
    );
    expect(claims).toMatchObject({
      sub: data.user?.id,
      aud: "authenticated",
      iss: `${stack.url}/auth/v1`,
      email,
      phone: "",
      role: "authenticated",
      aal: "aal1",
      is_anonymous: false,
      app_metadata: { provider: "email", providers: ["email"] },
    });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    expect(claims.amr).toEqual([{ method: "password", timestamp: expect.any(Number) }]);
    expect(data.user?.last_sign_in_at).toBeTruthy();
  });

  it("rejects a wrong password and an unknown user alike", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    for (const attempt of [
      { email, password: "wrong password" },
      { email: uniqueEmail(), password },
    ]) {
      const { data, error } = await clientFor(stack).auth.signInWithPassword(attempt);
      expect(data.session).toBeNull();
      expect(error?.status).toBe(400);
      expect(error?.code).toBe("invalid_credentials");
      expect(error?.message).toBe("Invalid login credentials");
    }
  });

  it("signs in users whose GoTrue bcrypt hash was imported", async () => {
    const email = uniqueEmail();
    // Go's x/crypto/bcrypt (GoTrue) writes $2a$ hashes at cost 10.
    const bcrypt = (await import("bcryptjs")).default;
    const known = bcrypt.hashSync("password123", 10).replace(/^\$2b\$/, "$2a$");
    expect(known.startsWith("$2a$10$")).toBe(true);
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password_hash: known,
      email_confirm: true,
    } as never);
    const { error } = await clientFor(stack).auth.signInWithPassword({ email, password: "password123" });
    expect(error).toBeNull();
  });

  it("answers with X-Supabase-Api-Version so auth-js reads error codes", async () => {
    const response = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ email: uniqueEmail(), password }),
    });
    expect(response.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(await response.json()).toEqual({ code: "invalid_credentials", message: "Invalid login credentials" });
  });
});

describe("signup without email confirmation", () => {
  let open: RunningStack;
  beforeAll(async () => {
    open = await startTestStack({
      configure: (config) => {
        config.auth.email.enableConfirmations = false;
      },
    });
  });
  afterAll(async () => {
    await open?.close();
  });

  it("signs the user in at once", async () => {
    const email = uniqueEmail();
    const { data, error } = await clientFor(open).auth.signUp({ email, password });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(open.stack.mailbox.list(email)).toHaveLength(0);
  });

  it("rejects an existing email as user_already_exists", async () => {
    const email = uniqueEmail();
    await clientFor(open).auth.signUp({ email, password });
    const { error } = await clientFor(open).auth.signUp({ email, password });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("user_already_exists");
    expect(error?.message).toBe("User already registered");
  });

  it("changes the email at once, without confirmation mails", async () => {
    const email = uniqueEmail();
    const client = clientFor(open);
    await client.auth.signUp({ email, password });
    const newEmail = uniqueEmail("moved");
    const { data, error } = await client.auth.updateUser({ email: newEmail });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(newEmail);
    expect(open.stack.mailbox.list(newEmail)).toHaveLength(0);
    expect((await clientFor(open).auth.signInWithPassword({ email: newEmail, password })).error).toBeNull();
  });

  it("refuses signups when signups are disabled", async () => {
    open.stack.config.auth.enableSignup = false;
    try {
      const { error } = await clientFor(open).auth.signUp({ email: uniqueEmail(), password });
      expect(error?.status).toBe(422);
      expect(error?.code).toBe("signup_disabled");
    } finally {
      open.stack.config.auth.enableSignup = true;
    }
  });
});
