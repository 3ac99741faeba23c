import type { RealtimeChannel, RealtimePostgresChangesPayload, SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { collector, newUser, realtimeClient, subscribe } from "./helpers.js";

type Note = { id: number; owner_id: string; title: string; priority: number; done: boolean; meta: unknown };
type Change = RealtimePostgresChangesPayload<Note>;

const stack = stackPerFile();
let alice: { id: string; token: string };
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  alice = await newUser(stack);
});
afterAll(async () => {
  for (const client of clients) await client.removeAllChannels();
});

async function aliceClient() {
  const client = await realtimeClient(stack, alice.token);
  clients.push(client);
  return client;
}

async function insert(title: string, priority: number, done: boolean, meta: unknown) {
  await stack.stack.db.query(
    "insert into public.rt_notes (owner_id, title, priority, done, meta) values ($1, $2, $3, $4, $5)",
    [alice.id, title, priority, done, meta === null ? null : JSON.stringify(meta)],
  );
}

/** Resolves with the channel's first `system` message (subscribing must not wait for it). */
function firstSystem(channel: RealtimeChannel): Promise<Record<string, unknown>> {
  return new Promise((resolve) => channel.on("system", {}, (payload) => resolve(payload)));
}

describe("postgres_changes filters", () => {
  it("supports every operator Realtime accepts, negated with not., combined with commas as AND", async () => {
    const filters: Record<string, string> = {
      like: "title=like.ap%",
      ilike: "title=ilike.ap%",
      match: "title=match.^a.r",
      imatch: "title=imatch.^APP",
      isNull: "meta=is.null",
      notIsNull: "meta=not.is.null",
      isTrue: "done=is.true",
      isDistinct: "priority=isdistinct.1",
      notEq: "priority=not.eq.1",
      notIn: "title=not.in.(apple,banana)",
      range: "priority=gt.1,priority=lt.5",
      likeAndFalse: "title=like.a%,done=is.false",
      quoted: 'title=eq."a,b"',
      quotedIn: 'title=in.("a,b",zzz)',
    };
    const seen: Record<string, string[]> = {};
    const end = collector<string>();
    const c = await aliceClient();
    let channel = c.channel("all-operators");
    for (const [name, filter] of Object.entries(filters)) {
      seen[name] = [];
      channel = channel.on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_notes", filter }, (p) =>
        seen[name]?.push((p as Change & { new: Note }).new.title),
      );
    }
    channel = channel.on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_notes" }, (p) =>
      end.push((p as Change & { new: Note }).new.title),
    );
    const system = firstSystem(channel);
    await subscribe(channel);
    expect(await system).toMatchObject({ status: "ok", message: "Subscribed to PostgreSQL" });
    await insert("apple", 1, false, null);
    await insert("Apple", 3, true, {});
    await insert("apricot", 5, false, {});
    await insert("banana", 2, true, null);
    await insert("a,b", 4, false, null);
    await insert("end", 0, false, {});
    // One socket delivers in commit order: once the last insert is in, every earlier one has come or never will.
    expect(await end.waitFor(6)).toEqual(["apple", "Apple", "apricot", "banana", "a,b", "end"]);
    expect(seen).toEqual({
      like: ["apple", "apricot"],
      ilike: ["apple", "Apple", "apricot"],
      match: ["apricot"],
      imatch: ["apple", "Apple"],
      isNull: ["apple", "banana", "a,b"],
      notIsNull: ["Apple", "apricot", "end"],
      isTrue: ["Apple", "banana"],
      isDistinct: ["Apple", "apricot", "banana", "a,b", "end"],
      notEq: ["Apple", "apricot", "banana", "a,b", "end"],
      notIn: ["Apple", "apricot", "a,b", "end"],
      range: ["Apple", "banana", "a,b"],
      likeAndFalse: ["apple", "apricot", "a,b"],
      quoted: ["a,b"],
      quotedIn: ["a,b"],
    });
  });

  it("filters DELETE on the old key with combined conditions", async () => {
    const rows = await stack.stack.db.query<{ id: number }>(
      "insert into public.rt_notes (owner_id, title) select $1, 'd' || n from generate_series(1, 3) n returning id",
      [alice.id],
    );
    const [first, middle, last] = rows.map((row) => Number(row.id)) as [number, number, number];
    const deleted = collector<number>();
    const c = await aliceClient();
    await subscribe(
      c
        .channel("delete-range")
        .on(
          "postgres_changes",
          { event: "DELETE", schema: "public", table: "rt_notes", filter: `id=gt.${first},id=not.eq.${last}` },
          (p) => deleted.push(Number((p as Change & { old: Note }).old.id)),
        ),
    );
    await stack.stack.db.query("delete from public.rt_notes where id = any($1)", [[first, middle, last]]);
    await stack.stack.db.query("delete from public.rt_notes where id = $1", [middle]);
    await insert("after", 9, false, null);
    await stack.stack.db.query("delete from public.rt_notes where title = 'after' and owner_id = $1", [alice.id]);
    await deleted.waitFor(2);
    expect(deleted.items[0]).toBe(middle);
    expect(deleted.items).toHaveLength(2);
  });

  it("answers an unknown operator with Realtime's error: a system message, or the join error with wait", async () => {
    const c = await aliceClient();
    const channel = c
      .channel("unknown-op")
      .on("postgres_changes", { event: "*", schema: "public", table: "rt_notes", filter: "priority=foo.5" }, () => {});
    const system = firstSystem(channel);
    await subscribe(channel);
    expect(await system).toEqual({
      extension: "postgres_changes",
      status: "error",
      message: 'Error parsing `filter` params: ["foo", "5"]',
      channel: "unknown-op",
    });
    const waiting = c
      .channel("unknown-op-wait", { config: { postgres_changes_options: { wait: true } } })
      .on("postgres_changes", { event: "*", schema: "public", table: "rt_notes", filter: "priority=foo.5" }, () => {});
    await expect(subscribe(waiting)).rejects.toThrow(
      'RealtimeDisabledForConfiguration: Error parsing `filter` params: ["foo", "5"]',
    );
    const badValue = c
      .channel("bad-value-wait", { config: { postgres_changes_options: { wait: true } } })
      .on(
        "postgres_changes",
        { event: "*", schema: "public", table: "rt_notes", filter: "priority=eq.high" },
        () => {},
      );
    await expect(subscribe(badValue)).rejects.toThrow(/^RealtimeDisabledForConfiguration: Unable to subscribe/);
    const unpublished = c
      .channel("unpublished-wait", { config: { postgres_changes_options: { wait: true } } })
      .on("postgres_changes", { event: "*", schema: "public", table: "rt_hidden" }, () => {});
    await expect(subscribe(unpublished)).rejects.toThrow(
      /^RealtimeDisabledForConfiguration: Unable to subscribe to changes with given parameters\. Please check Realtime is enabled/,
    );
  });

  it("with wait, answers the join once subscribed and still sends the system message", async () => {
    const c = await aliceClient();
    const changes = collector<string>();
    const channel = c
      .channel("waited", { config: { postgres_changes_options: { wait: true } } })
      .on(
        "postgres_changes",
        { event: "INSERT", schema: "public", table: "rt_notes", filter: "title=eq.waited" },
        (p) => changes.push((p as Change & { new: Note }).new.title),
      );
    const system = firstSystem(channel);
    await subscribe(channel);
    expect(await system).toMatchObject({ extension: "postgres_changes", status: "ok" });
    await insert("waited", 1, false, null);
    expect(await changes.waitFor(1)).toEqual(["waited"]);
  });
});

describe("postgres_changes column selection", () => {
  it("sends only the selected columns", async () => {
    const c = await aliceClient();
    const changes = collector<Change>();
    await subscribe(
      c
        .channel("selected")
        .on(
          "postgres_changes",
          { event: "INSERT", schema: "public", table: "rt_notes", filter: "title=eq.picked", select: ["id", "title"] },
          (p) => changes.push(p as Change),
        ),
    );
    await insert("picked", 7, true, { big: "x" });
    const [change] = await changes.waitFor(1);
    expect(Object.keys(change?.new ?? {}).sort()).toEqual(["id", "title"]);
    expect(change?.new).toMatchObject({ title: "picked" });
  });

  it("always includes the primary key, selected or not", async () => {
    const c = await aliceClient();
    const changes = collector<Change>();
    await subscribe(
      c
        .channel("selected-without-key")
        .on(
          "postgres_changes",
          { event: "INSERT", schema: "public", table: "rt_notes", filter: "title=eq.keyed", select: ["title"] },
          (p) => changes.push(p as Change),
        ),
    );
    await insert("keyed", 8, true, null);
    const [change] = await changes.waitFor(1);
    expect(Object.keys(change?.new ?? {}).sort()).toEqual(["id", "title"]);
  });

  it("refuses a selection on a wildcard table or of a column the table lacks", async () => {
    const c = await aliceClient();
    const wildcard = c
      .channel("select-wildcard")
      .on("postgres_changes", { event: "*", schema: "public", select: ["id"] }, () => {});
    const system = firstSystem(wildcard);
    await subscribe(wildcard);
    expect(await system).toMatchObject({
      status: "error",
      message:
        "Column selection is not supported for wildcard subscriptions. Provide an explicit schema and table name.",
    });
    const missing = c
      .channel("select-missing")
      .on("postgres_changes", { event: "*", schema: "public", table: "rt_notes", select: ["nope"] }, () => {});
    const missingSystem = firstSystem(missing);
    await subscribe(missing);
    expect(await missingSystem).toMatchObject({ status: "error", message: expect.stringMatching(/nope/) });
  });
});

describe("replication ready", () => {
  it("sends a system message when asked for with broadcast.replication_ready", async () => {
    const c = await aliceClient();
    const system = collector<Record<string, unknown>>();
    await subscribe(
      c
        .channel("ready", { config: { broadcast: { replication_ready: true } } })
        .on("system", {}, (payload) => system.push(payload)),
    );
    expect(await system.waitFor(1)).toEqual([
      { extension: "system", status: "ok", message: "Replication connection established", channel: "ready" },
    ]);
  });
});
