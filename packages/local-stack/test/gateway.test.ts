import { describe, expect, test } from "vitest";
import { publishableKey } from "../src/keys/api-keys.js";
import { stackPerFile } from "./support/stack.js";

// The gateway in front of every API: API keys as Supabase checks them, and CORS.

const stack = stackPerFile();

describe("API keys", () => {
  test("a request without an apikey is refused with 401 in Supabase's shape", async () => {
    const response = await fetch(`${stack.url}/rest/v1/anything`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      message: "No API key found in request",
      hint: "No `apikey` request header or url param was found.",
    });
  });

  test("an unknown apikey is refused with 401", async () => {
    const response = await fetch(`${stack.url}/auth/v1/settings`, { headers: { apikey: "nope" } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: "Invalid API key" });
  });

  test("the anon, service_role and publishable keys pass", async () => {
    for (const apikey of [stack.anonKey, stack.serviceRoleKey, publishableKey]) {
      const response = await fetch(`${stack.url}/auth/v1/settings`, { headers: { apikey } });
      expect(response.status).not.toBe(401);
    }
  });

  test("the Data API, Auth, GraphQL and Realtime need an apikey even with a bearer", async () => {
    const headers = { authorization: `Bearer ${stack.serviceRoleKey}` };
    for (const path of ["/rest/v1/messages", "/auth/v1/user", "/graphql/v1", "/realtime/v1/api/broadcast"]) {
      const response = await fetch(`${stack.url}${path}`, { headers });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toMatchObject({ message: "No API key found in request" });
    }
  });

  test("Storage and Functions take a bearer alone: their servers check it", async () => {
    const buckets = await fetch(`${stack.url}/storage/v1/bucket`, {
      headers: { authorization: `Bearer ${stack.serviceRoleKey}` },
    });
    expect(buckets.status).toBe(200);
    expect(Array.isArray(await buckets.json())).toBe(true);
    const bare = await fetch(`${stack.url}/storage/v1/bucket`);
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ statusCode: "403", message: "Invalid Compact JWS" });
  });

  test("an unknown apikey on Storage is the bearer Storage checks, as the gateway copies it", async () => {
    const response = await fetch(`${stack.url}/storage/v1/bucket`, { headers: { apikey: "nope" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: "403", message: "jwt malformed" });
  });

  test("a path no route serves is the gateway's 404", async () => {
    const response = await fetch(`${stack.url}/nowhere/v1/x`, { headers: { apikey: stack.anonKey } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "no Route matched with those values" });
  });

  test("the signing keys are public, as GoTrue's JWKS route is open", async () => {
    const response = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ keys: expect.any(Array) });
  });

  test("email links work without an apikey, as a browser opens them", async () => {
    const response = await fetch(`${stack.url}/auth/v1/verify?token=x&type=signup`, { redirect: "manual" });
    expect(response.status).not.toBe(401);
  });
});

describe("CORS", () => {
  test("a preflight from a browser app is allowed with the headers the clients send", async () => {
    const response = await fetch(`${stack.url}/rest/v1/messages`, {
      method: "OPTIONS",
      headers: {
        origin: "http://127.0.0.1:3000",
        "access-control-request-method": "POST",
        "access-control-request-headers": "apikey, authorization, content-type, prefer, x-client-info",
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const allowed = response.headers.get("access-control-allow-headers") ?? "";
    for (const header of ["apikey", "authorization", "prefer", "x-client-info", "x-supabase-api-version"]) {
      expect(allowed).toContain(header);
    }
  });

  test("responses expose the headers clients must read (counts, auth API version)", async () => {
    const response = await fetch(`${stack.url}/auth/v1/settings`, {
      headers: { apikey: stack.anonKey, origin: "http://127.0.0.1:3000" },
    });
    const exposed = response.headers.get("access-control-expose-headers") ?? "";
    expect(exposed).toContain("Content-Range");
    expect(exposed).toContain("X-Supabase-Api-Version");
  });
});

describe("the mailbox", () => {
  test("lists a recipient's messages and reads one", async () => {
    const sent = stack.stack.mailbox.send({
      to: "Reader@Example.test",
      subject: "Hello",
      html: "<p>Hi</p>",
      text: "Hi",
    });
    const list = await (await fetch(`${stack.mailboxUrl}/api/v1/mailbox/reader@example.test`)).json();
    expect(list).toEqual([expect.objectContaining({ id: sent.id, subject: "Hello" })]);
    const message = (await (
      await fetch(`${stack.mailboxUrl}/api/v1/mailbox/reader@example.test/${sent.id}`)
    ).json()) as {
      body: unknown;
    };
    expect(message.body).toEqual({ text: "Hi", html: "<p>Hi</p>" });
  });
});
