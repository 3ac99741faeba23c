import { describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { collector, newUser, realtimeClient, subscribe } from "./helpers.js";

const stack = stackPerFile();

type Message = { type: string; event: string; payload: Record<string, unknown>; meta?: Record<string, unknown> };

const sql = (text: string, params: unknown[] = []) => stack.stack.db.query(text, params);

/** A private channel on `topic` for `token`, collecting its broadcasts. */
async function listen(token: string, topic: string) {
  const client = await realtimeClient(stack, token);
  const got = collector<Message>();
  await subscribe(
    client.channel(topic, { config: { private: true } }).on("broadcast", { event: "*" }, (m) => got.push(m as Message)),
  );
  return { client, got };
}

describe("broadcast from the database", () => {
  it("delivers realtime.broadcast_changes from a trigger as Realtime shapes it", async () => {
    const alice = await newUser(stack);
    const { client, got } = await listen(alice.token, `user:${alice.id}`);
    const { data: inserted, error } = await client
      .from("rt_events")
      .insert({ owner_id: alice.id, body: "hello" })
      .select()
      .single();
    expect(error).toBeNull();
    await client.from("rt_events").update({ body: "edited" }).eq("id", inserted?.id);
    const [insert, update] = await got.waitFor(2);
    expect(insert).toEqual({
      type: "broadcast",
      event: "INSERT",
      payload: {
        id: expect.any(String),
        operation: "INSERT",
        schema: "public",
        table: "rt_events",
        record: { id: inserted?.id, owner_id: alice.id, body: "hello" },
        old_record: null,
      },
      meta: { id: insert?.payload.id },
    });
    expect(update?.event).toBe("UPDATE");
    expect(update?.payload).toMatchObject({
      operation: "UPDATE",
      record: { body: "edited" },
      old_record: { body: "hello" },
    });
    await client.removeAllChannels();
  });

  it("delivers realtime.send and send_binary run in SQL, private and public apart", async () => {
    const alice = await newUser(stack);
    const topic = `user:${alice.id}`;
    const { client, got } = await listen(alice.token, topic);
    const publicGot = collector<Message>();
    // (Another client: realtime-js hands back the private channel for the same topic name.)
    const publicClient = await realtimeClient(stack, alice.token);
    await subscribe(publicClient.channel(topic).on("broadcast", { event: "*" }, (m) => publicGot.push(m as Message)));

    await sql("select realtime.send($1::jsonb, 'note', $2)", [JSON.stringify({ n: 1 }), topic]);
    await sql("select realtime.send_binary($1::bytea, 'bytes', $2)", [Buffer.from([1, 2, 3]), topic]);
    await sql("select realtime.send($1::jsonb, 'open', $2, false)", [JSON.stringify({ id: "mine" }), topic]);

    const [note, bytes] = await got.waitFor(2);
    expect(note).toEqual({
      type: "broadcast",
      event: "note",
      payload: { n: 1, id: expect.any(String) },
      meta: { id: note?.payload.id },
    });
    expect(bytes?.event).toBe("bytes");
    expect([...new Uint8Array(bytes?.payload as unknown as ArrayBuffer)]).toEqual([1, 2, 3]);
    // A payload with its own id keeps it.
    expect(await publicGot.waitFor(1)).toEqual([
      { type: "broadcast", event: "open", payload: { id: "mine" }, meta: { id: expect.any(String) } },
    ]);
    expect(got.items).toHaveLength(2);
    await client.removeAllChannels();
    await publicClient.removeAllChannels();
  });

  it("sends as the caller: INSERT policies on realtime.messages decide", async () => {
    const alice = await newUser(stack);
    const bob = await newUser(stack);
    const aliceListener = await listen(alice.token, `user:${alice.id}`);
    const bobListener = await listen(bob.token, `user:${bob.id}`);

    // Alice may write to her own topic, not to Bob's: that send is a warning and nothing more.
    expect(
      (await aliceListener.client.rpc("rt_shout", { topic: `user:${bob.id}`, message: { n: 1 } })).error,
    ).toBeNull();
    expect(
      (await aliceListener.client.rpc("rt_shout", { topic: `user:${alice.id}`, message: { n: 2 } })).error,
    ).toBeNull();
    await sql("select realtime.send($1::jsonb, 'later', $2)", [JSON.stringify({ n: 3 }), `user:${bob.id}`]);

    expect((await aliceListener.got.waitFor(1)).map((m) => [m.event, m.payload.n])).toEqual([["shout", 2]]);
    // Bob's later message arrives alone: the refused one was never stored.
    expect((await bobListener.got.waitFor(1)).map((m) => [m.event, m.payload.n])).toEqual([["later", 3]]);
    const [row] = await sql("select count(*)::int as n from realtime.messages where topic = $1 and event = 'shout'", [
      `user:${bob.id}`,
    ]);
    expect(row?.n).toBe(0);
    await aliceListener.client.removeAllChannels();
    await bobListener.client.removeAllChannels();
  });

  it("reaches only subscribers whose SELECT policies allow reading the topic's broadcasts", async () => {
    const member = await newUser(stack);
    const stranger = await newUser(stack);
    await sql("insert into public.rt_room_members (room, user_id) values ('lounge', $1)", [member.id]);
    const memberListener = await listen(member.token, "room:lounge");
    // The stranger may join for presence but may not read the room's broadcasts.
    const strangerListener = await listen(stranger.token, "room:lounge");
    const strangerOwn = collector<Message>();
    await subscribe(
      strangerListener.client
        .channel(`user:${stranger.id}`, { config: { private: true } })
        .on("broadcast", { event: "*" }, (m) => strangerOwn.push(m as Message)),
    );

    await sql("select realtime.send($1::jsonb, 'secret', 'room:lounge')", [JSON.stringify({ s: 1 })]);
    await sql("select realtime.send($1::jsonb, 'after', $2)", [JSON.stringify({ a: 1 }), `user:${stranger.id}`]);

    expect((await memberListener.got.waitFor(1))[0]).toMatchObject({ event: "secret", payload: { s: 1 } });
    // Messages go out in commit order on one socket: the later one arriving first means the secret never will.
    expect((await strangerOwn.waitFor(1))[0]).toMatchObject({ event: "after" });
    expect(strangerListener.got.items).toEqual([]);
    await memberListener.client.removeAllChannels();
    await strangerListener.client.removeAllChannels();
  });
});
