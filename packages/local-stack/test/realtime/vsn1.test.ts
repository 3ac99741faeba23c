import type { RealtimePostgresChangesPayload, SupabaseClient } from "@supabase/supabase-js";
import { afterAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { collector, newUser, rawSocket, rawSocketV1, refusedUpgradeStatus, subscribe } from "./helpers.js";

const stack = stackPerFile();
const clients: SupabaseClient[] = [];
afterAll(async () => {
  for (const client of clients) await client.removeAllChannels();
});

/** realtime-js speaking protocol vsn 1.0.0 (JSON object frames). */
async function v1Client(token?: string): Promise<SupabaseClient> {
  const client = clientFor(stack, stack.anonKey, {
    ...(token ? { accessToken: async () => token } : {}),
    realtime: { vsn: "1.0.0" },
  });
  if (token) await client.realtime.setAuth(token);
  clients.push(client);
  return client;
}

describe("protocol vsn 1.0.0", () => {
  it("is the default without a vsn parameter, answers heartbeats and joins with object frames", async () => {
    const socket = await rawSocketV1(stack, null);
    socket.send({ topic: "phoenix", event: "heartbeat", payload: {}, ref: "1" });
    expect(await socket.next({ ref: "1" })).toEqual({
      topic: "phoenix",
      event: "phx_reply",
      payload: { status: "ok", response: {} },
      ref: "1",
    });
    socket.send({ topic: "realtime:v1-room", event: "phx_join", payload: { config: {} }, ref: "2", join_ref: "2" });
    expect(await socket.next({ ref: "2" })).toEqual({
      topic: "realtime:v1-room",
      event: "phx_reply",
      payload: { status: "ok", response: { postgres_changes: [] } },
      ref: "2",
    });
    socket.close();
  });

  it("refuses a vsn it does not serve", async () => {
    expect(await refusedUpgradeStatus(stack, `apikey=${stack.anonKey}&vsn=3.0.0`)).toBe(403);
  });

  it("answers errors as objects and drops array frames and frames missing keys", async () => {
    const socket = await rawSocketV1(stack);
    socket.send(["1", "1", "phoenix", "heartbeat", {}]);
    socket.send({ topic: "phoenix", event: "heartbeat", ref: "2" });
    socket.send({ topic: "elsewhere", event: "phx_join", payload: {}, ref: "3" });
    expect(await socket.next({ ref: "3" })).toEqual({
      topic: "elsewhere",
      event: "phx_reply",
      payload: { status: "error", response: { reason: "unmatched topic" } },
      ref: "3",
    });
    socket.send({ topic: "realtime:nowhere", event: "broadcast", payload: { event: "x", payload: {} }, ref: "4" });
    expect((await socket.next({ ref: "4" })).payload).toMatchObject({ status: "error" });
    socket.ws.send(Buffer.from([3, 0, 0, 0, 0, 0, 1]));
    socket.send({ topic: "phoenix", event: "heartbeat", payload: {}, ref: "5" });
    await socket.next({ ref: "5" });
    expect(socket.frames.items.map((frame) => frame.ref)).toEqual(["3", "4", "5"]);
    socket.close();
  });

  it("broadcasts between vsn 1.0.0 and 2.0.0 sockets, JSON only", async () => {
    const v1 = await rawSocketV1(stack);
    const v2 = await rawSocket(stack);
    v1.send({ topic: "realtime:mixed", event: "phx_join", payload: { config: {} }, ref: "1", join_ref: "1" });
    await v1.next({ ref: "1" });
    v2.send(["1", "1", "realtime:mixed", "phx_join", { config: { broadcast: { ack: true } } }]);
    await v2.next({ ref: "1" });
    // Binary payloads cannot travel on vsn 1.0.0: the v1 socket gets only the JSON one after it.
    const response = await fetch(`${stack.url}/realtime/v1/api/broadcast/mixed/events/bin`, {
      method: "POST",
      headers: { apikey: stack.anonKey, "content-type": "application/octet-stream" },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(response.status).toBe(202);
    v2.send(["1", "2", "realtime:mixed", "broadcast", { type: "broadcast", event: "hello", payload: { n: 1 } }]);
    expect(await v1.next({ event: "broadcast" })).toEqual({
      topic: "realtime:mixed",
      event: "broadcast",
      payload: { type: "broadcast", event: "hello", payload: { n: 1 } },
      ref: null,
    });
    v1.send({
      topic: "realtime:mixed",
      event: "broadcast",
      payload: { type: "broadcast", event: "back", payload: { n: 2 } },
      ref: "2",
      join_ref: "1",
    });
    expect((await v2.next({ event: "broadcast" }))[4]).toEqual({ type: "broadcast", event: "back", payload: { n: 2 } });
    expect(v1.frames.items.filter((frame) => frame.event === "broadcast")).toHaveLength(1);
    v1.close();
    v2.close();
  });

  it("tracks presence and delivers postgres_changes to a raw object-frame socket", async () => {
    const user = await newUser(stack);
    const socket = await rawSocketV1(stack);
    const config = {
      presence: { key: "raw", enabled: true },
      postgres_changes: [{ event: "INSERT", schema: "public", table: "rt_notes", filter: `owner_id=eq.${user.id}` }],
    };
    socket.send({
      topic: "realtime:v1-raw",
      event: "phx_join",
      payload: { config, access_token: user.token },
      ref: "1",
      join_ref: "1",
    });
    const joined = await socket.next({ ref: "1" });
    expect(joined.payload).toMatchObject({ status: "ok" });
    const [binding] = (joined.payload.response as { postgres_changes: Array<{ id: number }> }).postgres_changes;
    expect((await socket.next({ event: "presence_state" })).payload).toEqual({});
    expect((await socket.next({ event: "system" })).payload).toMatchObject({ message: "Subscribed to PostgreSQL" });
    socket.send({
      topic: "realtime:v1-raw",
      event: "presence",
      payload: { type: "presence", event: "track", payload: { at: 1 } },
      ref: "2",
      join_ref: "1",
    });
    expect((await socket.next({ ref: "2" })).payload).toEqual({ status: "ok", response: {} });
    expect((await socket.next({ event: "presence_diff" })).payload).toMatchObject({
      joins: { raw: { metas: [{ at: 1 }] } },
      leaves: {},
    });
    await stack.stack.db.query("insert into public.rt_notes (owner_id, title) values ($1, 'raw v1')", [user.id]);
    const change = await socket.next({ event: "postgres_changes" });
    expect(change).toMatchObject({
      topic: "realtime:v1-raw",
      ref: null,
      payload: { ids: [binding?.id], data: { type: "INSERT", record: { title: "raw v1" } } },
    });
    expect("join_ref" in change).toBe(false);
    socket.close();
  });

  it("works through realtime-js configured with vsn 1.0.0: broadcast, presence and postgres_changes", async () => {
    const user = await newUser(stack);
    const a = await v1Client(user.token);
    const b = await v1Client();
    expect(a.realtime.vsn).toBe("1.0.0");
    const received = collector<Record<string, unknown>>();
    const joins = collector<string>();
    const changes = collector<RealtimePostgresChangesPayload<{ title: string }>>();
    const system = collector<Record<string, unknown>>();
    await subscribe(
      a
        .channel("v1-js", { config: { presence: { key: "a" } } })
        .on("broadcast", { event: "ping" }, (message) => received.push(message.payload))
        .on("presence", { event: "join" }, ({ key }) => joins.push(key))
        .on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_notes" }, (p) =>
          changes.push(p as RealtimePostgresChangesPayload<{ title: string }>),
        )
        .on("system", {}, (p) => system.push(p)),
    );
    expect((await system.waitFor(1))[0]).toMatchObject({ status: "ok", message: "Subscribed to PostgreSQL" });
    const other = b.channel("v1-js", { config: { presence: { key: "b" } } });
    await subscribe(other);
    expect(await other.track({ here: true })).toBe("ok");
    await joins.waitFor(1);
    expect(joins.items).toEqual(["b"]);
    expect(await other.send({ type: "broadcast", event: "ping", payload: { x: 1 } })).toBe("ok");
    expect(await received.waitFor(1)).toEqual([{ x: 1 }]);
    await stack.stack.db.query("insert into public.rt_notes (owner_id, title) values ($1, 'over v1')", [user.id]);
    expect((await changes.waitFor(1))[0]).toMatchObject({ eventType: "INSERT", new: { title: "over v1" } });
  });
});
