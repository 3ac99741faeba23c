import type { RealtimeChannel } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { collector, newUser, realtimeClient, sleep, subscribe } from "./helpers.js";

const stack = stackPerFile();

/**
 * Resolves once the channel is SUBSCRIBED, as an app waits for it: realtime-js sends the
 * first join before an `accessToken` callback has resolved and retries a refused one.
 */
const subscribed = (channel: RealtimeChannel) =>
  new Promise<void>((resolve) => channel.subscribe((status) => status === "SUBSCRIBED" && resolve()));

const post = (path: string, body: unknown, key = stack.anonKey, contentType = "application/json") =>
  fetch(`${stack.url}/realtime/v1${path}`, {
    method: "POST",
    headers: { apikey: key, authorization: `Bearer ${key}`, "content-type": contentType },
    body:
      typeof body === "string"
        ? body
        : body instanceof Uint8Array
          ? new Blob([new Uint8Array(body)])
          : JSON.stringify(body),
  });

describe("HTTP broadcast API", () => {
  it("delivers channel.send() before joining and httpSend() to subscribers", async () => {
    const listener = await realtimeClient(stack);
    const got = collector<Record<string, unknown>>();
    await subscribe(listener.channel("news").on("broadcast", { event: "*" }, (m) => got.push(m)));
    const sender = clientFor(stack);
    expect(await sender.channel("news").send({ type: "broadcast", event: "headline", payload: { n: 1 } })).toBe("ok");
    expect(await sender.channel("news").httpSend("update", { n: 2 })).toEqual({ success: true });
    expect(await got.waitFor(2)).toEqual([
      { type: "broadcast", event: "headline", payload: { n: 1 } },
      { type: "broadcast", event: "update", payload: { n: 2 } },
    ]);
    const service = clientFor(stack, stack.serviceRoleKey);
    await service.channel("news").httpSend("bytes", new Uint8Array([7, 8, 9]));
    const [, , binary] = await got.waitFor(3);
    expect([...new Uint8Array(binary?.payload as ArrayBuffer)]).toEqual([7, 8, 9]);
    await listener.removeAllChannels();
  });

  it("keeps private and public channels apart and private sends to the service role", async () => {
    const listener = await realtimeClient(stack, stack.serviceRoleKey);
    const privateListener = await realtimeClient(stack, stack.serviceRoleKey);
    const pub = collector<Record<string, unknown>>();
    const priv = collector<Record<string, unknown>>();
    await subscribe(listener.channel("split").on("broadcast", { event: "*" }, (m) => pub.push(m)));
    await subscribe(
      privateListener
        .channel("split", { config: { private: true } })
        .on("broadcast", { event: "*" }, (m) => priv.push(m)),
    );
    expect(
      (await post("/api/broadcast", { messages: [{ topic: "split", event: "e", payload: {}, private: true }] })).status,
    ).toBe(202);
    const response = await post(
      "/api/broadcast",
      { messages: [{ topic: "split", event: "secret", payload: { s: 1 }, private: true }] },
      stack.serviceRoleKey,
    );
    expect(response.status).toBe(202);
    expect(await priv.waitFor(1)).toEqual([{ type: "broadcast", event: "secret", payload: { s: 1 } }]);
    const anonPrivate = await post("/api/broadcast/split/events/x?private=true", { a: 1 });
    expect(anonPrivate.status).toBe(403);
    await sleep(100);
    expect(pub.items).toEqual([]);
    expect(priv.items).toHaveLength(1);
    await listener.removeAllChannels();
    await privateListener.removeAllChannels();
  });

  it("sends binary payloads with httpSend to a private channel that subscribes as an app does", async () => {
    const alice = await newUser(stack);
    const topic = `user:${alice.id}`;
    const app = clientFor(stack, stack.anonKey, { accessToken: async () => alice.token });
    const got = collector<Record<string, unknown>>();
    const channel = app
      .channel(topic, { config: { private: true } })
      .on("broadcast", { event: "*" }, (m) => got.push(m));
    await subscribed(channel);
    expect(await channel.httpSend("frame", new Uint8Array([1, 2, 3]))).toEqual({ success: true });
    expect(await channel.httpSend("note", { n: 1 })).toEqual({ success: true });
    // A channel that sent binary before subscribing still subscribes.
    const other = clientFor(stack, stack.anonKey, { accessToken: async () => alice.token });
    const late = other.channel(topic, { config: { private: true } }).on("broadcast", { event: "*" }, () => undefined);
    expect(await late.httpSend("early", new Uint8Array([4]))).toEqual({ success: true });
    await subscribed(late);

    const [frame, note, early] = await got.waitFor(3);
    expect(frame?.event).toBe("frame");
    expect([...new Uint8Array(frame?.payload as ArrayBuffer)]).toEqual([1, 2, 3]);
    expect(note).toEqual({ type: "broadcast", event: "note", payload: { n: 1 } });
    expect([...new Uint8Array(early?.payload as ArrayBuffer)]).toEqual([4]);
    // Another user may not send to Alice's topic: httpSend rejects as Realtime answers (403).
    const bob = await newUser(stack);
    const intruder = clientFor(stack, stack.anonKey, { accessToken: async () => bob.token });
    await expect(
      intruder.channel(topic, { config: { private: true } }).httpSend("x", new Uint8Array([9])),
    ).rejects.toThrow("Unauthorized");
    await app.removeAllChannels();
    await other.removeAllChannels();
  });

  it("rejects bad requests", async () => {
    expect((await post("/api/broadcast", { nope: 1 })).status).toBe(422);
    expect((await post("/api/broadcast", { messages: [{ event: "x" }] })).status).toBe(422);
    expect((await post("/api/broadcast", "{bad json")).status).toBe(422);
    expect((await post("/api/broadcast/t/events/e", "{bad json")).status).toBe(400);
    expect((await post("/api/broadcast/t/events/e", { blob: "x".repeat(300_000) })).status).toBe(413);
    const badToken = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: "POST",
      headers: { apikey: stack.anonKey, authorization: "Bearer not.a.jwt", "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ topic: "t", event: "e", payload: {} }] }),
    });
    expect(badToken.status).toBe(401);
    const noKey = await fetch(`${stack.url}/realtime/v1/api/broadcast`, { method: "POST", body: "{}" });
    expect(noKey.status).toBe(401);
  });
});
