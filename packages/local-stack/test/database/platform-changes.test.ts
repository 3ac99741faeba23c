import { randomUUID } from "node:crypto";
import { appendFile, cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPlatform } from "../../src/database/migrate.js";
import { openPglite } from "../../src/database/pglite.js";
import { openPostgres } from "../../src/database/postgres.js";
import type { Database } from "../../src/database/types.js";
import { platformSqlDir } from "../../src/paths.js";

// A copy of the platform scripts to edit, on PGlite or a new database of DATABASE_URL's server.
let platformDir: string;
let db: Database;
let dropDatabase = async () => {};

beforeAll(async () => {
  platformDir = await mkdtemp(join(tmpdir(), "engram-platform-"));
  await cp(platformSqlDir, platformDir, { recursive: true });
  const url = process.env.DATABASE_URL;
  if (!url) {
    db = await openPglite();
    return;
  }
  const name = `engram_platform_${randomUUID().replaceAll("-", "")}`;
  const admin = openPostgres({ connectionString: url, max: 1 });
  await admin.exec(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  db = openPostgres({ connectionString: target.toString() });
  dropDatabase = async () => {
    await admin.exec(`drop database if exists ${name} with (force)`);
    await admin.close();
  };
});

afterAll(async () => {
  await db?.close();
  await dropDatabase();
  await rm(platformDir, { recursive: true, force: true });
});

const defaultGrants = async () =>
  (
    await db.query<{ grants: string }>(
      `select coalesce(string_agg(defaclobjtype::text || ':' || array_to_string(defaclacl, ','), ' ' order by defaclobjtype::text), '') as grants
         from pg_default_acl where defaclnamespace = 'public'::regnamespace`,
    )
  )[0]?.grants ?? "";

describe("applyPlatform", () => {
  it("applies every script to a new database, then nothing while none changes", async () => {
    const first = await applyPlatform(db, { platformDir });
    expect(first).toContain("0001_roles_and_schemas.sql");
    expect(first).toContain("0002_auth.sql");
    expect(await applyPlatform(db, { platformDir })).toEqual([]);
  });

  it("applies a changed script again, and only that one", async () => {
    await appendFile(
      join(platformDir, "0002_auth.sql"),
      "\ncreate table if not exists _local_stack.changed_script (id int);\n",
    );
    expect(await applyPlatform(db, { platformDir })).toEqual(["0002_auth.sql"]);
    const [row] = await db.query<{ exists: boolean }>(
      "select to_regclass('_local_stack.changed_script') is not null as exists",
    );
    expect(row?.exists).toBe(true);
    expect(await applyPlatform(db, { platformDir })).toEqual([]);
  });

  it("applies a new script", async () => {
    await appendFile(
      join(platformDir, "9999_new.sql"),
      "create table if not exists _local_stack.new_script (id int);\n",
    );
    expect(await applyPlatform(db, { platformDir })).toEqual(["9999_new.sql"]);
  });

  it("changes the default grants when exposeNewTables changes, though no script did", async () => {
    const exposed = await defaultGrants();
    expect(exposed).toContain("anon=");
    expect(await applyPlatform(db, { platformDir, exposeNewTables: false })).toEqual([]);
    expect(await defaultGrants()).not.toContain("anon=");
    await applyPlatform(db, { platformDir });
    expect(await defaultGrants()).toBe(exposed);
  });
});
