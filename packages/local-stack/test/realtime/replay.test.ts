import { describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { collector, newUser, rawSocket, realtimeClient, subscribe } from "./helpers.js";

const stack = stackPerFile();

type Message = { type: string; event: string; payload: Record<string, unknown>; meta?: Record<string, unknown> };

const send = (topic: string, event: string, payload: unknown, isPrivate = true) =>
  stack.stack.db.query("select realtime.send($1::jsonb, $2, $3, $4)", [
    JSON.stringify(payload),
    event,
    topic,
    isPrivate,
  ]);

/** The database's clock in epoch ms, so `since` compares with inserted_at on one clock. */
async function databaseNow(): Promise<number> {
  const [row] = await stack.stack.db.query<{ now: number }>(
    "select (extract(epoch from clock_timestamp()) * 1000)::float8 as now",
  );
  return Math.floor(row?.now ?? 0);
}

describe("broadcast replay", () => {
  it("replays the newest stored private messages since a time, oldest first, then goes live", async () => {
    const alice = await newUser(stack);
    const topic = `user:${alice.id}`;
    await send(topic, "old", { n: 0 });
    const since = await databaseNow();
    for (const n of [1, 2, 3]) await send(topic, "note", { n });
    await send(topic, "public", { n: 9 }, false);

    const client = await realtimeClient(stack, alice.token);
    const got = collector<Message>();
    await subscribe(
      client
        .channel(topic, { config: { private: true, broadcast: { replay: { since, limit: 2 } } } })
        .on("broadcast", { event: "*" }, (m) => got.push(m as Message)),
    );
    const replayed = await got.waitFor(2);
    expect(replayed.map((m) => m.payload.n)).toEqual([2, 3]);
    expect(replayed[0]).toEqual({
      type: "broadcast",
      event: "note",
      payload: { n: 2, id: expect.any(String) },
      meta: { replayed: true, id: replayed[0]?.payload.id },
    });

    await send(topic, "live", { n: 4 });
    const [, , live] = await got.waitFor(3);
    expect(live).toEqual({
      type: "broadcast",
      event: "live",
      payload: { n: 4, id: expect.any(String) },
      meta: { id: live?.payload.id },
    });
    await client.removeAllChannels();
  });

  it("defaults to 25 messages (Realtime's `limit || 25`), at most 25, binary payloads included", async () => {
    const alice = await newUser(stack);
    const topic = `user:${alice.id}`;
    for (let n = 1; n <= 30; n++) await send(topic, "note", { n });
    await stack.stack.db.query("select realtime.send_binary($1::bytea, 'bytes', $2)", [Buffer.from([5, 6]), topic]);

    const client = await realtimeClient(stack, alice.token);
    const defaults = collector<Message>();
    const capped = collector<Message>();
    await subscribe(
      client
        .channel(topic, { config: { private: true, broadcast: { replay: { since: 0 } } } })
        .on("broadcast", { event: "*" }, (m) => defaults.push(m as Message)),
    );
    const other = await realtimeClient(stack, alice.token);
    await subscribe(
      other
        .channel(topic, { config: { private: true, broadcast: { replay: { since: 0, limit: 100 } } } })
        .on("broadcast", { event: "*" }, (m) => capped.push(m as Message)),
    );
    const byDefault = await defaults.waitFor(25);
    expect(byDefault.slice(0, 24).map((m) => m.payload.n)).toEqual(Array.from({ length: 24 }, (_, i) => i + 7));
    expect(byDefault[24]?.event).toBe("bytes");
    expect([...new Uint8Array(byDefault[24]?.payload as unknown as ArrayBuffer)]).toEqual([5, 6]);
    expect(byDefault[24]?.meta).toEqual({ replayed: true, id: expect.any(String) });
    const all = await capped.waitFor(25);
    expect(all[0]?.payload.n).toBe(7);
    expect(all[24]?.event).toBe("bytes");
    await client.removeAllChannels();
    await other.removeAllChannels();
  });

  it("refuses replay without broadcast read access, on public channels and with bad parameters", async () => {
    const stranger = await newUser(stack);
    // room:<name> lets anyone signed in join for presence, but only members read broadcasts.
    const client = await realtimeClient(stack, stranger.token);
    await expect(
      subscribe(client.channel("room:quiet", { config: { private: true, broadcast: { replay: { since: 0 } } } })),
    ).rejects.toThrow("Unauthorized: You do not have permissions to read from this Channel topic: room:quiet");
    await subscribe((await realtimeClient(stack, stranger.token)).channel("room:quiet", { config: { private: true } }));
    expect(() => client.channel("plain", { config: { broadcast: { replay: { since: 0 } } } })).toThrow(/private/);

    const socket = await rawSocket(stack, stack.serviceRoleKey);
    socket.send(["1", "1", "realtime:plain", "phx_join", { config: { broadcast: { replay: { since: 0 } } } }]);
    expect((await socket.next({ ref: "1" }))[4]).toEqual({
      status: "error",
      response: { reason: "UnableToReplayMessages: Replay is not allowed for public channels" },
    });
    socket.send([
      "2",
      "2",
      "realtime:any",
      "phx_join",
      { config: { private: true, broadcast: { replay: { since: "yesterday" } } } },
    ]);
    expect((await socket.next({ ref: "2" }))[4]).toEqual({
      status: "error",
      response: { reason: "UnableToReplayMessages: Replay params are not valid" },
    });
    // Realtime passes `since` on as given: without one there is nothing to replay from.
    socket.send([
      "3",
      "3",
      "realtime:any",
      "phx_join",
      { config: { private: true, broadcast: { replay: { limit: 5 } } } },
    ]);
    expect((await socket.next({ ref: "3" }))[4]).toEqual({
      status: "error",
      response: { reason: "UnableToReplayMessages: Replay params are not valid" },
    });
    socket.close();
    await client.removeAllChannels();
  });
});
