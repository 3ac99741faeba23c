/**
 * Object bytes on disk, laid out as Storage's file backend does:
 * `<storageDir>/<bucket>/<key>/<version>`. A new version is written to a
 * temporary file and renamed into place, so a crash never leaves half a file
 * under a name the database points at; old versions are removed only after
 * the database no longer refers to them.
 */
import { randomUUID } from "node:crypto";
import { copyFile, mkdir, open, readFile, rename, rm, rmdir } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { errors } from "./errors.js";

export class ObjectFiles {
  constructor(private readonly root: string) {}

  /** The directory of a bucket; the bucket name is already checked, this re-checks containment. */
  bucketDir(bucket: string): string {
    const root = resolve(this.root);
    const dir = resolve(root, bucket);
    if (dirname(dir) !== root) throw errors.invalidBucketName(bucket);
    return dir;
  }

  /** The file of one version of an object, guaranteed to lie inside the bucket's directory. */
  path(bucket: string, key: string, version: string): string {
    const base = this.bucketDir(bucket);
    const file = resolve(base, ...key.split("/"), version);
    if (!file.startsWith(base + sep)) throw errors.invalidKey(key);
    return file;
  }

  /** Writes bytes as a new version and returns the version id. */
  async write(bucket: string, key: string, bytes: Uint8Array): Promise<string> {
    const version = randomUUID();
    const file = this.path(bucket, key, version);
    const temp = join(dirname(file), `.${version}.tmp`);
    const handle = await this.create(temp);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    return version;
  }

  /** Opens a new file, recreating its directory if a concurrent remove pruned it meanwhile. */
  private async create(file: string) {
    for (let attempt = 0; ; attempt++) {
      await mkdir(dirname(file), { recursive: true });
      try {
        return await open(file, "wx");
      } catch (error) {
        if ((error as { code?: string }).code !== "ENOENT" || attempt >= 3) throw error;
      }
    }
  }

  /** Copies a stored version to a new key (and bucket) as a new version. */
  async copy(from: { bucket: string; key: string; version: string }, toBucket: string, toKey: string): Promise<string> {
    const version = randomUUID();
    const file = this.path(toBucket, toKey, version);
    const temp = join(dirname(file), `.${version}.tmp`);
    await (await this.create(temp)).close();
    await copyFile(this.path(from.bucket, from.key, from.version), temp);
    await rename(temp, file);
    return version;
  }

  async read(bucket: string, key: string, version: string): Promise<Buffer> {
    try {
      return await readFile(this.path(bucket, key, version));
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") throw errors.noSuchKey();
      throw error;
    }
  }

  /** Best effort: a leftover version file is harmless, nothing points at it. */
  async remove(bucket: string, key: string, version: string | null): Promise<void> {
    if (!version) return;
    const file = this.path(bucket, key, version);
    await rm(file, { force: true }).catch(() => {});
    // Prune the key's now-empty directories, never the bucket's own.
    const base = this.bucketDir(bucket);
    for (let dir = dirname(file); dir.startsWith(base + sep); dir = dirname(dir)) {
      if (
        !(await rmdir(dir).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }

  async removeBucket(bucket: string): Promise<void> {
    await rm(this.bucketDir(bucket), { recursive: true, force: true }).catch(() => {});
  }
}
