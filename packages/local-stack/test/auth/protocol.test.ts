import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { cookieJar, serverClient, uniqueEmail } from "./helpers.js";

const stack = stackPerFile();

const password = "correct horse battery";

describe("auth transport", () => {
  it("answers legacy clients (no API version) with {code: <status>, error_code, msg}", async () => {
    const response = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: JSON.stringify({ email: uniqueEmail(), password }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-supabase-api-version")).toBeNull();
    expect(await response.json()).toEqual({
      code: 400,
      error_code: "invalid_credentials",
      msg: "Invalid login credentials",
    });
  });

  it("answers an unsupported grant type OAuth-style", async () => {
    const response = await fetch(`${stack.url}/auth/v1/token?grant_type=magic`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("echoes X-Supabase-Api-Version and exposes it to browsers", async () => {
    const response = await fetch(`${stack.url}/auth/v1/settings`, {
      headers: { apikey: stack.anonKey, origin: "http://127.0.0.1:3000", "x-supabase-api-version": "2024-01-01" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(response.headers.get("access-control-expose-headers")?.toLowerCase()).toContain("x-supabase-api-version");
    expect(await response.json()).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      external: { email: true },
    });
  });

  it("serves an empty JWKS, since user tokens are HS256", async () => {
    const response = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`, { headers: { apikey: stack.anonKey } });
    expect(await response.json()).toEqual({ keys: [] });
  });

  it("verifies claims with getClaims through GET /user", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const client = clientFor(stack);
    await client.auth.signInWithPassword({ email, password });
    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims.email).toBe(email);
  });

  it("refuses anonymous sign-ins, which the CLI leaves disabled", async () => {
    const { error } = await clientFor(stack).auth.signInAnonymously();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe("anonymous_provider_disabled");
  });

  it("signs a user out everywhere through admin.signOut with their JWT", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const { data } = await clientFor(stack).auth.signInWithPassword({ email, password });
    const token = data.session?.access_token ?? "";
    const { error } = await clientFor(stack, stack.serviceRoleKey).auth.admin.signOut(token, "global");
    expect(error).toBeNull();
    expect((await clientFor(stack).auth.getUser(token)).error?.name).toBe("AuthSessionMissingError");
  });

  it("refreshes an expired cookie session on the server and rotates the cookie", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const jar = cookieJar();
    await serverClient(stack, jar).auth.signInWithPassword({ email, password });
    const stored = JSON.parse(
      Buffer.from((jar.cookies.get("sb-127-auth-token") ?? "").slice("base64-".length), "base64url").toString(),
    );
    stored.expires_at = Math.floor(Date.now() / 1000) - 10;
    jar.cookies.set("sb-127-auth-token", `base64-${Buffer.from(JSON.stringify(stored)).toString("base64url")}`);
    const { data, error } = await serverClient(stack, jar).auth.getSession();
    expect(error).toBeNull();
    expect(data.session?.refresh_token).not.toBe(stored.refresh_token);
    const rotated = JSON.parse(
      Buffer.from((jar.cookies.get("sb-127-auth-token") ?? "").slice("base64-".length), "base64url").toString(),
    );
    expect(rotated.refresh_token).toBe(data.session?.refresh_token);
  });

  it("signs in with the ssr server client and clears the cookies on sign-out", async () => {
    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const jar = cookieJar();
    const { error } = await serverClient(stack, jar).auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    expect(jar.cookies.get("sb-127-auth-token")?.startsWith("base64-")).toBe(true);
    expect((await serverClient(stack, jar).auth.signOut()).error).toBeNull();
    expect([...jar.cookies.keys()].filter((name) => name.startsWith("sb-127-auth-token"))).toEqual([]);
  });
});
