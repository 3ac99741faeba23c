import { describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";
import { newUser, rawSocket, realtimeClient, refusedUpgradeStatus, sleep, subscribe } from "./helpers.js";

const stack = stackPerFile();

describe("realtime socket protocol (vsn 2.0.0)", () => {
  it("rejects a connection without a valid apikey", async () => {
    for (const apikey of ["", "not-a-key"]) {
      expect(await refusedUpgradeStatus(stack, `apikey=${apikey}&vsn=2.0.0`)).toBe(403);
    }
  });

  it("accepts sb_ keys and answers heartbeats", async () => {
    const socket = await rawSocket(stack, "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH");
    socket.send([null, "1", "phoenix", "heartbeat", {}]);
    expect(await socket.next({ ref: "1" })).toEqual([
      null,
      "1",
      "phoenix",
      "phx_reply",
      { status: "ok", response: {} },
    ]);
    socket.close();
  });

  it("replies to a join with the bindings in order and integer ids, then leaves with phx_close", async () => {
    const socket = await rawSocket(stack);
    const bindings = [
      { event: "INSERT", schema: "public", table: "rt_notes", filter: "priority=gt.2" },
      { event: "*", schema: "public" },
    ];
    socket.send(["1", "1", "realtime:room", "phx_join", { config: { postgres_changes: bindings } }]);
    const reply = await socket.next({ ref: "1" });
    expect(reply[3]).toBe("phx_reply");
    const response = reply[4] as { status: string; response: { postgres_changes: Array<Record<string, unknown>> } };
    expect(response.status).toBe("ok");
    expect(response.response.postgres_changes.map(({ id: _id, ...rest }) => rest)).toEqual(bindings);
    for (const binding of response.response.postgres_changes) expect(Number.isInteger(binding.id)).toBe(true);
    const system = await socket.next({ event: "system" });
    expect(system).toEqual([
      "1",
      null,
      "realtime:room",
      "system",
      { extension: "postgres_changes", status: "ok", message: "Subscribed to PostgreSQL", channel: "room" },
    ]);
    socket.send(["1", "2", "realtime:room", "phx_leave", {}]);
    expect((await socket.next({ ref: "2" }))[4]).toEqual({ status: "ok", response: {} });
    expect(await socket.next({ event: "phx_close" })).toEqual(["1", null, "realtime:room", "phx_close", {}]);
    socket.close();
  });

  it("answers unknown topics and events with errors and keeps the socket open", async () => {
    const socket = await rawSocket(stack);
    socket.send(["9", "9", "elsewhere", "phx_join", {}]);
    expect((await socket.next({ ref: "9" }))[4]).toEqual({ status: "error", response: { reason: "unmatched topic" } });
    socket.send([null, "10", "realtime:never-joined", "broadcast", { type: "broadcast", event: "x", payload: {} }]);
    expect((await socket.next({ ref: "10" }))[4]).toMatchObject({ status: "error" });
    socket.send(["11", "11", "realtime:r2", "phx_join", {}]);
    expect((await socket.next({ ref: "11" }))[4]).toMatchObject({ status: "ok" });
    socket.send(["11", "12", "realtime:r2", "no_such_event", {}]);
    expect((await socket.next({ ref: "12" }))[4]).toMatchObject({ status: "error" });
    socket.send([null, "13", "phoenix", "heartbeat", {}]);
    expect((await socket.next({ ref: "13" }))[4]).toEqual({ status: "ok", response: {} });
    socket.close();
  });

  it("drops malformed frames without closing the connection", async () => {
    const socket = await rawSocket(stack);
    socket.send("{not json");
    socket.send("[1,2,3]");
    socket.send('{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"1"}');
    socket.send([null, 5, "phoenix", "heartbeat", {}]);
    socket.ws.send(Buffer.from([3, 200, 1, 1]));
    socket.ws.send(Buffer.from([9, 0, 0, 0, 0, 0, 0]));
    socket.ws.send(Buffer.from([3, 0, 1, 4, 1, 0, 1, ...Buffer.from("1topxe{bad")]));
    socket.send([null, "2", "phoenix", "heartbeat", {}]);
    expect(await socket.next({ ref: "2" })).toEqual([
      null,
      "2",
      "phoenix",
      "phx_reply",
      { status: "ok", response: {} },
    ]);
    expect(socket.frames.items).toHaveLength(1);
    socket.close();
  });

  it("refuses joins with invalid, expired or role-less tokens, and private channels for users", async () => {
    const socket = await rawSocket(stack);
    const expired = await stack.stack.keys.sign({
      sub: "x",
      role: "authenticated",
      exp: Math.floor(Date.now() / 1000) - 3600,
    });
    const roleless = await stack.stack.keys.sign({ sub: "x", exp: Math.floor(Date.now() / 1000) + 3600 });
    const cases = ["garbage", expired, roleless, `${stack.anonKey.slice(0, -4)}AAAA`];
    for (const [i, token] of cases.entries()) {
      const ref = String(i + 1);
      socket.send([ref, ref, "realtime:secure", "phx_join", { config: {}, access_token: token }]);
      const reply = await socket.next({ ref });
      expect(reply[4]).toMatchObject({
        status: "error",
        response: { reason: expect.stringMatching(/^InvalidJWTToken: /) },
      });
    }
    const user = await newUser(stack);
    socket.send(["9", "9", "realtime:secure", "phx_join", { config: { private: true }, access_token: user.token }]);
    expect((await socket.next({ ref: "9" }))[4]).toMatchObject({
      status: "error",
      response: { reason: expect.stringMatching(/^Unauthorized: /) },
    });
    socket.close();
  });

  it("closes the channel with a system error when a refreshed access_token is invalid", async () => {
    const socket = await rawSocket(stack);
    socket.send(["1", "1", "realtime:tok", "phx_join", { config: {} }]);
    expect((await socket.next({ ref: "1" }))[4]).toMatchObject({ status: "ok" });
    const user = await newUser(stack);
    socket.send(["1", "2", "realtime:tok", "access_token", { access_token: user.token }]);
    socket.send(["1", "3", "realtime:tok", "access_token", { access_token: "bad.token.value" }]);
    expect((await socket.next({ event: "system" }))[4]).toMatchObject({ status: "error", extension: "system" });
    await socket.next({ event: "phx_close" });
    socket.send(["1", "4", "realtime:tok", "broadcast", { type: "broadcast", event: "x", payload: {} }]);
    expect((await socket.next({ ref: "4" }))[4]).toMatchObject({ status: "error" });
    socket.close();
  });

  it("errors oversized broadcasts and closes only sockets that send over-limit frames", async () => {
    const socket = await rawSocket(stack);
    socket.send(["1", "1", "realtime:big", "phx_join", { config: { broadcast: { ack: true } } }]);
    await socket.next({ ref: "1" });
    socket.send([
      "1",
      "2",
      "realtime:big",
      "broadcast",
      { type: "broadcast", event: "e", payload: { blob: "x".repeat(300_000) } },
    ]);
    expect((await socket.next({ ref: "2" }))[4]).toMatchObject({
      status: "error",
      response: { reason: expect.stringMatching(/^PayloadTooLarge/) },
    });
    const huge = await rawSocket(stack);
    const closed = new Promise<number>((resolve) => huge.ws.on("close", (code) => resolve(code)));
    huge.send("x".repeat(5 * 1024 * 1024));
    expect(await closed).toBe(1009);
    socket.send([null, "3", "phoenix", "heartbeat", {}]);
    expect((await socket.next({ ref: "3" }))[4]).toEqual({ status: "ok", response: {} });
    socket.close();
  });

  it("supabase-js subscribes with the anon key and with a user token, and reports join errors", async () => {
    const anon = await realtimeClient(stack);
    await subscribe(anon.channel("plain"));
    const user = await newUser(stack);
    const signedIn = await realtimeClient(stack, user.token);
    await subscribe(signedIn.channel("plain"));
    const failing = subscribe(signedIn.channel("locked", { config: { private: true } }));
    await expect(failing).rejects.toThrow(/Unauthorized/);
    await sleep(10);
    await anon.removeAllChannels();
    await signedIn.removeAllChannels();
  });
});

describe("token lifetime", () => {
  it("closes a channel with a system error when its token expires", async () => {
    const socket = await rawSocket(stack);
    const token = await stack.stack.keys.sign({ sub: "x", role: "anon", exp: Math.floor(Date.now() / 1000) + 2 });
    socket.send(["1", "1", "realtime:short", "phx_join", { config: {}, access_token: token }]);
    expect((await socket.next({ ref: "1" }))[4]).toMatchObject({ status: "ok" });
    expect((await socket.next({ event: "system" }, 15_000))[4]).toMatchObject({
      extension: "system",
      status: "error",
      message: expect.stringMatching(/expired/),
    });
    await socket.next({ event: "phx_close" });
    socket.close();
  });
});
