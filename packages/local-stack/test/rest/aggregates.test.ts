import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;

const alice = "00000000-0000-0000-0000-000000000001";
const bob = "00000000-0000-0000-0000-000000000002";

/**
 * Sets PostgREST's in-database config as a Supabase project does, and tells it
 * to reload; for this database only, as roles are shared by every database of a server.
 */
async function setAggregates(enabled: boolean): Promise<void> {
  const [row] = await running.stack.db.query<{ name: string }>("select current_database() as name");
  await running.stack.db.exec(
    `alter role authenticator in database "${row?.name}" set pgrst.db_aggregates_enabled = '${enabled}';
     notify pgrst, 'reload config'`,
  );
}

beforeAll(async () => {
  db = clientFor(running, running.serviceRoleKey);
  await running.stack.db.query(
    `insert into public.payments (user_id, category, amount, paid_on) values
      ($1, 'food', 10.50, '2024-01-01'), ($1, 'food', 4.50, '2024-01-02'),
      ($1, 'rent', 500, '2024-01-03'), ($2, 'food', 7.25, '2024-01-04')`,
    [alice, bob],
  );
});

describe("aggregates", () => {
  it("are refused with 400 PGRST123 while db-aggregates-enabled is off, the legacy count still works", async () => {
    const { status, error } = await db.from("payments").select("amount.sum()");
    expect(status).toBe(400);
    expect(error).toEqual({
      code: "PGRST123",
      message: "Use of aggregate functions is not allowed",
      details: null,
      hint: null,
    });
    const inEmbed = await db.from("users").select("username, payments(count())");
    expect(inEmbed.error?.code).toBe("PGRST123");
    const legacy = await db.from("payments").select("category, count").order("category");
    expect(legacy.error).toBeNull();
    expect(legacy.data).toEqual([
      { category: "food", count: 3 },
      { category: "rent", count: 1 },
    ]);
  });

  describe("with db-aggregates-enabled on", () => {
    beforeAll(() => setAggregates(true));

    it("sums, averages, counts and takes extremes over the filtered rows", async () => {
      const { data, error } = await db
        .from("payments")
        .select("amount.sum(), amount.avg(), amount.max(), paid_on.min(), count(), user_id.count()")
        .eq("category", "food");
      expect(error).toBeNull();
      expect(data).toEqual([{ sum: 22.25, avg: 7.416666666666667, max: 10.5, min: "2024-01-01", count: 3 }]);
    });

    it("groups by the other selected columns, with aliases, casts and order", async () => {
      const { data, error } = await db
        .from("payments")
        .select("category, total:amount.sum()::int, payments:count(), cents:amount::int.max()")
        .order("category", { ascending: false });
      expect(error).toBeNull();
      expect(data).toEqual([
        { category: "rent", total: 500, payments: 1, cents: 500 },
        { category: "food", total: 22, payments: 3, cents: 11 },
      ]);
    });

    it("aggregates inside an embed per parent row", async () => {
      const { data, error } = await db
        .from("users")
        .select("username, payments(amount.sum(), count())")
        .order("username");
      expect(error).toBeNull();
      expect(data).toEqual([
        { username: "alice", payments: [{ sum: 515, count: 3 }] },
        { username: "bob", payments: [{ sum: 7.25, count: 1 }] },
        { username: "carol", payments: [{ sum: null, count: 0 }] },
      ]);
    });

    it("groups by a to-one embed next to an aggregate", async () => {
      const { data, error } = await db
        .from("payments")
        .select("user_id, amount.sum(), users(username)")
        .order("user_id");
      expect(error).toBeNull();
      expect(data).toEqual([
        { user_id: alice, sum: 515, users: { username: "alice" } },
        { user_id: bob, sum: 7.25, users: { username: "bob" } },
      ]);
    });

    it("goes back to PGRST123 once the setting is turned off again", async () => {
      await setAggregates(false);
      await expect.poll(async () => (await db.from("payments").select("amount.sum()")).error?.code).toBe("PGRST123");
    });
  });
});
