import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, type PgliteDatabase } from "../../src/database/pglite.js";

// DELETE capture (sql/platform/0010): the trigger a published table carries follows the
// mode the server starts in, so one database can be started either way.
let db: PgliteDatabase;

beforeAll(async () => {
  db = await openPglite({ withPlatform: true });
  await db.exec(`
    create table public.items (id int primary key, secret text);
    create table public.events (id int, day date, primary key (id, day));
    alter publication supabase_realtime add table public.items, public.events;`);
});
afterAll(async () => {
  await db?.close();
});

async function deleteTriggers(): Promise<string[]> {
  const rows = await db.query<{ trigger: string }>(
    `select tgrelid::regclass || ' ' || tgname as trigger from pg_trigger
      where tgname like 'engram_realtime_delete%' order by 1`,
  );
  return rows.map((row) => row.trigger);
}

const sync = (strict: boolean) => db.query("select realtime.engram_sync_delete_triggers($1)", [strict]);

describe("DELETE capture by mode", () => {
  it("keeps deleted rows in strict mode, only notifies their keys by default, and switches with the mode", async () => {
    await sync(true);
    expect(await deleteTriggers()).toEqual(["events engram_realtime_deletes", "items engram_realtime_deletes"]);

    await sync(false);
    expect(await deleteTriggers()).toEqual(["events engram_realtime_delete_keys", "items engram_realtime_delete_keys"]);

    const notices: Array<Record<string, unknown>> = [];
    const unlisten = await db.pglite.listen("engram_realtime", (payload) => notices.push(JSON.parse(payload)));
    await db.exec(`
      insert into public.items values (1, 'a'), (2, 'b');
      insert into public.events values (7, '2026-03-01');
      delete from public.items;
      delete from public.events;`);
    await unlisten();
    const deletes = notices.filter((notice) => notice.type === "DELETE");
    expect(deletes).toEqual([
      expect.objectContaining({ table: "items", rows: [{ old: { id: 1 } }, { old: { id: 2 } }] }),
      expect.objectContaining({ table: "events", rows: [{ old: { id: 7, day: "2026-03-01" } }] }),
    ]);
    // Nothing of the rows beyond their keys, and nothing kept.
    expect(JSON.stringify(deletes)).not.toContain("secret");
    const [kept] = await db.query<{ n: number }>("select count(*)::int as n from realtime.engram_deleted_rows");
    expect(kept?.n).toBe(0);

    // A table that left the publication loses its trigger.
    await db.exec("alter publication supabase_realtime drop table public.events");
    await sync(true);
    expect(await deleteTriggers()).toEqual(["items engram_realtime_deletes"]);
  });
});
