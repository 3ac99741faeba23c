import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { createDeck, createDecksFixture } from "./decks-fixture.js";
import { collector, newUser, rawSocket, realtimeClient, subscribe } from "./helpers.js";

type User = { id: string; token: string };

// Strict mode; hosted-behaviour.test.ts pins the hosted re-check at token refresh.
const stack = stackPerFile({ strict: true });
const clients: SupabaseClient[] = [];
let owner: User;
let member: User;
let coMember: User;

beforeAll(async () => {
  await createDecksFixture(stack);
  owner = await newUser(stack);
  member = await newUser(stack);
  coMember = await newUser(stack);
});
afterAll(async () => {
  for (const client of clients) await client.removeAllChannels();
});

async function client(token: string) {
  const c = await realtimeClient(stack, token);
  clients.push(c);
  return c;
}

describe("strict mode: private channels when access is revoked", () => {
  it("shuts a removed member out of the deck room and stops sending them its broadcasts", async () => {
    const deck = await createDeck(stack, owner.id, [member.id, coMember.id]);
    const topic = `deck:${deck}`;

    const ownerRoom = await subscribe((await client(owner.token)).channel(topic, { config: { private: true } }));
    const coMemberPings = collector<unknown>();
    await subscribe(
      (await client(coMember.token))
        .channel(topic, { config: { private: true } })
        .on("broadcast", { event: "ping" }, (p) => coMemberPings.push(p.payload)),
    );
    const memberPings = collector<unknown>();
    const memberSystem = collector<Record<string, unknown>>();
    const memberStatuses = collector<string>();
    (await client(member.token))
      .channel(topic, { config: { private: true } })
      .on("broadcast", { event: "ping" }, (p) => memberPings.push(p.payload))
      .on("system", {}, (p) => memberSystem.push(p))
      .subscribe((status) => memberStatuses.push(status));
    await memberStatuses.waitFor(1);
    expect(memberStatuses.items).toEqual(["SUBSCRIBED"]);

    // The same member on a raw socket, to see every frame the server still sends.
    const raw = await rawSocket(stack);
    raw.send([
      "1",
      "1",
      `realtime:${topic}`,
      "phx_join",
      { config: { private: true, broadcast: {}, presence: {} }, access_token: member.token },
    ]);
    expect((await raw.next({ ref: "1" }))[4]).toMatchObject({ status: "ok" });

    await ownerRoom.send({ type: "broadcast", event: "ping", payload: { n: 1 } });
    await memberPings.waitFor(1);
    await coMemberPings.waitFor(1);

    const ownerClient = clientFor(stack, stack.anonKey, { accessToken: async () => owner.token });
    const { error } = await ownerClient.from("rt_deck_members").delete().eq("deck_id", deck).eq("user_id", member.id);
    expect(error).toBeNull();

    await memberStatuses.waitFor(2);
    expect(memberStatuses.items).toEqual(["SUBSCRIBED", "CLOSED"]);
    expect(memberSystem.items).toEqual([
      expect.objectContaining({
        extension: "system",
        status: "error",
        message: `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
      }),
    ]);
    expect((await raw.next({ event: "system", topic: `realtime:${topic}` }))[4]).toMatchObject({ status: "error" });
    await raw.next({ event: "phx_close", topic: `realtime:${topic}` });

    await ownerRoom.send({ type: "broadcast", event: "ping", payload: { n: 2 } });
    await coMemberPings.waitFor(2);
    // The server fans a broadcast out to every socket at once, so once the co-member has
    // it, anything for the removed member is already on its socket, ahead of this reply.
    raw.send([null, "hb", "phoenix", "heartbeat", {}]);
    await raw.next({ ref: "hb" });
    expect(raw.frames.items.filter((frame) => frame[3] === "broadcast")).toHaveLength(1);
    expect(memberPings.items).toEqual([{ n: 1 }]);
    raw.close();
  });

  it("keeps members who still belong to the deck in the room", async () => {
    const deck = await createDeck(stack, owner.id, [member.id, coMember.id]);
    const topic = `deck:${deck}`;
    const statuses = collector<string>();
    const pings = collector<unknown>();
    (await client(coMember.token))
      .channel(topic, { config: { private: true } })
      .on("broadcast", { event: "ping" }, (p) => pings.push(p.payload))
      .subscribe((status) => statuses.push(status));
    await statuses.waitFor(1);

    const ownerClient = clientFor(stack, stack.anonKey, { accessToken: async () => owner.token });
    await ownerClient.from("rt_deck_members").delete().eq("deck_id", deck).eq("user_id", member.id);
    const ownerRoom = await subscribe((await client(owner.token)).channel(topic, { config: { private: true } }));
    await ownerRoom.send({ type: "broadcast", event: "ping", payload: { still: "here" } });
    await pings.waitFor(1);
    expect(pings.items).toEqual([{ still: "here" }]);
    expect(statuses.items).toEqual(["SUBSCRIBED"]);
  });
});
