import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { bytes, userClient } from "./helpers.js";

// storage-js's listV2: POST /object/list-v2/<bucket>, folders and objects by key,
// paged with the cursor the previous page returned.

const stack = stackPerFile();
let alice: Awaited<ReturnType<typeof userClient>>;
let bob: Awaited<ReturnType<typeof userClient>>;
let root: string;

const names = ["b.txt", "a.txt", "sub/c.txt", "sub/deeper/d.txt", "other/e.txt", "abc/f.txt"];

beforeAll(async () => {
  alice = await userClient(stack);
  bob = await userClient(stack);
  root = `${alice.id}/v2`;
  for (const name of names) {
    const { error } = await alice.client.storage.from("documents").upload(`${root}/${name}`, bytes(name));
    expect(error).toBeNull();
  }
  // Creation times a second apart, in upload order, so the order by time does not hang on the clock.
  for (const [index, name] of names.entries()) {
    await stack.stack.db.query(
      "update storage.objects set created_at = timestamptz '2024-01-01 00:00:00Z' + make_interval(secs => $1) where bucket_id = 'documents' and name = $2",
      [index, `${root}/${name}`],
    );
  }
});

describe("listV2", () => {
  it("lists every object under the prefix by full key when flat", async () => {
    const { data, error } = await alice.client.storage.from("documents").listV2({ prefix: `${root}/` });
    expect(error).toBeNull();
    expect(data?.hasNext).toBe(false);
    expect(data?.nextCursor).toBeUndefined();
    expect(data?.folders).toEqual([]);
    expect(data?.objects.map((object) => object.name)).toEqual(
      ["a.txt", "abc/f.txt", "b.txt", "other/e.txt", "sub/c.txt", "sub/deeper/d.txt"].map((name) => `${root}/${name}`),
    );
    const first = data?.objects[0];
    expect(first?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.metadata).toMatchObject({ size: 5, mimetype: "text/plain;charset=UTF-8" });
    expect(typeof first?.created_at).toBe("string");
  });

  it("lists one level with its folders when with_delimiter is set", async () => {
    const { data } = await alice.client.storage.from("documents").listV2({ prefix: `${root}/`, with_delimiter: true });
    expect(data?.folders).toEqual([
      { key: "abc", name: `${root}/abc/` },
      { key: "other", name: `${root}/other/` },
      { key: "sub", name: `${root}/sub/` },
    ]);
    expect(data?.objects.map((object) => [object.key, object.name])).toEqual([
      ["a.txt", `${root}/a.txt`],
      ["b.txt", `${root}/b.txt`],
    ]);
    const nested = await alice.client.storage
      .from("documents")
      .listV2({ prefix: `${root}/sub/`, with_delimiter: true });
    expect(nested.data?.folders.map((folder) => folder.name)).toEqual([`${root}/sub/deeper/`]);
    expect(nested.data?.objects.map((object) => object.key)).toEqual(["c.txt"]);
  });

  it("matches a prefix that is not a whole folder name, as S3 does", async () => {
    const { data } = await alice.client.storage.from("documents").listV2({ prefix: `${root}/a`, with_delimiter: true });
    expect(data?.folders.map((folder) => folder.key)).toEqual(["abc"]);
    expect(data?.objects.map((object) => object.key)).toEqual(["a.txt"]);
  });

  it("pages with limit and the returned cursor until hasNext is false", async () => {
    const storage = alice.client.storage.from("documents");
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const { data, error } = await storage.listV2({ prefix: `${root}/`, limit: 4, cursor, with_delimiter: true });
      expect(error).toBeNull();
      seen.push(...(data?.folders ?? []).map((folder) => folder.name), ...(data?.objects ?? []).map((o) => o.name));
      if (!data?.hasNext) {
        expect(data?.nextCursor).toBeUndefined();
        break;
      }
      expect(typeof data.nextCursor).toBe("string");
      cursor = data.nextCursor;
    }
    expect(seen.sort()).toEqual(["a.txt", "abc/", "b.txt", "other/", "sub/"].map((name) => `${root}/${name}`).sort());
    const firstPage = await storage.listV2({ prefix: `${root}/`, limit: 4, with_delimiter: true });
    expect(firstPage.data?.hasNext).toBe(true);
    expect((firstPage.data?.folders.length ?? 0) + (firstPage.data?.objects.length ?? 0)).toBe(4);
  });

  it("sorts by name descending, and by a timestamp with the cursor keeping its place", async () => {
    const storage = alice.client.storage.from("documents");
    const descending = await storage.listV2({ prefix: `${root}/`, sortBy: { column: "name", order: "desc" } });
    expect(descending.data?.objects.map((object) => object.name.slice(root.length + 1))).toEqual([
      "sub/deeper/d.txt",
      "sub/c.txt",
      "other/e.txt",
      "b.txt",
      "abc/f.txt",
      "a.txt",
    ]);
    const byCreation: string[] = [];
    let cursor: string | undefined;
    do {
      const { data } = await storage.listV2({
        prefix: `${root}/`,
        limit: 2,
        cursor,
        sortBy: { column: "created_at", order: "asc" },
      });
      byCreation.push(...(data?.objects ?? []).map((object) => object.name.slice(root.length + 1)));
      cursor = data?.hasNext ? data.nextCursor : undefined;
    } while (cursor);
    expect(byCreation).toEqual(names);
  });

  it("pages one level by creation time, folders first by name, as storage-js's own suite pages it", async () => {
    const storage = alice.client.storage.from("documents");
    const cases = [
      { order: "asc" as const, expected: ["abc/", "other/", "sub/", "b.txt", "a.txt"] },
      { order: "desc" as const, expected: ["sub/", "other/", "abc/", "a.txt", "b.txt"] },
    ];
    for (const { order, expected } of cases) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const { data, error } = await storage.listV2({
          prefix: `${root}/`,
          with_delimiter: true,
          limit: 2,
          cursor,
          sortBy: { column: "created_at", order },
        });
        expect(error).toBeNull();
        const entries = [...(data?.folders ?? []), ...(data?.objects ?? [])];
        seen.push(...entries.map((entry) => entry.name.slice(root.length + 1)));
        cursor = data?.hasNext ? data.nextCursor : undefined;
        pages++;
      } while (cursor);
      expect(seen).toEqual(expected);
      expect(pages).toBe(3);
    }
  });

  it("shows only what RLS lets the caller see", async () => {
    const { data, error } = await bob.client.storage.from("documents").listV2({ prefix: `${root}/` });
    expect(error).toBeNull();
    expect(data).toEqual({ hasNext: false, folders: [], objects: [] });
  });

  it("answers a missing bucket and a bad limit or cursor in Storage's error shape", async () => {
    const missing = await alice.client.storage.from("nowhere").listV2();
    expect(missing.error).toMatchObject({ status: 400, statusCode: "404", message: "Bucket not found" });
    const badLimit = await alice.client.storage.from("documents").listV2({ limit: 0 });
    expect(badLimit.error).toMatchObject({ status: 400, statusCode: "400" });
    const badCursor = await alice.client.storage.from("documents").listV2({ cursor: "not a cursor" });
    expect(badCursor.error).toMatchObject({ status: 400, statusCode: "400" });
  });

  it("is served to the service role across every user's objects", async () => {
    const { data } = await clientFor(stack, stack.serviceRoleKey)
      .storage.from("documents")
      .listV2({ prefix: `${alice.id}/`, with_delimiter: true });
    expect(data?.folders).toEqual([{ key: "v2", name: `${alice.id}/v2/` }]);
  });
});
