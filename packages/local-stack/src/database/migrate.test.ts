import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { prepareDatabase } from "./migrate.js";
import { openPglite } from "./pglite.js";
import type { Database } from "./types.js";

let db: Database | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

/** A throwaway supabase/ folder with the given migrations and seed (no seed.sql when null). */
async function projectWith(migrations: Record<string, string>, seed: string | null = ""): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "engram-migrate-"));
  await mkdir(join(dir, "migrations"));
  for (const [file, sql] of Object.entries(migrations)) await writeFile(join(dir, "migrations", file), sql);
  if (seed !== null) await writeFile(join(dir, "seed.sql"), seed);
  return dir;
}

describe("prepareDatabase", () => {
  test("applies the platform, then migrations in order, then the seed on the first run only", async () => {
    const supabaseDir = await projectWith(
      {
        "20240102000000_add_column.sql": "alter table public.items add column label text;",
        "20240101000000_create_items.sql": "create table public.items (id int primary key);",
      },
      "insert into public.items (id, label) values (1, 'seeded');",
    );
    db = await openPglite();
    const first = await prepareDatabase(db, { supabaseDir });
    expect(first.migrations).toEqual(["20240101000000_create_items.sql", "20240102000000_add_column.sql"]);
    expect(first.seeded).toBe(true);
    expect(first.platform).toContain("0002_auth.sql");

    const second = await prepareDatabase(db, { supabaseDir });
    expect(second).toEqual({ platform: [], migrations: [], seeded: false });
    expect(await db.query("select id, label from public.items")).toEqual([{ id: 1, label: "seeded" }]);
    expect(await db.query("select version, name from supabase_migrations.schema_migrations order by version")).toEqual([
      { version: "20240101000000", name: "create_items" },
      { version: "20240102000000", name: "add_column" },
    ]);
  });

  test("provides Supabase's roles and auth helpers to migrations", async () => {
    db = await openPglite();
    await prepareDatabase(db, { supabaseDir: await projectWith({}) });
    const roles = await db.query<{ rolname: string; rolbypassrls: boolean }>(
      "select rolname, rolbypassrls from pg_roles where rolname in ('anon', 'authenticated', 'service_role') order by rolname",
    );
    expect(roles).toEqual([
      { rolname: "anon", rolbypassrls: false },
      { rolname: "authenticated", rolbypassrls: false },
      { rolname: "service_role", rolbypassrls: true },
    ]);
    const [claims] = await db.transaction(async (tx) => {
      await tx.query(
        `select set_config('request.jwt.claims', '{"sub":"5f3c1e1a-0000-4000-8000-000000000001","role":"authenticated"}', true)`,
      );
      return tx.query("select auth.uid()::text as uid, auth.role() as role");
    });
    expect(claims).toEqual({ uid: "5f3c1e1a-0000-4000-8000-000000000001", role: "authenticated" });
  });

  test("a failing migration is rolled back, named in the error, and not recorded", async () => {
    const supabaseDir = await projectWith({
      "20240101000000_ok.sql": "create table public.kept (id int);",
      "20240102000000_broken.sql": "create table public.half (id int); select * from missing_table;",
    });
    db = await openPglite();
    await expect(prepareDatabase(db, { supabaseDir })).rejects.toThrow(/20240102000000_broken\.sql/);
    expect(
      await db.query("select to_regclass('public.half') as half, to_regclass('public.kept')::text as kept"),
    ).toEqual([{ half: null, kept: "kept" }]);
    expect(await db.query("select version from supabase_migrations.schema_migrations")).toEqual([
      { version: "20240101000000" },
    ]);
  });
});
