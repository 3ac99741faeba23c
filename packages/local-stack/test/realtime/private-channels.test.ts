import { describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { collector, newUser, rawSocket, realtimeClient, sleep, subscribe } from "./helpers.js";

const stack = stackPerFile();

describe("private channels (RLS on realtime.messages)", () => {
  it("joins, broadcasts and tracks presence only where the policies allow", async () => {
    const alice = await newUser(stack);
    const bob = await newUser(stack);
    const aliceA = await realtimeClient(stack, alice.token);
    const aliceB = await realtimeClient(stack, alice.token);
    const bobClient = await realtimeClient(stack, bob.token);
    const got = collector<Record<string, unknown>>();
    const topic = `user:${alice.id}`;
    const config = { config: { private: true, broadcast: { ack: true } } };
    const sender = await subscribe(aliceA.channel(topic, config));
    await subscribe(aliceB.channel(topic, config).on("broadcast", { event: "*" }, (m) => got.push(m)));
    expect(await sender.send({ type: "broadcast", event: "note", payload: { n: 1 } })).toBe("ok");
    expect(await got.waitFor(1)).toEqual([{ type: "broadcast", event: "note", payload: { n: 1 } }]);
    expect(await sender.track({ here: true })).toBe("ok");

    // Bob may not join Alice's topic.
    await expect(subscribe(bobClient.channel(topic, { config: { private: true } }))).rejects.toThrow(/Unauthorized/);

    // Everyone may read `announce`, nobody may write or track there.
    const announce = await subscribe(bobClient.channel("announce", config));
    expect(await announce.send({ type: "broadcast", event: "x", payload: {} })).toBe("error");
    expect(await announce.track({ nope: true })).toBe("error");

    // The public channel of the same name is a different topic.
    const publicGot = collector<Record<string, unknown>>();
    // (A fresh client: realtime-js returns Bob's failed channel for the same topic name.)
    const bobPublic = await realtimeClient(stack, bob.token);
    await subscribe(bobPublic.channel(topic).on("broadcast", { event: "*" }, (m) => publicGot.push(m)));
    await sender.send({ type: "broadcast", event: "note", payload: { n: 2 } });
    await got.waitFor(2);
    await sleep(100);
    expect(publicGot.items).toEqual([]);

    // The HTTP API checks INSERT policies for private messages.
    const post = (token: string) =>
      fetch(`${stack.url}/realtime/v1/api/broadcast/${encodeURIComponent(topic)}/events/http?private=true`, {
        method: "POST",
        headers: { apikey: stack.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ n: 3 }),
      });
    expect((await post(bob.token)).status).toBe(403);
    expect((await post(alice.token)).status).toBe(202);
    expect((await got.waitFor(3))[2]).toEqual({ type: "broadcast", event: "http", payload: { n: 3 } });

    // Nothing of the checks is left behind.
    const [row] = await stack.stack.db.query<{ n: number }>("select count(*)::int as n from realtime.messages");
    expect(row?.n).toBe(0);
    for (const c of [aliceA, aliceB, bobClient, bobPublic]) await c.removeAllChannels();
  });

  it("lets the service role join any private channel", async () => {
    const socket = await rawSocket(stack, stack.serviceRoleKey);
    socket.send(["1", "1", "realtime:anything", "phx_join", { config: { private: true } }]);
    expect((await socket.next({ ref: "1" }))[4]).toMatchObject({ status: "ok" });
    socket.close();
  });
});
