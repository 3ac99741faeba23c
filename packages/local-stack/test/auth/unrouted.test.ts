import { AuthApiError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { uniqueEmail } from "./helpers.js";

const stack = stackPerFile();
const password = "correct horse battery";

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.url}/auth/v1${path}`, {
    ...init,
    headers: { apikey: stack.anonKey, "x-supabase-api-version": "2024-01-01", ...init.headers },
  });

describe("what GoTrue's router answers outside this server's handlers", () => {
  it("a feature the CLI leaves off answers its JSON 404, which auth-js turns into an AuthApiError with a code", async () => {
    const client = clientFor(stack);
    const sso = await client.auth.signInWithSSO({ domain: "example.com" });
    expect(sso.error).toBeInstanceOf(AuthApiError);
    expect(sso.error).toMatchObject({ status: 404, code: "saml_provider_disabled", message: "SAML 2.0 is disabled" });

    const email = uniqueEmail("link");
    await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({ email, password, email_confirm: true });
    await client.auth.signInWithPassword({ email, password });
    const link = await client.auth.linkIdentity({ provider: "github" });
    expect(link.error).toBeInstanceOf(AuthApiError);
    expect(link.error).toMatchObject({ status: 404, code: "manual_linking_disabled" });
  });

  it("passkeys, the OAuth server and custom providers answer as GoTrue does with them off", async () => {
    const client = clientFor(stack);
    const admin = clientFor(stack, stack.serviceRoleKey).auth.admin;
    const email = uniqueEmail("passkey");
    await admin.createUser({ email, password, email_confirm: true });
    await client.auth.signInWithPassword({ email, password });
    const passkeysOff = { status: 404, code: "passkey_disabled", message: "Passkeys are disabled" };
    expect((await client.auth.passkey.list()).error).toMatchObject(passkeysOff);
    const options = await call("/passkeys/authentication/options", { method: "POST", body: "{}" });
    expect({ status: options.status, body: await options.json() }).toEqual({
      status: 404,
      body: { code: "passkey_disabled", message: "Passkeys are disabled" },
    });

    const serverOff = { status: 404, code: "feature_disabled", message: "OAuth server is disabled" };
    expect((await admin.oauth.listClients()).error).toMatchObject(serverOff);
    expect((await admin.oauth.getClient("9d4f3c2e-1b2a-4c5d-8e7f-0a1b2c3d4e5f")).error).toMatchObject(serverOff);
    const metadata = await call("/.well-known/oauth-authorization-server");
    expect(metadata.status).toBe(404);
    expect((await admin.customProviders.listProviders()).error).toMatchObject({
      status: 404,
      code: "feature_disabled",
      message: "Custom OAuth providers are disabled",
    });
  });

  it("linking a provider checks the session first, as GoTrue's requireAuthentication runs before it", async () => {
    // Without a session the gateway passes the anon key on, which names no user.
    const response = await call("/user/identities/authorize?provider=github");
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: "bad_jwt", message: "invalid claim: missing sub claim" });
  });

  it("an OAuth provider the project does not enable is GoTrue's Unsupported provider error", async () => {
    const github = await call("/authorize?provider=github");
    expect(github.status).toBe(400);
    expect(await github.json()).toEqual({
      code: "validation_failed",
      message: "Unsupported provider: provider is not enabled",
    });
    const unknown = await call("/authorize?provider=myspace");
    expect(await unknown.json()).toMatchObject({
      message: "Unsupported provider: Provider myspace could not be found",
    });
  });

  it("a path GoTrue serves with other methods is its router's 405 with Allow and no body", async () => {
    const response = await call("/signup");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.text()).toBe("");
    const verify = await call("/verify", { method: "DELETE" });
    expect(verify.status).toBe(405);
    expect(verify.headers.get("allow")).toBe("GET, POST");
  });

  it("a path GoTrue does not route at all is its router's plain-text 404", async () => {
    const response = await call("/no-such-endpoint");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("404 page not found\n");
  });
});
