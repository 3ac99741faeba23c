import { type Database, migrationRole } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openTestDatabase } from "./support/database.js";
import { openFreshDatabase } from "./support/fresh-database.js";

// The suite's databases are built as a new hosted project builds them: nothing
// a migration creates in public is granted to the API roles unless the
// migration grants it. These pin what each role may do with each table (the
// RLS matrix then checks which rows), and that older projects, which grant new
// tables to everyone by default, end with exactly the same privileges.

const apiRoles = ["anon", "authenticated", "service_role"] as const;

/** Table privileges of the API roles on every table in public, e.g. `decks: { anon: "SELECT" }`. */
async function tablePrivileges(db: Database): Promise<Record<string, Record<string, string>>> {
  const rows = await db.query<{ relname: string; grantee: string; privileges: string }>(
    `select c.relname, g.grantee::regrole::text as grantee,
            string_agg(g.privilege_type, ',' order by g.privilege_type) as privileges
     from pg_class c cross join lateral aclexplode(c.relacl) g
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S')
       and g.grantee::regrole::text = any($1)
     group by 1, 2`,
    [apiRoles],
  );
  const tables = await db.query<{ relname: string }>(
    "select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'v', 'm', 'S')",
  );
  const result: Record<string, Record<string, string>> = {};
  for (const { relname } of tables) result[relname] = {};
  for (const row of rows) {
    const table = result[row.relname] ?? {};
    table[row.grantee] = row.privileges;
    result[row.relname] = table;
  }
  return result;
}

/** Every grant to the API roles: tables, columns and functions of public and private. */
async function allPrivileges(db: Database): Promise<string[]> {
  const rows = await db.query<{ line: string }>(
    `select format('%s %s %s', c.oid::regclass, g.grantee::regrole, g.privilege_type) as line
       from pg_class c cross join lateral aclexplode(c.relacl) g
       where c.relnamespace in ('public'::regnamespace, 'private'::regnamespace) and g.grantee::regrole::text = any($1)
     union all
     select format('%s.%s %s %s', c.oid::regclass, a.attname, g.grantee::regrole, g.privilege_type)
       from pg_class c join pg_attribute a on a.attrelid = c.oid cross join lateral aclexplode(a.attacl) g
       where c.relnamespace in ('public'::regnamespace, 'private'::regnamespace) and g.grantee::regrole::text = any($1)
     union all
     select format('%s %s %s', p.oid::regprocedure, case when g.grantee = 0 then 'PUBLIC' else g.grantee::regrole::text end, g.privilege_type)
       from pg_proc p cross join lateral aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) g
       where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
         and (g.grantee = 0 or g.grantee::regrole::text = any($1))
     order by 1`,
    [apiRoles],
  );
  return rows.map((row) => row.line);
}

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

describe("what each API role may do with each table", () => {
  test("is granted explicitly, table by table: select for what anyone may read, writes only where a policy allows them", async () => {
    const all = "DELETE,INSERT,SELECT,UPDATE";
    expect(await tablePrivileges(db)).toEqual({
      profiles: { anon: "SELECT", authenticated: "SELECT", service_role: all },
      // Reads of decks are granted column by column (below).
      decks: { authenticated: "DELETE", service_role: all },
      deck_members: { anon: "SELECT", authenticated: "DELETE,SELECT", service_role: all },
      deck_invites: { authenticated: "DELETE,SELECT", service_role: all },
      notes: { anon: "SELECT", authenticated: "DELETE,SELECT", service_role: all },
      note_types: { anon: "SELECT", authenticated: "DELETE,SELECT", service_role: all },
      cards: { anon: "SELECT", authenticated: "SELECT", service_role: all },
      card_states: { authenticated: "SELECT", service_role: all },
      review_logs: { authenticated: "SELECT", service_role: all },
      // Written only through extend_study_day.
      study_day_extras: { authenticated: "SELECT", service_role: all },
      import_jobs: { authenticated: "SELECT", service_role: all },
      deck_presets: { authenticated: "DELETE,SELECT", service_role: all },
      personal_notes: { authenticated: "DELETE,SELECT", service_role: all },
      // Written only through suggest_note_change, withdraw_suggestion and review_suggestions.
      note_suggestions: { authenticated: "SELECT", service_role: all },
      // Written only by the notes' triggers.
      note_history: { anon: "SELECT", authenticated: "SELECT", service_role: "SELECT" },
    });
  });

  test("updates (and deck and note inserts) are granted column by column, leaving owners, authors, decks and origins of rows fixed, and deck reads leave out where a copy came from", async () => {
    const rows = await db.query<{ line: string }>(
      `select format('%s %s %s: %s', c.relname, g.grantee::regrole, g.privilege_type, string_agg(a.attname, ',' order by a.attnum)) as line
       from pg_class c join pg_attribute a on a.attrelid = c.oid cross join lateral aclexplode(a.attacl) g
       where c.relnamespace = 'public'::regnamespace group by c.relname, g.grantee, g.privilege_type order by 1`,
    );
    expect(rows.map((row) => row.line)).toEqual([
      "deck_invites authenticated UPDATE: revoked_at",
      "deck_members authenticated UPDATE: role",
      "deck_presets authenticated INSERT: id,owner_id,name,new_per_day,reviews_per_day,leech_threshold,leech_action,bury_new,bury_reviews,bury_interday_learning",
      "deck_presets authenticated UPDATE: name,new_per_day,reviews_per_day,leech_threshold,leech_action,bury_new,bury_reviews,bury_interday_learning",
      "decks anon SELECT: id,owner_id,name,description,is_public,cover_path,new_per_day,reviews_per_day,archived_at,created_at,updated_at,clone_count,leech_threshold,leech_action,bury_new,bury_reviews,bury_interday_learning,parent_id,preset_id,suggestions_from",
      "decks authenticated INSERT: id,owner_id,name,description,is_public,cover_path,new_per_day,reviews_per_day,archived_at,created_at,updated_at,leech_threshold,leech_action,bury_new,bury_reviews,bury_interday_learning,parent_id,suggestions_from",
      "decks authenticated SELECT: id,owner_id,name,description,is_public,cover_path,new_per_day,reviews_per_day,archived_at,created_at,updated_at,clone_count,leech_threshold,leech_action,bury_new,bury_reviews,bury_interday_learning,parent_id,preset_id,suggestions_from",
      "decks authenticated UPDATE: name,description,is_public,cover_path,new_per_day,reviews_per_day,archived_at,leech_threshold,leech_action,bury_new,bury_reviews,bury_interday_learning,parent_id,suggestions_from",
      "note_types authenticated INSERT: id,deck_id,name,kind,fields,templates,css",
      "notes authenticated INSERT: id,deck_id,kind,fields,tags,created_by,search,created_at,updated_at,note_type_id",
      "notes authenticated UPDATE: kind,fields,tags,version,note_type_id",
      "personal_notes authenticated INSERT: user_id,note_id,tags,text",
      "personal_notes authenticated UPDATE: tags,text",
      "profiles authenticated UPDATE: display_name,avatar_path,timezone,day_starts_at,desired_retention,fsrs_params,new_per_day,reviews_per_day",
    ]);
  });

  test("an API role without a grant is refused before any policy is asked", async () => {
    const refused = await db
      .transaction(async (tx) => {
        await tx.query("select set_config('role', 'anon', true)");
        return tx.query("select card_id from public.card_states limit 1");
      })
      .catch((error: { code?: string; message: string }) => error);
    expect(refused).toMatchObject({ code: "42501", message: "permission denied for table card_states" });
  });
});

describe("the suite's databases", () => {
  test("grant nothing new in public to the API roles by default, as a new hosted project", async () => {
    const defaults = await db.query<{ acl: string }>(
      "select defaclacl::text as acl from pg_default_acl where defaclnamespace = 'public'::regnamespace",
    );
    for (const { acl } of defaults) expect(acl).not.toMatch(/\b(anon|authenticated|service_role)=/);
    const [unexposed] = await db.transaction(async (tx) => {
      // Created as migrations create tables: as postgres.
      await tx.exec(`set local role ${await migrationRole(tx)}; create table public.ungranted (id int)`);
      const rows = await tx.query<{ anon: boolean; service_role: boolean }>(
        `select has_table_privilege('anon', 'public.ungranted', 'select') as anon,
                has_table_privilege('service_role', 'public.ungranted', 'select') as service_role`,
      );
      await tx.exec("drop table public.ungranted");
      return rows;
    });
    expect(unexposed).toEqual({ anon: false, service_role: false });
  });
});

describe("a project that grants new tables by default", () => {
  test("ends with exactly the privileges of one that does not", async () => {
    const exposed = await openFreshDatabase({ exposeNewTables: true, seed: false });
    try {
      expect(await allPrivileges(exposed)).toEqual(await allPrivileges(db));
    } finally {
      await exposed.close();
    }
  }, 180_000);
});
