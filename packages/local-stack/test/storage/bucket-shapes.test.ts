import { StorageApiError } from "@supabase/storage-js";
import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { bytes, png, userClient } from "./helpers.js";

// Buckets as storage-js reads them, and each error in Storage's words: the
// HTTP status is 400, the real one is the body's statusCode.

const stack = stackPerFile();
let service: ReturnType<typeof clientFor>;
let alice: Awaited<ReturnType<typeof userClient>>;

beforeAll(async () => {
  service = clientFor(stack, stack.serviceRoleKey);
  alice = await userClient(stack);
});

/** What storage-js's StorageApiError tells the app. */
function apiError(error: unknown) {
  expect(error).toBeInstanceOf(StorageApiError);
  const { status, statusCode, code, message } = error as StorageApiError;
  return { status, statusCode, code, message };
}

describe("bucket JSON", () => {
  it("has the fields storage-js reads, an owner-less bucket's owner as an empty string", async () => {
    await service.storage.createBucket("shape", { public: true, fileSizeLimit: "2KB", allowedMimeTypes: ["text/*"] });
    const listed = await service.storage.listBuckets({ search: "shape" });
    const [bucket] = listed.data ?? [];
    expect(Object.keys(bucket ?? {}).sort()).toEqual(
      [
        "allowed_mime_types",
        "created_at",
        "file_size_limit",
        "id",
        "name",
        "owner",
        "owner_id",
        "public",
        "type",
        "updated_at",
      ].sort(),
    );
    expect(bucket).toMatchObject({
      id: "shape",
      name: "shape",
      owner: "",
      owner_id: "",
      public: true,
      type: "STANDARD",
      file_size_limit: 2000,
      allowed_mime_types: ["text/*"],
    });
    expect(new Date(bucket?.created_at ?? "").toISOString()).toBe(bucket?.created_at);
    // One bucket is answered with the columns Storage selects there: no owner_id nor type
    // (storage-js's own suite snapshots it so).
    const { data } = await service.storage.getBucket("shape");
    const { owner_id: _ownerId, type: _type, ...details } = (bucket ?? {}) as Record<string, unknown>;
    expect(data).toEqual(details);
  });

  it("says an emptied bucket's deletion is queued, as Storage does, and leaves it empty", async () => {
    await service.storage.createBucket("to-empty");
    await service.storage.from("to-empty").upload("a.txt", bytes("a"), { contentType: "text/plain" });
    const { data, error } = await service.storage.emptyBucket("to-empty");
    expect(error).toBeNull();
    expect(data).toEqual({ message: "Empty bucket has been queued. Completion may take up to an hour." });
    expect((await service.storage.from("to-empty").list()).data).toEqual([]);
  });

  it("lists with limit, offset, sort column and order, as storage-js sends them", async () => {
    for (const id of ["sort-b", "sort-a", "sort-c"]) await service.storage.createBucket(id);
    const page = await service.storage.listBuckets({
      search: "sort-",
      sortColumn: "name",
      sortOrder: "desc",
      limit: 2,
      offset: 1,
    });
    expect(page.data?.map((bucket) => bucket.id)).toEqual(["sort-b", "sort-a"]);
    const byCreation = await service.storage.listBuckets({ search: "sort-", sortColumn: "created_at" });
    expect(byCreation.data?.map((bucket) => bucket.id)).toEqual(["sort-b", "sort-a", "sort-c"]);
  });
});

describe("errors in Storage's words", () => {
  it("a missing bucket is NoSuchBucket", async () => {
    expect(apiError((await service.storage.getBucket("nowhere")).error)).toEqual({
      status: 400,
      statusCode: "404",
      code: "NoSuchBucket",
      message: "Bucket not found",
    });
  });

  it("a missing object is NoSuchKey", async () => {
    expect(apiError((await service.storage.from("documents").info("nobody/none.txt")).error)).toEqual({
      status: 400,
      statusCode: "404",
      code: "NoSuchKey",
      message: "Object not found",
    });
  });

  it("a duplicate bucket is BucketAlreadyExists and a duplicate object KeyAlreadyExists", async () => {
    expect(apiError((await service.storage.createBucket("documents")).error)).toEqual({
      status: 400,
      statusCode: "409",
      code: "BucketAlreadyExists",
      message: "The resource already exists",
    });
    const storage = service.storage.from("documents");
    await storage.upload("dup/once.txt", bytes("1"));
    expect(apiError((await storage.upload("dup/once.txt", bytes("2"))).error)).toEqual({
      status: 400,
      statusCode: "409",
      code: "KeyAlreadyExists",
      message: "The resource already exists",
    });
  });

  it("bad bucket names and keys are InvalidBucketName and InvalidKey", async () => {
    for (const name of ["has/slash", "tab\there", " padded", "emoji-😀"]) {
      expect(apiError((await service.storage.createBucket(name)).error), name).toEqual({
        status: 400,
        statusCode: "400",
        code: "InvalidBucketName",
        message: "Bucket name invalid",
      });
    }
    expect(apiError((await service.storage.from("documents").upload("a\u0001b.txt", bytes("x"))).error)).toEqual({
      status: 400,
      statusCode: "400",
      code: "InvalidKey",
      message: "Invalid key: a\u0001b.txt",
    });
  });

  it("a bucket limit in another format is InvalidRequest, one above the global limit EntityTooLarge", async () => {
    expect(
      apiError((await service.storage.createBucket("mebibytes", { public: false, fileSizeLimit: "1MiB" })).error),
    ).toEqual({
      status: 400,
      statusCode: "400",
      code: "InvalidRequest",
      message: "Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B",
    });
    expect(
      apiError((await service.storage.createBucket("huge", { public: false, fileSizeLimit: "100GB" })).error),
    ).toEqual({
      status: 400,
      statusCode: "413",
      code: "EntityTooLarge",
      message: "The object exceeded the maximum allowed size",
    });
    expect((await service.storage.getBucket("huge")).error).not.toBeNull();
  });

  it("an upload over the bucket's limit is EntityTooLarge", async () => {
    await service.storage.createBucket("tiny", { public: false, fileSizeLimit: 4 });
    expect(apiError((await service.storage.from("tiny").upload("big.txt", bytes("12345"))).error)).toEqual({
      status: 400,
      statusCode: "413",
      code: "EntityTooLarge",
      message: "The object exceeded the maximum allowed size",
    });
  });

  it("a malformed allowed type and a refused upload type are InvalidMimeType", async () => {
    expect(
      apiError(
        (await service.storage.createBucket("typed", { public: false, allowedMimeTypes: ["not a type"] })).error,
      ),
    ).toEqual({
      status: 400,
      statusCode: "415",
      code: "InvalidMimeType",
      message: "mime type not a type is not supported",
    });
    await service.storage.createBucket("pictures", { public: false, allowedMimeTypes: ["image/png"] });
    const upload = await service.storage.from("pictures").upload("a.txt", bytes("x"), { contentType: "text/plain" });
    expect(apiError(upload.error)).toEqual({
      status: 400,
      statusCode: "415",
      code: "InvalidMimeType",
      message: "mime type text/plain is not supported",
    });
    expect(
      (await service.storage.from("pictures").upload("a.png", png("a"), { contentType: "image/png" })).error,
    ).toBeNull();
  });

  it("what RLS refuses is AccessDenied", async () => {
    expect(apiError((await alice.client.storage.createBucket("not-mine")).error)).toEqual({
      status: 400,
      statusCode: "403",
      code: "AccessDenied",
      message: "new row violates row-level security policy",
    });
  });

  it("deleting a bucket with objects is ResourceNotEmpty", async () => {
    await service.storage.createBucket("full");
    await service.storage.from("full").upload("a.txt", bytes("a"));
    expect(apiError((await service.storage.deleteBucket("full")).error)).toEqual({
      status: 400,
      statusCode: "409",
      code: "ResourceNotEmpty",
      message: "The bucket you tried to delete is not empty",
    });
  });

  it("an update without any setting is InvalidRequest", async () => {
    const response = await fetch(`${stack.url}/storage/v1/bucket/documents`, {
      method: "PUT",
      headers: { apikey: stack.serviceRoleKey, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      statusCode: "400",
      code: "InvalidRequest",
      error: "InvalidRequest",
      message: "No content provided",
    });
  });

  it("a path with no route is Fastify's 404, naming the path as Storage sees it", async () => {
    const response = await fetch(`${stack.url}/storage/v1/nowhere/x`, { headers: { apikey: stack.anonKey } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "Route GET:/nowhere/x not found",
    });
  });
});
