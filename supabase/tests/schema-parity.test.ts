import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Catalog, catalogOf, compareCatalogs, describeDifferences, readCatalog } from "./support/catalog.js";
import { openTestDatabase } from "./support/database.js";
import { openSchemaDatabase } from "./support/schema-database.js";

// supabase/schemas is the database's current form, to read and edit;
// supabase/migrations is its history, which `supabase db push` applies. Both
// must build the same database: every table, column, function, policy,
// privilege, index, constraint, trigger, comment, bucket and publication
// table. The migrations' database is the suite's template (platform,
// migrations and seed); the seed adds rows, never definitions.

let fromMigrations: Database;
let fromSchemas: Database;
let migrations: Catalog;
let schemas: Catalog;

beforeAll(async () => {
  [fromMigrations, fromSchemas] = await Promise.all([openTestDatabase(), openSchemaDatabase()]);
  migrations = await catalogOf(fromMigrations);
  schemas = await catalogOf(fromSchemas);
});
afterAll(async () => {
  await fromMigrations?.close();
  await fromSchemas?.close();
});

describe("the schema files", () => {
  test("build the database the migrations build", () => {
    // An empty or partial read would compare equal too: the comparison sees every kind of object.
    const keys = [...migrations.keys()];
    for (const object of [
      "relation public.card_states",
      "column public.decks.bury_interday_learning",
      "type public.leech_action",
      "function private.study_queue_for_caller(uuid,timestamp with time zone)",
      'policy "two-factor sessions only" on storage.objects',
      "index private.review_deck_counts_slot_idx",
      "constraint card_states_due_range on public.card_states",
      "trigger review_logs_update_2_count on public.review_logs",
      "trigger notes_announce_inserts on public.notes",
      "storage bucket media",
    ]) {
      expect(keys).toContain(object);
    }
    // Set by the migration role, whose name depends on the server (postgres on the platform).
    expect(
      keys
        .filter((key) => key.startsWith("default privileges "))
        .map((key) => key.replace(/^\S+ \S+ \S+/, ""))
        .sort(),
    ).toEqual([" in all schemas on f", " in private on f"]);
    expect(describeDifferences(compareCatalogs({ schemas, migrations }))).toBe("");
  });

  test("differ from the migrations, object by object, once one function or policy changes", async () => {
    class Rollback extends Error {}
    let changed: Catalog | undefined;
    await fromSchemas
      .transaction(async (tx) => {
        await tx.exec(`
          create or replace function private.trim_space(p_text text) returns text
          language sql immutable parallel safe
          set search_path = ''
          as $$ select btrim(p_text) $$;
          drop policy "owners read invites" on public.deck_invites;`);
        changed = await readCatalog(tx);
        throw new Rollback();
      })
      .catch((error) => {
        if (!(error instanceof Rollback)) throw error;
      });

    const differences = compareCatalogs({ schemas: changed ?? new Map(), migrations });
    expect(differences.map((difference) => difference.object)).toEqual([
      "function private.trim_space(text)",
      'policy "owners read invites" on public.deck_invites',
    ]);
    const report = describeDifferences(differences);
    expect(report).toContain("function private.trim_space(text): defined differently\n  definition:\n    schemas:");
    expect(report).toContain("select btrim(p_text)");
    expect(report).toContain("select regexp_replace(p_text,");
    expect(report).toContain('policy "owners read invites" on public.deck_invites: only in migrations');
    // The change was rolled back: the database from the schema files is as it was.
    expect(compareCatalogs({ schemas: await catalogOf(fromSchemas), migrations })).toEqual([]);
  });
});
