import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const stack = stackPerFile({
  configure: (config) => {
    config.auth.oauthServer = { enabled: true };
  },
});
const off = stackPerFile();

const admin = () => clientFor(stack, stack.serviceRoleKey).auth.admin.oauth;

describe("the OAuth server's admin client API, as GoTrue serves it", () => {
  it("registers a confidential client with a secret shown once, gets, updates, regenerates and deletes it", async () => {
    const created = await admin().createClient({
      client_name: "Notes exporter",
      redirect_uris: ["https://example.com/callback", "http://localhost:3000/cb"],
    });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({
      client_name: "Notes exporter",
      client_type: "confidential",
      registration_type: "manual",
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      redirect_uris: ["https://example.com/callback", "http://localhost:3000/cb"],
    });
    const id = created.data?.client_id ?? "";
    const secret = created.data?.client_secret ?? "";
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const got = await admin().getClient(id);
    expect(got.data).toMatchObject({ client_id: id, client_name: "Notes exporter" });
    expect(got.data).not.toHaveProperty("client_secret");

    const updated = await admin().updateClient(id, { logo_uri: "https://example.com/logo.png" });
    expect(updated.data).toMatchObject({ client_name: "Notes exporter", logo_uri: "https://example.com/logo.png" });

    const listed = await admin().listClients();
    expect(listed.data.clients.map((client) => client.client_id)).toContain(id);

    const regenerated = await admin().regenerateClientSecret(id);
    expect(regenerated.data?.client_secret).toBeDefined();
    expect(regenerated.data?.client_secret).not.toBe(secret);

    expect((await admin().deleteClient(id)).error).toBeNull();
    const gone = await admin().getClient(id);
    expect(gone.error).toMatchObject({
      status: 404,
      code: "oauth_client_not_found",
      message: "OAuth client not found",
    });
  });

  it("refuses what GoTrue refuses: no redirect URI, plain http off localhost, a public client's secret", async () => {
    const empty = await admin().createClient({ client_name: "None", redirect_uris: [] });
    expect(empty.error).toMatchObject({ status: 400, code: "validation_failed", message: "redirect_uris is required" });
    const http = await admin().createClient({ client_name: "Http", redirect_uris: ["http://example.com/cb"] });
    expect(http.error?.message).toBe(
      "invalid redirect_uri 'http://example.com/cb': HTTP scheme only allowed for localhost",
    );
    const pub = await admin().createClient({
      client_name: "Public",
      redirect_uris: ["myapp://callback"],
      token_endpoint_auth_method: "none",
    });
    expect(pub.data).toMatchObject({ client_type: "public", token_endpoint_auth_method: "none" });
    expect(pub.data).not.toHaveProperty("client_secret");
    const regenerated = await admin().regenerateClientSecret(pub.data?.client_id ?? "");
    expect(regenerated.error).toMatchObject({ status: 400, message: "Cannot regenerate secret for public client" });
  });

  it("is for the service role only, and answers 'OAuth server is disabled' when config.toml leaves it off", async () => {
    const anon = await clientFor(stack).auth.admin.oauth.listClients();
    expect(anon.error).toMatchObject({ status: 403 });
    const disabled = await clientFor(off, off.serviceRoleKey).auth.admin.oauth.listClients();
    expect(disabled.error).toMatchObject({
      status: 404,
      code: "feature_disabled",
      message: "OAuth server is disabled",
    });
  });
});
