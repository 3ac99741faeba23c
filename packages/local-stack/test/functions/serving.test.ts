import { FunctionsHttpError } from "@supabase/supabase-js";
import { describe, expect, test } from "vitest";
import { publishableKey } from "../../src/keys/api-keys.js";
import { clientFor, stackPerFile } from "../support/stack.js";

// `/functions/v1/<name>` as the CLI's edge runtime serves it, driven through functions-js.

const stack = stackPerFile();

interface Echo {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string | null;
  contentType: string | null;
  authorization: string | null;
  custom: string | null;
  env: { SUPABASE_URL: string | null; SUPABASE_ANON_KEY: boolean; SUPABASE_SERVICE_ROLE_KEY: boolean };
}

describe("invoking a function", () => {
  test("a JSON body is posted to the handler with the caller's headers", async () => {
    const { data, error } = await clientFor(stack).functions.invoke<Echo>("echo", {
      body: { hello: "world" },
      headers: { "x-custom": "yes" },
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({
      method: "POST",
      path: "/echo",
      body: JSON.stringify({ hello: "world" }),
      contentType: "application/json",
      authorization: `Bearer ${stack.anonKey}`,
      custom: "yes",
    });
  });

  test("the handler sees SUPABASE_URL and both keys in its environment", async () => {
    const { data } = await clientFor(stack).functions.invoke<Echo>("echo");
    expect(data?.env).toEqual({ SUPABASE_URL: stack.url, SUPABASE_ANON_KEY: true, SUPABASE_SERVICE_ROLE_KEY: true });
  });

  test("method, sub-path and query string reach the handler", async () => {
    const { data, error } = await clientFor(stack).functions.invoke<Echo>("echo/items/42?sort=asc&q=a+b", {
      method: "GET",
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ method: "GET", path: "/echo/items/42", query: { sort: "asc", q: "a b" }, body: null });
  });

  test("a text body arrives as text/plain", async () => {
    const { data } = await clientFor(stack).functions.invoke<Echo>("echo", { body: "plain words", method: "PUT" });
    expect(data).toMatchObject({ method: "PUT", body: "plain words", contentType: "text/plain" });
  });

  test("a signed-in user's access token is forwarded as Authorization", async () => {
    const admin = clientFor(stack, stack.serviceRoleKey);
    const email = `fn-${crypto.randomUUID()}@example.com`;
    await admin.auth.admin.createUser({ email, password: "password123", email_confirm: true });
    const client = clientFor(stack);
    const { data: session } = await client.auth.signInWithPassword({ email, password: "password123" });
    const { data } = await client.functions.invoke<Echo>("echo");
    expect(data?.authorization).toBe(`Bearer ${session.session?.access_token}`);
  });

  test("the publishable key reaches the function as the anon JWT, as the gateway maps it", async () => {
    const { data, error } = await clientFor(stack, publishableKey).functions.invoke<Echo>("echo");
    expect(error).toBeNull();
    expect(data?.authorization).toBe(`Bearer ${stack.anonKey}`);
  });

  test("a text response is returned as a string", async () => {
    const { data, error } = await clientFor(stack).functions.invoke("open");
    expect(error).toBeNull();
    expect(data).toBe("open to POST");
  });
});

describe("verify_jwt", () => {
  test("a function verifies the JWT by default: a forged token gets 401 Invalid JWT", async () => {
    const response = await fetch(`${stack.url}/functions/v1/echo`, {
      method: "POST",
      headers: { apikey: stack.anonKey, authorization: "Bearer not.a.jwt" },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ msg: "Invalid JWT" });
  });

  test("functions-js reports the 401 as a FunctionsHttpError carrying the response", async () => {
    const client = clientFor(stack, stack.anonKey, { global: { headers: { Authorization: "Bearer forged" } } });
    const { data, error } = await client.functions.invoke("echo");
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect((error as FunctionsHttpError).context.status).toBe(401);
  });

  test("with verify_jwt = false any token is let through to the handler", async () => {
    const response = await fetch(`${stack.url}/functions/v1/open`, {
      headers: { apikey: stack.anonKey, authorization: "Bearer not.a.jwt" },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("open to GET");
  });
});

describe("errors", () => {
  test("a handler that throws answers 500 WORKER_ERROR", async () => {
    const { error } = await clientFor(stack).functions.invoke("echo?throw=1");
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      code: "WORKER_ERROR",
      message: "Function exited due to an error (please check logs)",
    });
  });

  test("a non-2xx answer from the handler is a FunctionsHttpError with its body", async () => {
    const { error } = await clientFor(stack).functions.invoke("echo?status=422");
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const response = (error as FunctionsHttpError).context as Response;
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: "asked to fail" });
  });

  test("an unknown function answers 404 NOT_FOUND", async () => {
    const response = await fetch(`${stack.url}/functions/v1/nope`, {
      method: "POST",
      headers: { apikey: stack.anonKey },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: "NOT_FOUND", message: "Requested function was not found" });
  });

  test("shared-code folders and names outside the slug rule are not functions", async () => {
    for (const name of ["_shared", "1abc", "..%2Fecho"]) {
      const response = await fetch(`${stack.url}/functions/v1/${name}`, { headers: { apikey: stack.anonKey } });
      expect(response.status).toBe(404);
    }
  });
});

describe("CORS", () => {
  test("a browser preflight is answered with the headers functions-js sends", async () => {
    const response = await fetch(`${stack.url}/functions/v1/echo`, {
      method: "OPTIONS",
      headers: {
        origin: "http://127.0.0.1:3000",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, x-client-info, apikey, content-type",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const allowed = response.headers.get("access-control-allow-headers") ?? "";
    for (const header of ["authorization", "x-client-info", "apikey", "content-type"])
      expect(allowed).toContain(header);
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  test("a function's response carries the CORS origin for browsers", async () => {
    const response = await fetch(`${stack.url}/functions/v1/open`, {
      headers: { apikey: stack.anonKey, origin: "http://127.0.0.1:3000" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("without an API key", () => {
  test("a verify_jwt = false function can be called bare, as a webhook calls it", async () => {
    const response = await fetch(`${stack.url}/functions/v1/open`, { method: "POST" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("open to POST");
  });

  test("a verify_jwt function called bare answers 401 Missing authorization header", async () => {
    const response = await fetch(`${stack.url}/functions/v1/echo`, { method: "POST" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ msg: "Error: Missing authorization header" });
  });

  test("a verify_jwt function called with only a user's access token runs", async () => {
    const token = await stack.stack.keys.sign({ role: "authenticated", sub: crypto.randomUUID(), exp: 2_000_000_000 });
    const response = await fetch(`${stack.url}/functions/v1/echo`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ authorization: `Bearer ${token}` });
  });
});
