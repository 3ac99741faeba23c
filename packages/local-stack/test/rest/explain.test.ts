import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;
beforeAll(() => {
  db = clientFor(running, running.serviceRoleKey);
});

/** PostgREST's in-database config for this database only (roles are shared by a server's databases). */
async function setPlan(enabled: boolean): Promise<void> {
  const [row] = await running.stack.db.query<{ name: string }>("select current_database() as name");
  await running.stack.db.exec(
    `alter role authenticator in database "${row?.name}" set pgrst.db_plan_enabled = '${enabled}';
     notify pgrst, 'reload config'`,
  );
}

describe("explain()", () => {
  it("is refused with 406 PGRST107 while db-plan-enabled is off", async () => {
    const { status, error } = await db.from("messages").select("id").explain({ analyze: true });
    expect(status).toBe(406);
    expect(error).toEqual({
      code: "PGRST107",
      message:
        'None of these media types are available: application/vnd.pgrst.plan+text; for="application/json"; options=analyze',
      details: null,
      hint: null,
    });
  });

  describe("with db-plan-enabled on", () => {
    beforeAll(() => setPlan(true));

    it("answers the plan of a read as text", async () => {
      const { data, error, status } = await db.from("messages").select("id, users(username)").eq("id", 1).explain();
      expect(error).toBeNull();
      expect(status).toBe(200);
      expect(typeof data).toBe("string");
      expect(data as unknown as string).toMatch(/Scan/);
    });

    it("answers it as JSON with the analyze and verbose options", async () => {
      const { data, error } = await db
        .from("messages")
        .select("id")
        .explain({ format: "json", analyze: true, verbose: true });
      expect(error).toBeNull();
      const [plan] = data as unknown as { Plan: { "Actual Rows"?: number; Output?: string[] } }[];
      expect(plan?.Plan["Actual Rows"]).toBeTypeOf("number");
      expect(plan?.Plan.Output).toBeDefined();
    });

    it("explains a write without keeping it, and an RPC", async () => {
      const { data, error } = await db
        .from("events")
        .insert({ name: "explained" })
        .select()
        .explain({ analyze: true, format: "json" });
      expect(error).toBeNull();
      expect(Array.isArray(data)).toBe(true);
      const { count } = await db.from("events").select("*", { count: "exact", head: true }).eq("name", "explained");
      expect(count).toBe(0);
      const rpc = await db.rpc("add_them", { a: 1, b: 2 }).explain();
      expect(rpc.error).toBeNull();
      expect(rpc.data as unknown as string).toMatch(/Result/);
    });
  });
});
