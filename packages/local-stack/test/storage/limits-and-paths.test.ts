import { readdir } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { bytes, png, userClient } from "./helpers.js";

const stack = stackPerFile({
  configure(config) {
    config.storage.fileSizeLimit = 4096;
    config.storage.buckets["from-config"] = { public: true, fileSizeLimit: 1_000_000, allowedMimeTypes: null };
  },
});
let alice: Awaited<ReturnType<typeof userClient>>;

beforeAll(async () => {
  alice = await userClient(stack);
});

async function snapshot() {
  const entries = await readdir(stack.stack.storageDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  const rows = await stack.stack.db.query("select bucket_id, name from storage.objects order by 1, 2");
  return { files: files.sort(), rows };
}

/** A request exactly as written: no URL normalisation of `..` as fetch would do. */
function rawRequest(method: string, path: string, body = "x"): Promise<{ status: number; body: string }> {
  const url = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { apikey: stack.anonKey, authorization: `Bearer ${alice.token}`, "content-type": "text/plain" },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("bucket limits", () => {
  it("refuses a file over the bucket's file_size_limit", async () => {
    const { error } = await alice.client.storage
      .from("images")
      .upload("big.png", new Uint8Array(2000), { contentType: "image/png" });
    expect(error).toMatchObject({ status: 400, statusCode: "413" });
    expect((error as { code?: string } | null)?.code).toBe("EntityTooLarge");
  });

  it("refuses a streamed (chunked) body once it passes the limit", async () => {
    const chunks = [new Uint8Array(800), new Uint8Array(800), new Uint8Array(800)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const { error } = await alice.client.storage
      .from("images")
      .upload("streamed.png", stream, { contentType: "image/png" });
    expect(error).toMatchObject({ status: 400, statusCode: "413" });
    const small = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(png("small"));
        controller.close();
      },
    });
    const ok = await alice.client.storage.from("images").upload("streamed-ok.png", small, { contentType: "image/png" });
    expect(ok.error).toBeNull();
  });

  it("refuses a MIME type the bucket does not allow", async () => {
    const { error } = await alice.client.storage
      .from("images")
      .upload("doc.pdf", bytes("%PDF"), { contentType: "application/pdf" });
    expect(error).toMatchObject({
      status: 400,
      statusCode: "415",
      message: "mime type application/pdf is not supported",
    });
  });

  it("accepts wildcard and exact MIME matches within the limit", async () => {
    const image = await alice.client.storage.from("images").upload("ok.png", png(), { contentType: "image/png" });
    expect(image.error).toBeNull();
    const text = await alice.client.storage
      .from("images")
      .upload("ok.txt", bytes("text"), { contentType: "text/plain" });
    expect(text.error).toBeNull();
    // storage-js declares `text/plain;charset=UTF-8` when no type is given, which Storage does not match to `text/plain`.
    const undeclared = await alice.client.storage.from("images").upload("undeclared.txt", bytes("text"));
    expect(undeclared.error).toMatchObject({
      statusCode: "415",
      message: "mime type text/plain;charset=UTF-8 is not supported",
    });
    const multipart = await alice.client.storage
      .from("images")
      .upload("ok.webp", new Blob([bytes("RIFF\0\0\0\0WEBPVP8 ")], { type: "image/webp" }));
    expect(multipart.error).toBeNull();
  });

  it("caps a bucket limit by the global file size limit", async () => {
    const service = clientFor(stack, stack.serviceRoleKey);
    const { error } = await service.storage.from("from-config").upload("big.bin", new Uint8Array(5000));
    expect(error).toMatchObject({ statusCode: "413" });
    expect((await service.storage.from("from-config").upload("small.bin", new Uint8Array(100))).error).toBeNull();
  });

  it("creates the buckets config.toml declares", async () => {
    const { data } = await clientFor(stack, stack.serviceRoleKey).storage.getBucket("from-config");
    expect(data).toMatchObject({ id: "from-config", public: true, file_size_limit: 1_000_000 });
  });
});

describe("bad paths", () => {
  it("refuses `..` in a client path before anything is written", async () => {
    const before = await snapshot();
    const storage = alice.client.storage.from("documents");
    for (const path of [`${alice.id}/../escape.txt`, "../escape.txt", `${alice.id}/a/../../b.txt`]) {
      const { error } = await storage.upload(path, bytes("x"));
      expect(error?.status).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses raw and encoded traversal, absolute paths, NUL and backslashes with InvalidKey", async () => {
    const before = await snapshot();
    const base = `/storage/v1/object/documents`;
    for (const path of [
      `${base}/${alice.id}/%2e%2e%2f%2e%2e%2fescape.txt`,
      `${base}/${alice.id}/..%2Fescape.txt`,
      `${base}//etc/passwd`,
      `${base}/${alice.id}/a%00b.txt`,
      `${base}/${alice.id}/a%5C..%5Cb.txt`,
      `${base}/${alice.id}/%E0%A4%A.txt`,
    ]) {
      const response = await rawRequest("POST", path);
      expect(response.status, path).toBe(400);
      expect(JSON.parse(response.body), path).toMatchObject({ statusCode: "400", code: "InvalidKey" });
    }
    const raw = await rawRequest("POST", `${base}/${alice.id}/../../../../escape.txt`);
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses traversal in move, copy and bucket names", async () => {
    const storage = alice.client.storage.from("documents");
    await storage.upload(`${alice.id}/safe.txt`, bytes("safe"));
    const before = await snapshot();
    expect((await storage.move(`${alice.id}/safe.txt`, `${alice.id}/../../escape.txt`)).error).toMatchObject({
      statusCode: "400",
    });
    expect((await storage.copy(`${alice.id}/safe.txt`, "/etc/escape.txt")).error).toMatchObject({ statusCode: "400" });
    expect(
      (await storage.copy(`${alice.id}/safe.txt`, "x.txt", { destinationBucket: "../documents" })).error,
    ).toMatchObject({ statusCode: "400" });
    const bucket = await clientFor(stack, stack.serviceRoleKey).storage.createBucket("..");
    expect(bucket.error).toMatchObject({ status: 400 });
    expect(await snapshot()).toEqual(before);
  });

  it("keeps answering after bad requests", async () => {
    const { data } = await alice.client.storage.from("documents").download(`${alice.id}/safe.txt`);
    expect(await data?.text()).toBe("safe");
  });
});
