import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { bytes, png, userClient } from "./helpers.js";

const stack = stackPerFile();
let alice: Awaited<ReturnType<typeof userClient>>;
let bob: Awaited<ReturnType<typeof userClient>>;
let service: ReturnType<typeof clientFor>;
let anon: ReturnType<typeof clientFor>;

beforeAll(async () => {
  alice = await userClient(stack);
  bob = await userClient(stack);
  service = clientFor(stack, stack.serviceRoleKey);
  anon = clientFor(stack);
});

describe("upload and download", () => {
  it("uploads a raw body into the owner's folder and downloads it back", async () => {
    const path = `${alice.id}/notes.txt`;
    const { data, error } = await alice.client.storage.from("documents").upload(path, bytes("hello"), {
      contentType: "text/plain",
    });
    expect(error).toBeNull();
    expect(data?.path).toBe(path);
    expect(data?.fullPath).toBe(`documents/${path}`);
    expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);

    const download = await alice.client.storage.from("documents").download(path);
    expect(download.error).toBeNull();
    expect(await download.data?.text()).toBe("hello");
    expect(download.data?.type).toBe("text/plain");
  });

  it("uploads a Blob as multipart with the file under an empty field name", async () => {
    const path = `${alice.id}/photo.png`;
    const blob = new Blob([png("x")], { type: "image/png" });
    const { error } = await alice.client.storage.from("documents").upload(path, blob, { cacheControl: "60" });
    expect(error).toBeNull();
    const info = await alice.client.storage.from("documents").info(path);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: path, bucketId: "documents", size: 9, contentType: "image/png" });
    expect(info.data?.cacheControl).toBe("max-age=60");
  });

  it("stores Storage's metadata jsonb and the owner from the JWT", async () => {
    const path = `${alice.id}/meta.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("abc"), { contentType: "text/plain" });
    const [row] = await stack.stack.db.query<{ owner: string; owner_id: string; metadata: Record<string, unknown> }>(
      "select owner::text, owner_id, metadata from storage.objects where bucket_id = 'documents' and name = $1",
      [path],
    );
    expect(row?.owner).toBe(alice.id);
    expect(row?.owner_id).toBe(alice.id);
    expect(row?.metadata).toMatchObject({
      eTag: '"900150983cd24fb0d6963f7d28e17f72"',
      size: 3,
      mimetype: "text/plain",
      cacheControl: "max-age=3600",
      contentLength: 3,
      httpStatusCode: 200,
    });
  });

  it("honours cache-control and content type on download", async () => {
    const path = `${alice.id}/cached.json`;
    await alice.client.storage
      .from("documents")
      .upload(path, bytes("{}"), { contentType: "application/json", cacheControl: "120" });
    const { data } = await alice.client.storage.from("documents").createSignedUrl(path, 60);
    const response = await fetch(data?.signedUrl ?? "");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("max-age=120");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it("refuses a second upload to the same path without upsert", async () => {
    const path = `${alice.id}/once.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("one"));
    const { error } = await alice.client.storage.from("documents").upload(path, bytes("two"));
    expect(error).toMatchObject({ status: 400, statusCode: "409", message: "The resource already exists" });
    expect((error as { code?: string } | null)?.code).toBe("KeyAlreadyExists");
    const download = await alice.client.storage.from("documents").download(path);
    expect(await download.data?.text()).toBe("one");
  });

  it("replaces the object with upsert and with update()", async () => {
    const path = `${alice.id}/replace.txt`;
    const first = await alice.client.storage.from("documents").upload(path, bytes("v1"));
    const second = await alice.client.storage.from("documents").upload(path, bytes("v2"), { upsert: true });
    expect(second.error).toBeNull();
    expect(second.data?.id).toBe(first.data?.id);
    expect(await (await alice.client.storage.from("documents").download(path)).data?.text()).toBe("v2");
    const third = await alice.client.storage.from("documents").update(path, bytes("v3"));
    expect(third.error).toBeNull();
    expect(await (await alice.client.storage.from("documents").download(path)).data?.text()).toBe("v3");
  });

  it("keeps user metadata and returns it from info()", async () => {
    const path = `${alice.id}/with-meta.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("m"), { metadata: { kind: "note" } });
    const info = await alice.client.storage.from("documents").info(path);
    expect(info.data?.metadata).toEqual({ kind: "note" });
  });

  it("answers a missing object with NoSuchKey in a 400", async () => {
    const { error } = await alice.client.storage.from("documents").download(`${alice.id}/missing.txt`);
    expect(error).toMatchObject({ status: 400, statusCode: "404" });
    const raw = await fetch(`${stack.url}/storage/v1/object/documents/${alice.id}/missing.txt`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${alice.token}` },
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      statusCode: "404",
      code: "NoSuchKey",
      error: "not_found",
      message: "Object not found",
    });
  });

  it("answers a missing bucket with NoSuchBucket", async () => {
    const { error } = await alice.client.storage.from("nope").upload("a.txt", bytes("x"));
    expect(error).toMatchObject({ status: 400, statusCode: "404", message: "Bucket not found" });
  });

  it("supports exists()", async () => {
    const path = `${alice.id}/exists.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("x"));
    expect((await alice.client.storage.from("documents").exists(path)).data).toBe(true);
    expect((await alice.client.storage.from("documents").exists(`${alice.id}/nope.txt`)).data).toBe(false);
    expect((await bob.client.storage.from("documents").exists(path)).data).toBe(false);
  });

  it("answers HEAD with the object's headers and no body", async () => {
    const path = `${alice.id}/head.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("12345"), { contentType: "text/plain" });
    const response = await fetch(`${stack.url}/storage/v1/object/authenticated/documents/${path}`, {
      method: "HEAD",
      headers: { apikey: stack.anonKey, authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("5");
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(await response.text()).toBe("");
  });

  it("serves byte ranges", async () => {
    const path = `${alice.id}/range.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("0123456789"));
    const response = await fetch(`${stack.url}/storage/v1/object/documents/${path}`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${alice.token}`, range: "bytes=2-4" },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe("bytes 2-4/10");
    expect(await response.text()).toBe("234");
  });
});

describe("concurrent writers", () => {
  async function versionFiles(key: string) {
    const { readdir } = await import("node:fs/promises");
    const { join } = await import("node:path");
    return readdir(join(stack.stack.storageDir, "documents", ...key.split("/"))).then(
      (names) => names.filter((name) => !name.startsWith(".")),
      () => [],
    );
  }

  it("lets exactly one of several simultaneous uploads create the object", async () => {
    const path = `${alice.id}/race.txt`;
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => alice.client.storage.from("documents").upload(path, bytes(`v${n}`))),
    );
    expect(results.filter((result) => result.error === null)).toHaveLength(1);
    expect(results.filter((result) => result.error?.message === "The resource already exists")).toHaveLength(4);
    expect(await versionFiles(path)).toHaveLength(1);
  });

  it("leaves one object and one file after simultaneous upserts", async () => {
    const path = `${alice.id}/race-upsert.txt`;
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => alice.client.storage.from("documents").upload(path, bytes(`v${n}`), { upsert: true })),
    );
    expect(results.every((result) => result.error === null)).toBe(true);
    expect(await versionFiles(path)).toHaveLength(1);
    const text = await (await alice.client.storage.from("documents").download(path)).data?.text();
    expect(["v1", "v2", "v3", "v4", "v5"]).toContain(text);
  });
});

describe("roles", () => {
  it("keeps another user out of the owner's folder", async () => {
    const path = `${alice.id}/private.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("secret"));
    const download = await bob.client.storage.from("documents").download(path);
    expect(download.error).toMatchObject({ status: 400, statusCode: "404" });
    const upload = await bob.client.storage.from("documents").upload(`${alice.id}/intruder.txt`, bytes("x"));
    expect(upload.error).toMatchObject({
      status: 400,
      statusCode: "403",
      message: "new row violates row-level security policy",
    });
    const upsert = await bob.client.storage.from("documents").upload(path, bytes("x"), { upsert: true });
    expect(upsert.error).toMatchObject({ statusCode: "403" });
    const removed = await bob.client.storage.from("documents").remove([path]);
    expect(removed.data).toEqual([]);
    expect(await (await alice.client.storage.from("documents").download(path)).data?.text()).toBe("secret");
  });

  it("keeps anon out of a private bucket", async () => {
    const path = `${alice.id}/anon.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("x"));
    expect((await anon.storage.from("documents").download(path)).error).toMatchObject({ statusCode: "404" });
    expect((await anon.storage.from("documents").upload(`${alice.id}/a.txt`, bytes("x"))).error).toMatchObject({
      statusCode: "403",
    });
    expect((await anon.storage.from("documents").list(alice.id)).data).toEqual([]);
  });

  it("lets the service role do anything", async () => {
    const path = `${alice.id}/by-service.txt`;
    expect((await service.storage.from("documents").upload(path, bytes("svc"))).error).toBeNull();
    expect(await (await alice.client.storage.from("documents").download(path)).data?.text()).toBe("svc");
    const [row] = await stack.stack.db.query<{ owner: string | null }>(
      "select owner from storage.objects where bucket_id = 'documents' and name = $1",
      [path],
    );
    expect(row?.owner).toBeNull();
    expect((await service.storage.from("documents").remove([path])).data).toHaveLength(1);
  });

  it("rejects an invalid JWT with a 403 inside a 400", async () => {
    const bad = clientFor(stack, stack.anonKey, { global: { headers: { Authorization: "Bearer a.b.c" } } });
    const { error } = await bad.storage.from("documents").list();
    expect(error).toMatchObject({ status: 400, statusCode: "403" });
    expect((error as { code?: string } | null)?.code).toBe("AccessDenied");
  });
});

describe("public buckets", () => {
  it("serves public objects by public URL without any key", async () => {
    const path = `${alice.id}/avatar.png`;
    await alice.client.storage.from("avatars").upload(path, png("face"), { contentType: "image/png" });
    const { data } = anon.storage.from("avatars").getPublicUrl(path);
    expect(data.publicUrl).toBe(`${stack.url}/storage/v1/object/public/avatars/${path}`);
    const response = await fetch(data.publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png("face"));
    const download = await fetch(`${data.publicUrl}?download=me.png`);
    expect(download.headers.get("content-disposition")).toContain("attachment");
  });

  it("gives public object info to anon without a policy check", async () => {
    const path = `${alice.id}/info.png`;
    await alice.client.storage.from("avatars").upload(path, png("img"), { contentType: "image/png" });
    // The gateway only opens /object/public and /object/sign without an apikey.
    const response = await fetch(`${stack.url}/storage/v1/object/info/public/avatars/${path}`, {
      headers: { apikey: stack.anonKey },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      name: path,
      bucket_id: "avatars",
      size: 11,
      content_type: "image/png",
    });
  });

  it("does not serve private buckets by public URL", async () => {
    const path = `${alice.id}/hidden.txt`;
    await alice.client.storage.from("documents").upload(path, bytes("x"));
    const response = await fetch(`${stack.url}/storage/v1/object/public/documents/${path}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: "404", error: "Bucket not found" });
  });

  it("still needs a policy to write to a public bucket", async () => {
    const { error } = await bob.client.storage.from("avatars").upload(`${alice.id}/x.png`, bytes("x"));
    expect(error).toMatchObject({ statusCode: "403" });
  });
});

describe("list", () => {
  it("lists one folder level with synthesised sub-folders", async () => {
    const storage = alice.client.storage.from("documents");
    for (const name of ["list/b.txt", "list/a.txt", "list/sub/c.txt", "list/sub/deeper/d.txt", "list/other/e.txt"]) {
      await storage.upload(`${alice.id}/${name}`, bytes(name));
    }
    const { data, error } = await storage.list(`${alice.id}/list`);
    expect(error).toBeNull();
    expect(data?.map((item) => item.name)).toEqual(["a.txt", "b.txt", "other", "sub"]);
    const folder = data?.find((item) => item.name === "sub");
    expect(folder).toMatchObject({ id: null, metadata: null, created_at: null });
    const file = data?.find((item) => item.name === "a.txt");
    expect(file?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(file?.metadata).toMatchObject({ size: 10, mimetype: "text/plain;charset=UTF-8" });
  });

  it("applies limit, offset, sortBy and search", async () => {
    const storage = alice.client.storage.from("documents");
    const prefix = `${alice.id}/list`;
    expect((await storage.list(prefix, { limit: 2, offset: 1 })).data?.map((item) => item.name)).toEqual([
      "b.txt",
      "other",
    ]);
    expect(
      (await storage.list(prefix, { sortBy: { column: "name", order: "desc" } })).data?.map((item) => item.name),
    ).toEqual(["sub", "other", "b.txt", "a.txt"]);
    expect(
      (await storage.list(prefix, { sortBy: { column: "created_at", order: "desc" } })).data?.map((item) => item.name),
    ).toEqual(["sub", "other", "a.txt", "b.txt"]);
    expect((await storage.list(prefix, { search: "b" })).data?.map((item) => item.name)).toEqual(["b.txt"]);
    expect((await storage.list(prefix, { search: "su" })).data?.map((item) => item.name)).toEqual(["sub"]);
  });

  it("shows only what the caller may select", async () => {
    expect((await bob.client.storage.from("documents").list(`${alice.id}/list`)).data).toEqual([]);
    const { data } = await service.storage.from("documents").list(`${alice.id}/list`);
    expect(data).toHaveLength(4);
  });
});

describe("remove, move, copy", () => {
  it("removes several objects and returns the removed rows", async () => {
    const storage = alice.client.storage.from("documents");
    await storage.upload(`${alice.id}/rm/1.txt`, bytes("1"));
    await storage.upload(`${alice.id}/rm/2.txt`, bytes("2"));
    const { data, error } = await storage.remove([
      `${alice.id}/rm/1.txt`,
      `${alice.id}/rm/2.txt`,
      `${alice.id}/rm/3.txt`,
    ]);
    expect(error).toBeNull();
    expect(data?.map((row) => row.name).sort()).toEqual([`${alice.id}/rm/1.txt`, `${alice.id}/rm/2.txt`]);
    expect((await storage.download(`${alice.id}/rm/1.txt`)).error).toMatchObject({ statusCode: "404" });
  });

  it("moves an object within the caller's folder", async () => {
    const storage = alice.client.storage.from("documents");
    await storage.upload(`${alice.id}/mv/from.txt`, bytes("moving"));
    const { data, error } = await storage.move(`${alice.id}/mv/from.txt`, `${alice.id}/mv/to.txt`);
    expect(error).toBeNull();
    expect(data).toEqual({ message: "Successfully moved" });
    expect(await (await storage.download(`${alice.id}/mv/to.txt`)).data?.text()).toBe("moving");
    expect((await storage.download(`${alice.id}/mv/from.txt`)).error).toMatchObject({ statusCode: "404" });
  });

  it("refuses to move into another user's folder", async () => {
    const storage = alice.client.storage.from("documents");
    await storage.upload(`${alice.id}/mv/mine.txt`, bytes("m"));
    const { error } = await storage.move(`${alice.id}/mv/mine.txt`, `${bob.id}/stolen.txt`);
    expect(error).toMatchObject({ statusCode: "403" });
    expect(await (await storage.download(`${alice.id}/mv/mine.txt`)).data?.text()).toBe("m");
  });

  it("copies an object, also across buckets", async () => {
    const storage = alice.client.storage.from("documents");
    await storage.upload(`${alice.id}/cp/src.txt`, bytes("copy me"), { contentType: "text/plain" });
    const { data, error } = await storage.copy(`${alice.id}/cp/src.txt`, `${alice.id}/cp/dst.txt`);
    expect(error).toBeNull();
    expect(data).toEqual({ path: `documents/${alice.id}/cp/dst.txt` });
    expect(await (await storage.download(`${alice.id}/cp/dst.txt`)).data?.text()).toBe("copy me");
    expect(await (await storage.download(`${alice.id}/cp/src.txt`)).data?.text()).toBe("copy me");

    const across = await storage.copy(`${alice.id}/cp/src.txt`, `${alice.id}/copied.txt`, {
      destinationBucket: "avatars",
    });
    expect(across.error).toBeNull();
    expect(await (await fetch(`${stack.url}/storage/v1/object/public/avatars/${alice.id}/copied.txt`)).text()).toBe(
      "copy me",
    );
  });

  it("moves an object to another bucket", async () => {
    const storage = alice.client.storage.from("documents");
    await storage.upload(`${alice.id}/mv/to-avatars.png`, png("img"), { contentType: "image/png" });
    const { error } = await service.storage
      .from("documents")
      .move(`${alice.id}/mv/to-avatars.png`, `${alice.id}/moved.png`, { destinationBucket: "avatars" });
    expect(error).toBeNull();
    const response = await fetch(`${stack.url}/storage/v1/object/public/avatars/${alice.id}/moved.png`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png("img"));
    expect(response.headers.get("content-type")).toBe("image/png");
  });

  it("does not let another user copy what they cannot read", async () => {
    const { error } = await bob.client.storage.from("documents").copy(`${alice.id}/cp/src.txt`, `${bob.id}/x.txt`);
    expect(error).toMatchObject({ statusCode: "404" });
  });
});
