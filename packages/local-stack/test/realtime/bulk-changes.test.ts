import type { RealtimePostgresChangesPayload } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { collector, newUser, realtimeClient, subscribe } from "./helpers.js";

type Note = { id: number; owner_id: string; title: string; meta: unknown };
type Change = RealtimePostgresChangesPayload<Note>;

const stack = stackPerFile();

describe("postgres_changes from statements of many rows", () => {
  it("delivers every row of one INSERT and one UPDATE, large rows included, in order", async () => {
    const alice = await newUser(stack);
    const bob = await newUser(stack);
    const client = await realtimeClient(stack, alice.token);
    const changes = collector<Change>();
    const system = collector<Record<string, unknown>>();
    await subscribe(
      client
        .channel("bulk")
        .on("postgres_changes", { event: "*", schema: "public", table: "rt_notes" }, (p) => changes.push(p as Change))
        .on("system", {}, (p) => system.push(p)),
    );
    await system.waitFor(1);

    // 300 rows take several notifications; every 50th carries a record too large to send whole.
    const [{ first } = { first: 0 }] = await stack.stack.db.query<{ first: number }>(
      `with added as (
         insert into public.rt_notes (owner_id, title, meta)
         select case when g % 3 = 0 then $2::uuid else $1::uuid end, 'note ' || g,
                case when g % 50 = 0 then jsonb_build_object('text', repeat('x', 5000)) end
         from generate_series(1, 300) g
         returning id)
       select min(id)::int as first from added`,
      [alice.id, bob.id],
    );
    // Alice may read 200 of them (RLS): Bob owns every third.
    const inserts = await changes.waitFor(200, 15_000);
    expect(inserts.every((c) => c.eventType === "INSERT")).toBe(true);
    const titles = inserts.map((c) => (c.new as Note).title);
    const expected = Array.from({ length: 300 }, (_, i) => i + 1)
      .filter((g) => g % 3 !== 0)
      .map((g) => `note ${g}`);
    expect(titles).toEqual(expected);
    const large = inserts.find((c) => (c.new as Note).title === "note 50");
    expect(large?.new).toMatchObject({ meta: { text: "x".repeat(5000) } });
    expect(inserts[0]?.new).toMatchObject({ id: first, title: "note 1" });

    await stack.stack.db.query("update public.rt_notes set title = title || '!' where owner_id = $1", [alice.id]);
    const all = await changes.waitFor(400, 15_000);
    const updates = all.slice(200);
    expect(updates.every((c) => c.eventType === "UPDATE")).toBe(true);
    expect(new Set(updates.map((c) => (c.new as Note).title))).toEqual(new Set(expected.map((t) => `${t}!`)));
    await client.removeAllChannels();
  });
});
