/**
 * Each service reads at most as much of a request body as the real one does,
 * and refuses more with its own 413, whether the length is declared or the
 * body is streamed: PostgREST 10 MiB, GoTrue 1 MiB, Storage's JSON routes 1 MiB (Fastify's
 * default), Realtime's HTTP API 8 MB (Plug's default).
 */
import { describe, expect, test } from "vitest";
import { stackPerFile } from "./support/stack.js";

const running = stackPerFile();

/** A JSON object of about `bytes` bytes. */
const jsonOf = (bytes: number) => JSON.stringify({ email: "a@example.test", padding: "x".repeat(bytes) });

/** `head`, then a body that never ends: a server that waits for all of it never answers. */
function endless(head: Uint8Array = new Uint8Array()): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) return new Promise<void>(() => {});
      sent = true;
      controller.enqueue(head);
    },
  });
}

/** The same text sent in pieces without a declared length. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 256 * 1024));
      at += 256 * 1024;
    },
  });
}

async function post(path: string, body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.url}${path}`, {
    method: "POST",
    headers: {
      apikey: running.serviceRoleKey,
      authorization: `Bearer ${running.serviceRoleKey}`,
      "content-type": "application/json",
      ...headers,
    },
    body,
    ...(typeof body === "string" ? {} : { duplex: "half" }),
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("request bodies", () => {
  test.each(["declared", "streamed"] as const)("REST refuses a %s body over 10 MiB as PostgREST does", async (how) => {
    const text = JSON.stringify({ padding: "x".repeat(10 << 20) });
    const result = await post("/rest/v1/rpc/anything", how === "declared" ? text : streamed(text));
    expect(result).toEqual({
      status: 413,
      body: { code: "PGRST102", details: null, hint: null, message: "Request body too large" },
    });
  });

  test.each(["declared", "streamed"] as const)("auth refuses a %s body over 1 MiB as GoTrue does", async (how) => {
    const text = jsonOf(1 << 20);
    const result = await post("/auth/v1/signup", how === "declared" ? text : streamed(text), {
      "x-supabase-api-version": "2024-01-01",
    });
    expect(result).toEqual({
      status: 413,
      body: expect.objectContaining({
        code: "request_entity_too_large",
        message: "Request body too large (max 1048576 bytes)",
      }),
    });
  });

  test.each(["declared", "streamed"] as const)("storage's JSON routes refuse a %s body over 1 MiB", async (how) => {
    const text = JSON.stringify({ id: "big", name: "big", padding: "x".repeat(1 << 20) });
    const result = await post("/storage/v1/bucket", how === "declared" ? text : streamed(text));
    expect(result).toEqual({
      status: 413,
      body: { statusCode: "413", code: "EntityTooLarge", error: "FastifyError", message: "Request body is too large" },
    });
    const buckets = await fetch(`${running.url}/storage/v1/bucket/big`, {
      headers: { apikey: running.serviceRoleKey, authorization: `Bearer ${running.serviceRoleKey}` },
    });
    expect(buckets.status).not.toBe(200);
  });

  test.each(["declared", "streamed"] as const)("realtime's HTTP API refuses a %s body over 8 MB", async (how) => {
    const text = JSON.stringify({
      messages: [{ topic: "t", event: "e", payload: { padding: "x".repeat(8_000_000) } }],
    });
    const result = await post("/realtime/v1/api/broadcast", how === "declared" ? text : streamed(text));
    expect(result).toEqual({ status: 413, body: "Request Entity Too Large" });
  });

  test("an upload RLS refuses is refused before its body is read", async () => {
    const response = await fetch(`${running.url}/storage/v1/object/documents/someone/big.bin`, {
      method: "POST",
      headers: { apikey: running.anonKey, "content-type": "application/octet-stream" },
      body: endless(new Uint8Array(64 * 1024)),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: "403", code: "AccessDenied" });
  });

  test("a multipart upload is read no further than the size limit", async () => {
    // The fixture project's global limit is the CLI's 50 MiB: send past it, then never end.
    const head = new TextEncoder().encode(
      '--b\r\ncontent-disposition: form-data; name=""; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n',
    );
    const past = new Uint8Array(head.length + 51 * 1024 * 1024);
    past.set(head);
    const response = await fetch(`${running.url}/storage/v1/object/documents/someone/big.bin`, {
      method: "POST",
      headers: {
        apikey: running.serviceRoleKey,
        authorization: `Bearer ${running.serviceRoleKey}`,
        "content-type": "multipart/form-data; boundary=b",
      },
      body: endless(past),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: "413", code: "EntityTooLarge" });
  });

  test("bodies under the caps are read as before", async () => {
    const result = await post("/storage/v1/bucket", JSON.stringify({ id: "small", name: "small" }));
    expect(result).toEqual({ status: 200, body: { name: "small" } });
  });
});
