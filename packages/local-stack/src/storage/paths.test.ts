import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ObjectFiles } from "./files.js";
import { bucketAndKey, checkKey } from "./paths.js";

describe("object keys", () => {
  it("accepts nested keys with spaces and unicode", () => {
    expect(bucketAndKey("docs/a%20b/%C3%A9t%C3%A9.txt")).toEqual({ bucket: "docs", key: "a b/été.txt" });
  });

  it.each(["", "/etc/passwd", "a/../b", "..", "./a", "a//b", "a/", "a\\b", "a\u0000b"])("refuses %j", (key) => {
    expect(() => checkKey(key)).toThrow(expect.objectContaining({ code: "InvalidKey" }));
  });

  it("refuses encoded traversal and bad encodings", () => {
    expect(() => bucketAndKey("docs/a/%2e%2e%2f%2e%2e%2fb")).toThrow(expect.objectContaining({ code: "InvalidKey" }));
    expect(() => bucketAndKey("docs/%E0%A4%A")).toThrow(expect.objectContaining({ code: "InvalidKey" }));
    expect(() => bucketAndKey("%2e%2e/a")).toThrow(expect.objectContaining({ code: "InvalidBucketName" }));
  });
});

describe("object files", () => {
  let root: string;
  let files: ObjectFiles;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "engram-files-"));
    files = new ObjectFiles(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("never resolves outside the bucket directory", () => {
    expect(() => files.path("b", "../../x", "v")).toThrow();
    expect(() => files.bucketDir("..")).toThrow();
    expect(files.path("b", "a/c.txt", "v")).toBe(join(root, "b", "a", "c.txt", "v"));
  });

  it("writes whole versions with no temporary file left, and prunes empty folders on remove", async () => {
    const version = await files.write("b", "dir/file.txt", new TextEncoder().encode("data"));
    expect((await files.read("b", "dir/file.txt", version)).toString()).toBe("data");
    expect(await readdir(join(root, "b", "dir", "file.txt"))).toEqual([version]);
    await files.remove("b", "dir/file.txt", version);
    expect(await readdir(join(root, "b"))).toEqual([]);
  });
});
