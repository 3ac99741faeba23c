import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { platformScriptsKey } from "../../src/database/migrate.js";
import { openPglite } from "../../src/database/pglite.js";
import { readTemplate, unpackTemplate } from "../../src/database/pglite-template.js";
import { cacheDir } from "../../src/paths.js";

const dataDir = await mkdtemp(join(tmpdir(), "engram-template-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

// PGlite itself, whatever DATABASE_URL says: the template is the embedded database's.
describe("new PGlite databases", () => {
  it("keep the first one's initdb result in node_modules/.cache", async () => {
    const db = await openPglite();
    await db.close();
    expect(await readTemplate()).not.toBeNull();
    expect((await readdir(cacheDir)).some((name) => /^pglite-.+-initdb\.tar\.gz$/.test(name))).toBe(true);
  });

  it("start from it in memory and on disk, with Supabase's extensions available", async () => {
    for (const options of [{}, { dataDir }]) {
      const db = await openPglite(options);
      await db.exec('create extension if not exists pgcrypto; create extension if not exists "uuid-ossp";');
      const [row] = await db.query<{ bytes: number; version: string }>(
        "select length(gen_random_bytes(8)) as bytes, uuid_generate_v4()::text is not null as version",
      );
      expect(row).toEqual({ bytes: 8, version: true });
      await db.close();
    }
    expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true);
  });

  it("for a stack, keep and start from the state after the platform scripts, per version of them", async () => {
    const platformCount = async (options: { dataDir?: string }) => {
      const db = await openPglite({ ...options, withPlatform: true });
      const [row] = await db.query<{ n: number }>("select count(*)::int as n from _local_stack.platform_migrations");
      await db.close();
      return row?.n;
    };
    const scripts = (await readdir(new URL("../../sql/platform/", import.meta.url))).filter((name) =>
      name.endsWith(".sql"),
    );
    expect(await platformCount({})).toBe(scripts.length);
    const kind = `platform-${(await platformScriptsKey()).slice(0, 16)}` as const;
    expect(await readTemplate(kind)).not.toBeNull();
    const fromTemplate = await mkdtemp(join(tmpdir(), "engram-platform-template-"));
    try {
      expect(await platformCount({ dataDir: fromTemplate })).toBe(scripts.length);
    } finally {
      await rm(fromTemplate, { recursive: true, force: true });
    }
  });

  it("on disk, unpack it into the new directory, and leave one that holds something as it is", async () => {
    const parent = await mkdtemp(join(tmpdir(), "engram-unpack-"));
    try {
      expect(await unpackTemplate("initdb", join(parent, "new"))).toBe(true);
      expect(existsSync(join(parent, "new", "PG_VERSION"))).toBe(true);
      await mkdir(join(parent, "taken"));
      await writeFile(join(parent, "taken", "notes.txt"), "mine");
      expect(await unpackTemplate("initdb", join(parent, "taken"))).toBe(false);
      expect(await readdir(join(parent, "taken"))).toEqual(["notes.txt"]);
      // Nothing half-written is left beside them.
      expect((await readdir(parent)).sort()).toEqual(["new", "taken"]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it("reopen an existing data directory as it was", async () => {
    const db = await openPglite({ dataDir });
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from pg_extension where extname in ('pgcrypto', 'uuid-ossp')",
    );
    expect(row?.n).toBe(2);
    await db.close();
  });
});
