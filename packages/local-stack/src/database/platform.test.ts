import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { applyPlatform, migrationRole, type PrepareOptions, prepareDatabase } from "./migrate.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";
import { setRequestContext } from "./request-context.js";
import type { Database } from "./types.js";

// The platform as it really is: migrations and the seed run as `postgres`
// without superuser, the service roles own their tables, new tables are not
// exposed to the API unless granted. On PGlite, and on PostgreSQL when
// DATABASE_URL is set.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let tarball: Promise<Blob> | undefined;
/** PGlite with the platform applied, once per file: each test starts from a copy. */
function platformTarball(): Promise<Blob> {
  tarball ??= (async () => {
    const db = await openPglite();
    await applyPlatform(db);
    const dump = await db.pglite.dumpDataDir("none");
    await db.close();
    return dump;
  })();
  return tarball;
}

/** A fresh empty database: PGlite in memory, or a new database on DATABASE_URL's server. */
async function freshDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await openPglite({ loadDataDir: await platformTarball() });
    cleanups.push(() => db.close());
    return db;
  }
  const name = `engram_platform_${randomUUID().replaceAll("-", "")}`;
  const admin = openPostgres({ connectionString: url, max: 1 });
  await admin.exec(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = openPostgres({ connectionString: target.toString(), max: 2 });
  cleanups.push(async () => {
    await db.close();
    await admin.exec(`drop database if exists ${name} with (force)`);
    await admin.close();
  });
  return db;
}

async function projectWith(migrations: Record<string, string>, seed: string | null = ""): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "engram-platform-"));
  await mkdir(join(dir, "migrations"));
  for (const [file, sql] of Object.entries(migrations)) await writeFile(join(dir, "migrations", file), sql);
  if (seed !== null) await writeFile(join(dir, "seed.sql"), seed);
  return dir;
}

async function prepared(
  migrations: Record<string, string>,
  options: Partial<PrepareOptions> & { seedSql?: string | null } = {},
) {
  const db = await freshDatabase();
  const { seedSql, ...rest } = options;
  const result = await prepareDatabase(db, { supabaseDir: await projectWith(migrations, seedSql), ...rest });
  return { db, result };
}

/** Runs `sql` as an API role the way PostgREST does; resolves to its rows or its error. */
async function asRole(
  db: Database,
  role: string,
  sql: string,
): Promise<{ rows?: unknown[]; error?: Error & { code?: string } }> {
  try {
    return await db.transaction(async (tx) => {
      await setRequestContext(tx, { role, claims: { role } });
      return { rows: await tx.query(sql) };
    });
  } catch (error) {
    return { error: error as Error & { code?: string } };
  }
}

const itemsTable = {
  "20240101000000_items.sql": `create table public.items (id int primary key, label text);
    alter table public.items enable row level security;
    create policy "anyone reads items" on public.items for select using (true);
    insert into public.items values (1, 'one');`,
};

describe("who runs the migrations", () => {
  test("postgres, not a superuser, with BYPASSRLS, CREATEROLE, CREATEDB and REPLICATION, owns what they create", async () => {
    const { db } = await prepared({
      "20240101000000_whoami.sql": `create table public.whoami as
        select current_user::text as who, (select rolsuper from pg_roles where rolname = current_user) as super`,
    });
    const role = await migrationRole(db);
    expect(role).toBe(
      (
        await db.query<{ boot: boolean }>(
          "select exists (select 1 from pg_roles where rolname = 'postgres' and oid = 10) as boot",
        )
      )[0]?.boot
        ? "platform_postgres"
        : "postgres",
    );
    expect(await db.query("select who, super from public.whoami")).toEqual([{ who: role, super: false }]);
    expect(
      await db.query(
        `select rolsuper, rolbypassrls, rolcreaterole, rolcreatedb, rolreplication,
           pg_has_role(rolname, 'supabase_realtime_admin', 'member') as realtime_admin
         from pg_roles where rolname = $1`,
        [role],
      ),
    ).toEqual([
      {
        rolsuper: false,
        rolbypassrls: true,
        rolcreaterole: true,
        rolcreatedb: true,
        rolreplication: true,
        realtime_admin: true,
      },
    ]);
  });

  test("a migration that needs a superuser or another role's table fails, named", async () => {
    await expect(
      prepared({ "20240101000000_alter_auth.sql": "alter table auth.users add column nickname text;" }),
    ).rejects.toThrow(/20240101000000_alter_auth\.sql: must be owner of table users/);
    await expect(prepared({ "20240101000000_superuser.sql": "create role sneaky superuser;" })).rejects.toThrow(
      /20240101000000_superuser\.sql: (permission denied|must be superuser)/i,
    );
  });

  test("each file starts from reset settings: a search_path one file sets does not leak into the next", async () => {
    const { db } = await prepared({
      "20240101000000_path.sql": "select set_config('search_path', 'auth', false);",
      "20240102000000_table.sql": "create table items (id int);",
    });
    expect(await db.query("select to_regclass('public.items')::text as items")).toEqual([{ items: "items" }]);
  });

  test("a policy on realtime.messages, as a deck room migration makes it, applies", async () => {
    const { db } = await prepared({
      "20240101000000_room.sql": `create policy "room members receive" on realtime.messages
        for select to authenticated using (realtime.topic() = 'room:1');`,
    });
    expect(await db.query("select policyname from pg_policies where tablename = 'messages'")).toEqual([
      { policyname: "room members receive" },
    ]);
  });
});

describe("what the API may reach", () => {
  test("without default privileges a table no migration granted is denied to every API role", async () => {
    const { db } = await prepared(itemsTable, { exposeNewTables: false });
    for (const role of ["anon", "authenticated", "service_role"]) {
      const { error } = await asRole(db, role, "select id from public.items");
      expect(error, role).toMatchObject({ code: "42501", message: "permission denied for table items" });
    }
  });

  test("a grant in the migration is what makes it reachable", async () => {
    const { db } = await prepared(
      { ...itemsTable, "20240102000000_grant.sql": "grant select on public.items to anon;" },
      { exposeNewTables: false },
    );
    expect(await asRole(db, "anon", "select id from public.items")).toEqual({ rows: [{ id: 1 }] });
    expect((await asRole(db, "authenticated", "select id from public.items")).error).toMatchObject({ code: "42501" });
  });

  test("with default privileges (older projects) the same table is exposed", async () => {
    const { db } = await prepared(itemsTable, { exposeNewTables: true });
    expect(await asRole(db, "authenticated", "select id from public.items")).toEqual({ rows: [{ id: 1 }] });
  });
});

describe("the platform's own tables", () => {
  test("are owned by the service roles, and auth.users has row-level security", async () => {
    const { db } = await prepared({});
    expect(
      await db.query(
        `select c.oid::regclass::text as rel, pg_get_userbyid(c.relowner) as owner, c.relrowsecurity as rls
         from pg_class c where c.oid in ('auth.users'::regclass, 'storage.objects'::regclass, 'realtime.messages'::regclass)
         order by 1`,
      ),
    ).toEqual([
      { rel: "auth.users", owner: "supabase_auth_admin", rls: true },
      { rel: "realtime.messages", owner: "supabase_realtime_admin", rls: true },
      { rel: "storage.objects", owner: "supabase_storage_admin", rls: true },
    ]);
  });

  test("storage refuses a plain DELETE unless the request sets storage.allow_delete_query", async () => {
    const { db } = await prepared({});
    await db.exec("insert into storage.buckets (id, name) values ('b', 'b')");
    await db.exec("insert into storage.objects (bucket_id, name) values ('b', 'f.txt')");
    await expect(db.exec("delete from storage.objects")).rejects.toMatchObject({
      code: "42501",
      message: expect.stringMatching(/^Direct deletion from storage tables is not allowed/),
    });
    const removed = await db.transaction(async (tx) => {
      await tx.query("select set_config('storage.allow_delete_query', 'true', true)");
      return tx.query("delete from storage.objects returning name");
    });
    expect(removed).toEqual([{ name: "f.txt" }]);
  });

  test("realtime.messages is partitioned by day with uuid ids and a binary payload; the API roles cannot delete", async () => {
    const { db } = await prepared({});
    const [row] = await db.query<{ id: string; partitioned: boolean }>(
      `insert into realtime.messages (topic, extension, binary_payload) values ('t', 'broadcast', '\\x01')
       returning id::text, (select relkind = 'p' from pg_class where oid = 'realtime.messages'::regclass) as partitioned`,
    );
    expect(row?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(row?.partitioned).toBe(true);
    expect(
      await db.query(
        `select has_table_privilege('authenticated', 'realtime.messages', 'insert') as insert,
                has_table_privilege('authenticated', 'realtime.messages', 'delete') as delete`,
      ),
    ).toEqual([{ insert: true, delete: false }]);
  });
});

describe("seed.sql as the CLI runs it", () => {
  test("runs as postgres with extensions on the search_path (crypt() unqualified) and is recorded", async () => {
    const { db, result } = await prepared(itemsTable, {
      seedSql: `insert into public.items values (2, crypt('secret', gen_salt('bf', 4)));
        insert into public.items values (3, current_user);`,
    });
    expect(result.seeded).toBe(true);
    const rows = await db.query<{ id: number; label: string }>("select id, label from public.items order by id");
    expect(rows[1]?.label).toMatch(/^\$2a\$04\$/);
    expect(rows[2]?.label).toBe(await migrationRole(db));
    expect(await db.query("select path, length(hash) as hash from supabase_migrations.seed_files")).toEqual([
      { path: "supabase/seed.sql", hash: 64 },
    ]);
  });

  test("a missing seed.sql is a warning, not a failure", async () => {
    const warnings: string[] = [];
    const { result } = await prepared(itemsTable, { seedSql: null, log: (line) => warnings.push(line) });
    expect(result).toMatchObject({ migrations: ["20240101000000_items.sql"], seeded: false });
    expect(warnings).toEqual([expect.stringMatching(/^WARN: no seed file found at .*seed\.sql/)]);
  });
});
