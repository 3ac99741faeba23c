import type { RealtimePostgresChangesPayload, SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { collector, newUser, rawSocket, realtimeClient, sleep, subscribe } from "./helpers.js";

type Note = {
  id: number;
  owner_id: string;
  title: string;
  priority: number;
  done: boolean;
  tags: string[];
  meta: unknown;
};
type Change = RealtimePostgresChangesPayload<Note>;

const stack = stackPerFile();
let alice: { id: string; token: string };
let bob: { id: string; token: string };
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  alice = await newUser(stack);
  bob = await newUser(stack);
});
afterAll(async () => {
  for (const client of clients) await client.removeAllChannels();
});

async function client(token?: string) {
  const c = await realtimeClient(stack, token);
  clients.push(c);
  return c;
}

/** Writes as the database owner (another client changing rows; RLS does not apply to it). */
async function insertNote(owner: string, title: string, priority = 0): Promise<number> {
  const [row] = await stack.stack.db.query<{ id: number }>(
    "insert into public.rt_notes (owner_id, title, priority, tags, meta) values ($1, $2, $3, '{a,b}', '{\"k\": [1, 2]}') returning id",
    [owner, title, priority],
  );
  return Number(row?.id);
}

describe("postgres_changes", () => {
  it("delivers INSERT, UPDATE and DELETE of rows RLS lets the subscriber see, with Supabase's payload", async () => {
    const aliceClient = await client(alice.token);
    const changes = collector<Change>();
    const system = collector<Record<string, unknown>>();
    await subscribe(
      aliceClient
        .channel("notes-all")
        .on("postgres_changes", { event: "*", schema: "public", table: "rt_notes" }, (p) => changes.push(p as Change))
        .on("system", {}, (p) => system.push(p)),
    );
    expect(await system.waitFor(1)).toEqual([
      expect.objectContaining({ extension: "postgres_changes", status: "ok", message: "Subscribed to PostgreSQL" }),
    ]);

    // Like Supabase, visibility is checked against the table when the change is delivered,
    // so each write waits for the previous delivery (a row deleted by then is not visible).
    await insertNote(bob.id, "bob's secret");
    const id = await insertNote(alice.id, "mine", 3);
    await changes.waitFor(1);
    await stack.stack.db.query("update public.rt_notes set title = 'renamed', done = true where id = $1", [id]);
    await stack.stack.db.query("update public.rt_notes set title = 'bob renamed' where owner_id = $1", [bob.id]);
    await changes.waitFor(2);
    await stack.stack.db.query("delete from public.rt_notes where id = $1", [id]);
    await changes.waitFor(3);
    await sleep(200);
    const [insert, update, remove] = changes.items;
    expect(changes.items).toHaveLength(3);
    expect(insert).toMatchObject({
      schema: "public",
      table: "rt_notes",
      eventType: "INSERT",
      errors: null,
      new: { id, owner_id: alice.id, title: "mine", priority: 3, done: false, tags: ["a", "b"], meta: { k: [1, 2] } },
      old: {},
    });
    expect(insert?.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(update).toMatchObject({ eventType: "UPDATE", new: { id, title: "renamed", done: true }, old: {} });
    expect(remove).toMatchObject({ eventType: "DELETE", new: {}, old: { id } });
    expect(Object.keys((remove as { old: object }).old)).toEqual(["id"]);
  });

  it("routes by binding: event filters and column filters eq/neq/lt/lte/gt/gte/in", async () => {
    const aliceClient = await client(alice.token);
    const seen: Record<string, Change[]> = {};
    const all = collector<string>();
    const filters = {
      eq: "priority=eq.5",
      neq: "priority=neq.5",
      lt: "priority=lt.5",
      lte: "priority=lte.5",
      gt: "priority=gt.5",
      gte: "priority=gte.5",
      in: 'title=in.(one,"two")',
    };
    let channel = aliceClient.channel("filters");
    for (const [name, filter] of Object.entries(filters)) {
      seen[name] = [];
      channel = channel.on(
        "postgres_changes",
        { event: "INSERT", schema: "public", table: "rt_notes", filter },
        (p) => {
          seen[name]?.push(p as Change);
          all.push(name);
        },
      );
    }
    seen.updates = [];
    channel = channel.on("postgres_changes", { event: "UPDATE", schema: "public", table: "rt_notes" }, (p) => {
      seen.updates?.push(p as Change);
      all.push("updates");
    });
    await subscribe(channel);
    await sleep(100);
    await insertNote(alice.id, "one", 4);
    await insertNote(alice.id, "two", 5);
    await insertNote(alice.id, "three", 6);
    await insertNote(bob.id, "one", 5);
    const titles = (name: string) => (seen[name] ?? []).map((c) => (c.new as Note).title);
    await all.waitFor(11);
    await sleep(200);
    expect(titles("eq")).toEqual(["two"]);
    expect(titles("neq")).toEqual(["one", "three"]);
    expect(titles("lt")).toEqual(["one"]);
    expect(titles("lte")).toEqual(["one", "two"]);
    expect(titles("gt")).toEqual(["three"]);
    expect(titles("gte")).toEqual(["two", "three"]);
    expect(titles("in")).toEqual(["one", "two"]);
    expect(seen.updates).toEqual([]);
  });

  it("filters DELETE on the old primary key and sends the key to every subscriber, as hosted Realtime", async () => {
    const aliceClient = await client(alice.token);
    const bobClient = await client(bob.token);
    const aliceDeletes = collector<Change>();
    const bobChanges = collector<Change>();
    const id = await insertNote(alice.id, "to delete");
    const other = await insertNote(alice.id, "other");
    const deletesOf = (name: string, c: SupabaseClient, into: ReturnType<typeof collector<Change>>) =>
      c
        .channel(name)
        .on("postgres_changes", { event: "DELETE", schema: "public", table: "rt_notes", filter: `id=eq.${id}` }, (p) =>
          into.push(p as Change),
        );
    await subscribe(deletesOf("deletes-alice", aliceClient, aliceDeletes));
    await subscribe(
      deletesOf("deletes-bob", bobClient, bobChanges).on(
        "postgres_changes",
        { event: "INSERT", schema: "public", table: "rt_notes" },
        (p) => bobChanges.push(p as Change),
      ),
    );
    await stack.stack.db.query("delete from public.rt_notes where id = any($1)", [[id, other]]);
    await aliceDeletes.waitFor(1);
    // Bob's own insert comes after the delete on his socket: anything else of the delete would come before it.
    const bobs = await insertNote(bob.id, "after the delete");
    await bobChanges.waitFor(2);
    expect(aliceDeletes.items).toHaveLength(1);
    expect(aliceDeletes.items[0]).toMatchObject({ eventType: "DELETE", old: { id } });
    // RLS cannot be applied to a row that is gone: Bob, who could not read Alice's note, gets its key too.
    expect(bobChanges.items).toHaveLength(2);
    expect(bobChanges.items[0]).toMatchObject({ eventType: "DELETE", old: { id } });
    expect(Object.keys(bobChanges.items[0]?.old ?? {})).toEqual(["id"]);
    expect(bobChanges.items[1]).toMatchObject({ eventType: "INSERT", new: { id: bobs } });
  });

  it("uses the token from setAuth, and anon sees nothing under RLS", async () => {
    const anon = await client();
    const anonChanges = collector<Change>();
    await subscribe(
      anon
        .channel("anon-notes")
        .on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_notes" }, (p) =>
          anonChanges.push(p as Change),
        ),
    );
    const later = await client();
    const laterChanges = collector<Change>();
    await subscribe(
      later
        .channel("later-notes")
        .on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_notes" }, (p) =>
          laterChanges.push(p as Change),
        ),
    );
    await later.realtime.setAuth(bob.token);
    await sleep(200);
    await insertNote(bob.id, "for bob");
    expect((await laterChanges.waitFor(1))[0]).toMatchObject({ new: { title: "for bob" } });
    await sleep(200);
    expect(anonChanges.items).toEqual([]);
  });

  it("reports unpublished tables and bad filters as system errors without breaking the socket", async () => {
    const c = await client(alice.token);
    const system = collector<Record<string, unknown>>();
    await subscribe(
      c
        .channel("bad-bindings")
        .on("postgres_changes", { event: "*", schema: "public", table: "rt_hidden" }, () => {})
        .on("system", {}, (p) => system.push(p)),
    );
    expect((await system.waitFor(1))[0]).toMatchObject({ extension: "postgres_changes", status: "error" });
    const socket = await rawSocket(stack, stack.anonKey);
    socket.send([
      "1",
      "1",
      "realtime:bad-filter",
      "phx_join",
      {
        config: { postgres_changes: [{ event: "*", schema: "public", table: "rt_notes", filter: "priority=foo.5" }] },
      },
    ]);
    expect((await socket.next({ ref: "1" }))[4]).toMatchObject({ status: "ok" });
    expect((await socket.next({ event: "system" }))[4]).toMatchObject({
      status: "error",
      message: expect.stringMatching(/filter/),
    });
    socket.send([
      "2",
      "2",
      "realtime:bad-col",
      "phx_join",
      {
        config: { postgres_changes: [{ event: "*", schema: "public", table: "rt_notes", filter: "nope=eq.5" }] },
      },
    ]);
    await socket.next({ ref: "2" });
    expect((await socket.next({ event: "system", topic: "realtime:bad-col" }))[4]).toMatchObject({ status: "error" });
    socket.send(["3", "3", "realtime:bad-binding", "phx_join", { config: { postgres_changes: ["nope"] } }]);
    expect((await socket.next({ ref: "3" }))[4]).toMatchObject({ status: "error" });
    socket.send([null, "4", "phoenix", "heartbeat", {}]);
    expect((await socket.next({ ref: "4" }))[4]).toEqual({ status: "ok", response: {} });
    socket.close();
  });

  it("picks up tables added to the publication after start", async () => {
    await stack.stack.db.exec(`
      create table public.rt_late (id int primary key, body text);
      grant select on public.rt_late to anon, authenticated;
      alter publication supabase_realtime add table public.rt_late;`);
    const c = await client();
    const changes = collector<Change>();
    await subscribe(
      c
        .channel("late")
        .on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_late" }, (p) =>
          changes.push(p as Change),
        ),
    );
    await sleep(200);
    await stack.stack.db.query("insert into public.rt_late values (1, 'hi')");
    expect((await changes.waitFor(1))[0]).toMatchObject({ eventType: "INSERT", new: { id: 1, body: "hi" } });
  });
});
