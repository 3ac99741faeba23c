/** Files for upload tests. */
import { openAsBlob } from "node:fs";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

/**
 * A Blob of `size` zero bytes backed by a sparse temporary file: made at once
 * and holding no memory, where building a 200 MB Blob in memory takes seconds
 * of a busy machine. The file is removed when the test ends.
 */
export async function blobOfSize(size: number, type = ""): Promise<Blob> {
  const dir = await mkdtemp(join(tmpdir(), "engram-sdk-test-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, "file");
  await writeFile(path, "");
  await truncate(path, size);
  return openAsBlob(path, { type });
}
