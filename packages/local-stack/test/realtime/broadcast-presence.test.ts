import type { RealtimePresenceState } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { collector, rawSocket, realtimeClient, sleep, subscribe } from "./helpers.js";

const stack = stackPerFile();

describe("broadcast", () => {
  it("delivers to other subscribers of the topic, not to the sender without self", async () => {
    const alice = await realtimeClient(stack);
    const bob = await realtimeClient(stack);
    const received = collector<Record<string, unknown>>();
    const echoed = collector<Record<string, unknown>>();
    const other = collector<Record<string, unknown>>();
    const a = await subscribe(alice.channel("room1").on("broadcast", { event: "cursor" }, (m) => echoed.push(m)));
    await subscribe(bob.channel("room1").on("broadcast", { event: "cursor" }, (m) => received.push(m)));
    await subscribe(bob.channel("room2").on("broadcast", { event: "*" }, (m) => other.push(m)));
    expect(await a.send({ type: "broadcast", event: "cursor", payload: { x: 1, label: "héllo ✓" } })).toBe("ok");
    expect(await received.waitFor(1)).toEqual([
      { type: "broadcast", event: "cursor", payload: { x: 1, label: "héllo ✓" } },
    ]);
    await sleep(100);
    expect(echoed.items).toEqual([]);
    expect(other.items).toEqual([]);
    await alice.removeAllChannels();
    await bob.removeAllChannels();
  });

  it("echoes to the sender with self and acknowledges with ack", async () => {
    const client = await realtimeClient(stack);
    const mine = collector<Record<string, unknown>>();
    const channel = await subscribe(
      client
        .channel("selfie", { config: { broadcast: { self: true, ack: true } } })
        .on("broadcast", { event: "*" }, (m) => mine.push(m)),
    );
    expect(await channel.send({ type: "broadcast", event: "a", payload: { n: 1 } })).toBe("ok");
    expect(await channel.send({ type: "broadcast", event: "b", payload: { n: 2 } })).toBe("ok");
    expect(await mine.waitFor(2)).toEqual([
      { type: "broadcast", event: "a", payload: { n: 1 } },
      { type: "broadcast", event: "b", payload: { n: 2 } },
    ]);
    await client.removeAllChannels();
  });

  it("passes binary payloads through as binary frames", async () => {
    const client = await realtimeClient(stack);
    const got = collector<{ payload: ArrayBuffer }>();
    const channel = await subscribe(
      client
        .channel("bin", { config: { broadcast: { self: true, ack: true } } })
        .on("broadcast", { event: "blob" }, (m) => got.push(m as never)),
    );
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(await channel.send({ type: "broadcast", event: "blob", payload: bytes.buffer })).toBe("ok");
    const [message] = await got.waitFor(1);
    expect([...new Uint8Array(message?.payload as ArrayBuffer)]).toEqual([0, 1, 2, 250, 255]);
    await client.removeAllChannels();
  });

  it("delivers JSON-frame broadcasts from raw sockets to supabase-js listeners", async () => {
    const client = await realtimeClient(stack);
    const got = collector<Record<string, unknown>>();
    await subscribe(client.channel("mixed").on("broadcast", { event: "ping" }, (m) => got.push(m)));
    const socket = await rawSocket(stack);
    socket.send(["1", "1", "realtime:mixed", "phx_join", { config: {} }]);
    await socket.next({ ref: "1" });
    socket.send(["1", "2", "realtime:mixed", "broadcast", { type: "broadcast", event: "ping", payload: [1, 2] }]);
    expect(await got.waitFor(1)).toEqual([{ type: "broadcast", event: "ping", payload: [1, 2] }]);
    socket.close();
    await client.removeAllChannels();
  });
});

describe("presence", () => {
  const keysOf = (state: RealtimePresenceState) => Object.keys(state).sort();

  it("syncs state, joins, updates and leaves, including a dropped socket", async () => {
    const alice = await realtimeClient(stack);
    const bob = await realtimeClient(stack);
    const joins = collector<{ key: string; newPresences: Array<Record<string, unknown>> }>();
    const leaves = collector<{ key: string; leftPresences: Array<Record<string, unknown>> }>();
    const a = alice
      .channel("lobby", { config: { presence: { key: "alice" } } })
      .on("presence", { event: "join" }, (p) => joins.push(p as never))
      .on("presence", { event: "leave" }, (p) => leaves.push(p as never));
    await subscribe(a);
    expect(await a.track({ status: "online" })).toBe("ok");
    await joins.waitFor(1);
    expect(joins.items[0]).toMatchObject({ key: "alice", newPresences: [{ status: "online" }] });

    const b = bob
      .channel("lobby", { config: { presence: { key: "bob" } } })
      .on("presence", { event: "sync" }, () => {});
    await subscribe(b);
    expect(await b.track({ status: "away" })).toBe("ok");
    await joins.waitFor(2);
    expect(joins.items[1]).toMatchObject({ key: "bob", newPresences: [{ status: "away" }] });
    await expect.poll(() => keysOf(a.presenceState())).toEqual(["alice", "bob"]);
    await expect.poll(() => keysOf(b.presenceState())).toEqual(["alice", "bob"]);
    expect(b.presenceState().alice?.[0]).toMatchObject({ status: "online", presence_ref: expect.any(String) });

    // Update: a leave of the old meta and a join of the new one.
    await b.track({ status: "busy" });
    await joins.waitFor(3);
    await expect.poll(() => a.presenceState().bob).toEqual([expect.objectContaining({ status: "busy" })]);

    expect(await b.untrack()).toBe("ok");
    await expect.poll(() => keysOf(a.presenceState())).toEqual(["alice"]);

    // A dropped socket removes its presence.
    await b.track({ status: "back" });
    await joins.waitFor(4);
    const before = leaves.items.length;
    bob.realtime.disconnect();
    await leaves.waitFor(before + 1);
    expect(leaves.items.at(-1)).toMatchObject({ key: "bob", leftPresences: [{ status: "back" }] });
    await expect.poll(() => keysOf(a.presenceState())).toEqual(["alice"]);
    await alice.removeAllChannels();
  });

  it("gives a generated key when none is configured and rejects bad presence events", async () => {
    const client = await realtimeClient(stack);
    const channel = client.channel("anon-keys").on("presence", { event: "sync" }, () => {});
    await subscribe(channel);
    await channel.track({ n: 1 });
    await expect.poll(() => Object.keys(channel.presenceState())).toHaveLength(1);
    const keys = Object.keys(channel.presenceState());
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    const socket = await rawSocket(stack);
    socket.send(["1", "1", "realtime:anon-keys", "phx_join", { config: { presence: { enabled: true } } }]);
    await socket.next({ ref: "1" });
    const state = await socket.next({ event: "presence_state" });
    expect(Object.keys(state[4])).toEqual(keys);
    socket.send(["1", "2", "realtime:anon-keys", "presence", { type: "presence", event: "dance" }]);
    expect((await socket.next({ ref: "2" }))[4]).toMatchObject({ status: "error" });
    socket.close();
    await client.removeAllChannels();
  });
});
