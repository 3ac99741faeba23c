import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "../../src/database/pglite.js";
import { readTemplate } from "../../src/database/pglite-template.js";
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

  it("reopen an existing data directory as it was", async () => {
    const db = await openPglite({ dataDir });
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from pg_extension where extname in ('pgcrypto', 'uuid-ossp')",
    );
    expect(row?.n).toBe(2);
    await db.close();
  });
});
