import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { png, userClient } from "./helpers.js";

const stack = stackPerFile();
let service: ReturnType<typeof clientFor>;
let alice: Awaited<ReturnType<typeof userClient>>;

beforeAll(async () => {
  service = clientFor(stack, stack.serviceRoleKey);
  alice = await userClient(stack);
});

describe("buckets", () => {
  it("creates, reads, updates, empties and deletes a bucket as the service role", async () => {
    const created = await service.storage.createBucket("crud", {
      public: false,
      fileSizeLimit: "1MB",
      allowedMimeTypes: ["image/*"],
    });
    expect(created).toEqual({ data: { name: "crud" }, error: null });

    const read = await service.storage.getBucket("crud");
    expect(read.data).toMatchObject({
      id: "crud",
      name: "crud",
      public: false,
      file_size_limit: 1_000_000,
      allowed_mime_types: ["image/*"],
    });

    const updated = await service.storage.updateBucket("crud", { public: true, fileSizeLimit: 2048 });
    expect(updated).toEqual({ data: { message: "Successfully updated" }, error: null });
    expect((await service.storage.getBucket("crud")).data).toMatchObject({ public: true, file_size_limit: 2048 });

    await service.storage.from("crud").upload("a.png", png("a"), { contentType: "image/png" });
    const notEmpty = await service.storage.deleteBucket("crud");
    expect(notEmpty.error).toMatchObject({ status: 400, statusCode: "409" });

    expect((await service.storage.emptyBucket("crud")).error).toBeNull();
    expect((await service.storage.from("crud").list()).data).toEqual([]);
    expect(await service.storage.deleteBucket("crud")).toEqual({
      data: { message: "Successfully deleted" },
      error: null,
    });
    expect((await service.storage.getBucket("crud")).error).toMatchObject({ statusCode: "404" });
  });

  it("lists buckets", async () => {
    const { data } = await service.storage.listBuckets();
    expect(data?.map((bucket) => bucket.id)).toEqual(expect.arrayContaining(["avatars", "documents", "images"]));
    const searched = await service.storage.listBuckets({ search: "ava" });
    expect(searched.data?.map((bucket) => bucket.id)).toEqual(["avatars"]);
  });

  it("refuses a duplicate bucket", async () => {
    const { error } = await service.storage.createBucket("documents");
    expect(error).toMatchObject({ status: 400, statusCode: "409" });
  });

  it("leaves buckets to RLS for other roles", async () => {
    expect((await alice.client.storage.listBuckets()).data).toEqual([]);
    expect((await alice.client.storage.createBucket("mine")).error).toMatchObject({ statusCode: "403" });
    expect((await clientFor(stack).storage.getBucket("documents")).error).toMatchObject({ statusCode: "404" });
    expect((await alice.client.storage.deleteBucket("avatars")).error).toMatchObject({ statusCode: "404" });
    expect((await service.storage.getBucket("avatars")).data?.id).toBe("avatars");
  });
});
