/**
 * Projects as a current Supabase CLI writes them start unmodified
 * (test/fixtures/cli-projects/README.md says what each tries).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { startStack } from "../src/server.js";
import { clientFor, startTestStack } from "./support/stack.js";

const project = (name: string) => fileURLToPath(new URL(`./fixtures/cli-projects/${name}/supabase/`, import.meta.url));

describe("a project of the current CLI", () => {
  test("with its new config keys starts, names what it does not serve, and honours auto_expose_new_tables", async () => {
    const lines: string[] = [];
    const running = await startTestStack({ supabaseDir: project("current-config"), log: (line) => lines.push(line) });
    try {
      expect(lines).toEqual(
        expect.arrayContaining([
          "config.toml: auth.passkey is accepted but not served locally",
          "config.toml: auth.webauthn is accepted but not served locally",
        ]),
      );
      expect(lines.filter((line) => line.includes("not served locally"))).toHaveLength(2);
      const anon = clientFor(running);
      expect((await anon.from("shared_notes").select("body")).data).toEqual([{ body: "visible" }]);
      // Not granted by the migration, so not reachable, as on a new hosted project.
      expect((await anon.from("private_notes").select("body")).error?.code).toBe("42501");
      // Migrations may set PostgREST's in-database settings on this engine too.
      const [row] = await running.stack.db.query<{ allowed: boolean }>(
        "select has_parameter_privilege(_local_stack.migration_role(), 'pgrst.db_aggregates_enabled', 'SET') as allowed",
      );
      expect(row?.allowed).toBe(true);
    } finally {
      await running.close();
    }
  });

  test("without a migrations folder starts with no migrations", async () => {
    const running = await startTestStack({ supabaseDir: project("no-migrations") });
    try {
      const rows = await running.stack.db.query("select version from supabase_migrations.schema_migrations");
      expect(rows).toEqual([]);
      const health = await fetch(`${running.url}/auth/v1/health`, { headers: { apikey: running.anonKey } });
      expect(health.status).toBe(200);
    } finally {
      await running.close();
    }
  });

  // Role settings are shared by every database of a server, so this project, which sets them
  // for all databases as Supabase's docs do, runs on its own embedded database.
  test("whose migration turns on PostgREST's aggregates and plans as postgres gets both", async () => {
    const running = await startStack({ supabaseDir: project("postgrest-settings"), dataDir: null, port: 0 });
    try {
      const anon = clientFor(running);
      const total = await anon.from("payments").select("amount.sum()");
      expect(total.error).toBeNull();
      expect(total.data).toEqual([{ sum: 42 }]);
      const plan = await anon.from("payments").select("amount").explain({ format: "json" });
      expect(plan.error).toBeNull();
      expect(JSON.stringify(plan.data)).toContain("Seq Scan");
    } finally {
      await running.close();
    }
  });
});

describe("config.toml as the CLI checks it", () => {
  test("passkeys need the WebAuthn relying party", async () => {
    const { readConfig } = await import("../src/config/config.js");
    expect(() => readConfig("[auth.passkey]\nenabled = true\n", {})).toThrow(
      "config.toml: auth.webauthn is required when auth.passkey.enabled is true",
    );
    expect(() => readConfig('[auth.passkey]\nenabled = true\n[auth.webauthn]\nrp_display_name = "x"\n', {})).toThrow(
      "auth.webauthn.rp_id is required",
    );
  });
});
