import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { addMarker, createDeck, createDecksFixture } from "./decks-fixture.js";
import { collector, newUser, rawSocket, realtimeClients, subscribe, watchDeletes } from "./helpers.js";

// The default mode: what hosted Realtime lets through, where strict mode would not
// (delete-visibility.test.ts, revocation.test.ts).
const stack = stackPerFile();

type User = { id: string; token: string };

const realtime = realtimeClients(stack);
const client = realtime.client;
let owner: User;
let member: User;
let stranger: User;

beforeAll(async () => {
  await createDecksFixture(stack);
  owner = await newUser(stack);
  member = await newUser(stack);
  stranger = await newUser(stack);
});
afterAll(() => realtime.closeAll());

const watch = async (name: string, table: string, token?: string) => watchDeletes(await client(token), name, table);

const removeMember = async (deck: string, user: string) => {
  const ownerClient = clientFor(stack, stack.anonKey, { accessToken: async () => owner.token });
  const { error } = await ownerClient.from("rt_deck_members").delete().eq("deck_id", deck).eq("user_id", user);
  expect(error).toBeNull();
};

describe("realtime as hosted Supabase", () => {
  it("sends a DELETE's primary key to every subscriber of the table, even one who could not read the row", async () => {
    const deck = await createDeck(stack, owner.id, [member.id]);
    const watchers = [
      await watch("del-member", "rt_deck_members", member.token),
      await watch("del-stranger", "rt_deck_members", stranger.token),
      await watch("del-anon", "rt_deck_members"),
    ];
    await removeMember(deck, member.id);
    await addMarker(stack, "removed");
    for (const { deletes, markers } of watchers) {
      await markers.waitFor(1);
      expect(deletes.items).toHaveLength(1);
      expect(deletes.items[0]).toMatchObject({ eventType: "DELETE", old: { deck_id: deck, user_id: member.id } });
      expect(Object.keys(deletes.items[0]?.old ?? {}).sort()).toEqual(["deck_id", "user_id"]);
    }
  });

  it("subscribes a role to a table it may not select, and sends it each change as Error 401 without the row", async () => {
    const deck = await createDeck(stack, owner.id, []);
    const socket = await rawSocket(stack);
    const topic = "realtime:anon-states";
    const binding = { event: "*", schema: "public", table: "rt_card_states" };
    socket.send(["1", "1", topic, "phx_join", { config: { postgres_changes: [binding] } }]);
    expect((await socket.next({ ref: "1" }))[4]).toMatchObject({ status: "ok" });
    expect((await socket.next({ event: "system", topic }))[4]).toMatchObject({
      extension: "postgres_changes",
      status: "ok",
      message: "Subscribed to PostgreSQL",
    });

    await stack.stack.db.query("insert into public.rt_card_states (card_id, user_id, deck_id) values (7, $1, $2)", [
      owner.id,
      deck,
    ]);
    const inserted = (await socket.next({ event: "postgres_changes", topic }))[4];
    expect(inserted.data).toEqual({
      schema: "public",
      table: "rt_card_states",
      commit_timestamp: null,
      type: "INSERT",
      columns: [],
      errors: ["Error 401: Unauthorized"],
      record: {},
    });

    await stack.stack.db.query("delete from public.rt_card_states where deck_id = $1", [deck]);
    // `next` finds the first match among every frame, so wait for the second change by count.
    const changes = () => socket.frames.items.filter((frame) => frame[2] === topic && frame[3] === "postgres_changes");
    while (changes().length < 2) await socket.frames.waitFor(socket.frames.items.length + 1);
    expect(changes()[1]?.[4].data).toMatchObject({ type: "DELETE", columns: [], errors: null, old_record: {} });

    // A filter on a column the role may not select is refused, as Realtime's subscription check does.
    socket.send([
      "2",
      "2",
      "realtime:anon-filtered",
      "phx_join",
      { config: { postgres_changes: [{ ...binding, filter: `user_id=eq.${owner.id}` }] } },
    ]);
    expect((await socket.next({ ref: "2" }))[4]).toMatchObject({ status: "ok" });
    expect((await socket.next({ event: "system", topic: "realtime:anon-filtered" }))[4]).toMatchObject({
      status: "error",
      message: expect.stringContaining("invalid column for filter user_id"),
    });
    socket.close();
  });

  it("keeps a removed member in the private room until they send a new token, then shuts them out", async () => {
    const deck = await createDeck(stack, owner.id, [member.id]);
    const topic = `deck:${deck}`;
    const ownerRoom = await subscribe((await client(owner.token)).channel(topic, { config: { private: true } }));

    const pings = collector<unknown>();
    const system = collector<Record<string, unknown>>();
    const statuses = collector<string>();
    const memberClient = await client(member.token);
    memberClient
      .channel(topic, { config: { private: true } })
      .on("broadcast", { event: "ping" }, (p) => pings.push(p.payload))
      .on("system", {}, (p) => system.push(p))
      .subscribe((status) => statuses.push(status));
    await statuses.waitFor(1);
    expect(statuses.items).toEqual(["SUBSCRIBED"]);

    // The same member on a raw socket, to send the token it already has.
    const raw = await rawSocket(stack);
    const rawTopic = `realtime:${topic}`;
    raw.send(["1", "1", rawTopic, "phx_join", { config: { private: true }, access_token: member.token }]);
    expect((await raw.next({ ref: "1" }))[4]).toMatchObject({ status: "ok" });

    await removeMember(deck, member.id);
    await ownerRoom.send({ type: "broadcast", event: "ping", payload: { n: 1 } });
    expect(await pings.waitFor(1)).toEqual([{ n: 1 }]);
    await raw.next({ event: "broadcast", topic: rawTopic });

    // Sending the token the channel already has changes nothing, as in Realtime.
    raw.send(["1", "2", rawTopic, "access_token", { access_token: member.token }]);
    raw.send([null, "hb", "phoenix", "heartbeat", {}]);
    await raw.next({ ref: "hb" });
    expect(raw.frames.items.filter((frame) => frame[3] === "system" || frame[3] === "phx_close")).toEqual([]);

    // A new token is checked against the policies again.
    const refreshed = await stack.stack.keys.sign({
      sub: member.id,
      role: "authenticated",
      aud: "authenticated",
      exp: Math.floor(Date.now() / 1000) + 7200,
    });
    await memberClient.realtime.setAuth(refreshed);
    await statuses.waitFor(2);
    expect(statuses.items).toEqual(["SUBSCRIBED", "CLOSED"]);
    expect(system.items).toEqual([
      expect.objectContaining({
        extension: "system",
        status: "error",
        message: `You do not have permissions to read from this Channel topic: ${topic}`,
      }),
    ]);
    raw.close();
  });

  it("replays every stored message of a topic the joiner may read, whatever the policy says of each row", async () => {
    await stack.stack.db.exec(`
      create policy "vault readers, sealed messages excepted" on realtime.messages for select to authenticated
        using (realtime.topic() like 'vault:%' and event is distinct from 'sealed');`);
    const reader = await newUser(stack);
    const topic = `vault:${reader.id}`;
    for (const event of ["open", "sealed"]) {
      await stack.stack.db.query("select realtime.send($1::jsonb, $2, $3, true)", [
        JSON.stringify({ event }),
        event,
        topic,
      ]);
    }
    const replayed = collector<{ event: string }>();
    await subscribe(
      (await client(reader.token))
        .channel(topic, { config: { private: true, broadcast: { replay: { since: 0 } } } })
        .on("broadcast", { event: "*" }, (m) => replayed.push(m as { event: string })),
    );
    expect((await replayed.waitFor(2)).map((m) => m.event)).toEqual(["open", "sealed"]);
  });
});
