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

  it("signs access tokens ES256 with the key the JWKS serves, and getClaims verifies them without GET /user", async () => {
    const jwks = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`, { headers: { apikey: stack.anonKey } });
    expect(jwks.headers.get("cache-control")).toBe("public, max-age=600");
    const { keys } = (await jwks.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", key_ops: ["verify"] });
    expect(keys[0]).not.toHaveProperty("d");

    const email = uniqueEmail();
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    const paths: string[] = [];
    const counting: typeof fetch = (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    };
    const client = clientFor(stack, stack.anonKey, { global: { fetch: counting } });
    const { data: signedIn } = await client.auth.signInWithPassword({ email, password });
    const header = JSON.parse(Buffer.from(signedIn.session?.access_token.split(".")[0] ?? "", "base64url").toString());
    expect(header).toEqual({ alg: "ES256", kid: keys[0]?.kid, typ: "JWT" });

    paths.length = 0;
    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data?.claims.email).toBe(email);
    expect(paths).toEqual(["/auth/v1/.well-known/jwks.json"]);
    // The user's token works against every service, which verify it the same way.
    expect((await client.auth.getUser()).data.user?.email).toBe(email);
    expect((await client.from("channels").select("id")).error).toBeNull();
    expect((await client.storage.listBuckets()).error).toBeNull();
  });

  it("still accepts HS256 tokens signed with the JWT secret, which tools and older sessions carry", async () => {
    const email = uniqueEmail();
    const { data } = await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password,
      email_confirm: true,
    });
    const token = await stack.stack.keys.sign({
      sub: data.user?.id,
      role: "authenticated",
      aud: "authenticated",
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    const { data: claims, error } = await clientFor(stack).auth.getClaims(token);
    expect(error).toBeNull();
    expect(claims?.claims.sub).toBe(data.user?.id);
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
