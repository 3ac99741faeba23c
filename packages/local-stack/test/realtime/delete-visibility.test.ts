import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";
import { addMarker, createDeck, createDecksFixture } from "./decks-fixture.js";
import { type collector, newUser, realtimeClients, subscribe, watchDeletes } from "./helpers.js";

type User = { id: string; token: string };

// Strict mode; hosted-behaviour.test.ts pins what hosted Realtime does instead.
const stack = stackPerFile({ strict: true });
const realtime = realtimeClients(stack);
const client = realtime.client;
let owner: User;
let member: User;
let coMember: User;
let stranger: User;

beforeAll(async () => {
  await createDecksFixture(stack);
  owner = await newUser(stack);
  member = await newUser(stack);
  coMember = await newUser(stack);
  stranger = await newUser(stack);
});
afterAll(() => realtime.closeAll());

const watch = async (name: string, table: string, token?: string) => watchDeletes(await client(token), name, table);

async function afterMarker(watchers: Array<{ markers: ReturnType<typeof collector<string>> }>, label: string) {
  // Counted before the insert: its marker may arrive before `addMarker` returns.
  const expected = watchers.map((w) => w.markers.items.length + 1);
  await addMarker(stack, label);
  await Promise.all(watchers.map((w, index) => w.markers.waitFor(expected[index] ?? 1)));
}

describe("strict mode: DELETE events and row-level security", () => {
  it("sends a member's removal to the deck's members and the removed user, not to strangers or anon", async () => {
    const deck = await createDeck(stack, owner.id, [member.id, coMember.id]);
    const asMember = await watch("members-m", "rt_deck_members", member.token);
    const asCoMember = await watch("members-c", "rt_deck_members", coMember.token);
    const asStranger = await watch("members-s", "rt_deck_members", stranger.token);
    const asAnon = await watch("members-a", "rt_deck_members");
    await afterMarker([asMember, asCoMember, asStranger, asAnon], "subscribed");

    const ownerClient = clientFor(stack, stack.anonKey, { accessToken: async () => owner.token });
    const { error } = await ownerClient.from("rt_deck_members").delete().eq("deck_id", deck).eq("user_id", member.id);
    expect(error).toBeNull();
    await afterMarker([asMember, asCoMember, asStranger, asAnon], "removed");

    for (const seen of [asMember, asCoMember]) {
      expect(seen.deletes.items).toHaveLength(1);
      expect(seen.deletes.items[0]).toMatchObject({
        eventType: "DELETE",
        table: "rt_deck_members",
        old: { deck_id: deck, user_id: member.id },
      });
      expect(Object.keys(seen.deletes.items[0]?.old ?? {}).sort()).toEqual(["deck_id", "user_id"]);
    }
    expect(asStranger.deletes.items).toEqual([]);
    expect(asAnon.deletes.items).toEqual([]);
  });

  it("sends each user only the deletions of their own card states", async () => {
    const deck = await createDeck(stack, owner.id, [member.id]);
    await stack.stack.db.query(
      "insert into public.rt_card_states (card_id, user_id, deck_id) values (1, $1, $3), (1, $2, $3), (2, $2, $3)",
      [owner.id, member.id, deck],
    );
    const asOwner = await watch("states-o", "rt_card_states", owner.token);
    const asMember = await watch("states-m", "rt_card_states", member.token);
    const asStranger = await watch("states-s", "rt_card_states", stranger.token);
    await afterMarker([asOwner, asMember, asStranger], "subscribed");

    await stack.stack.db.query("delete from public.rt_card_states where deck_id = $1", [deck]);
    await afterMarker([asOwner, asMember, asStranger], "deleted");

    expect(asOwner.deletes.items.map((c) => c.old)).toEqual([{ card_id: 1, user_id: owner.id }]);
    expect(asMember.deletes.items.map((c) => c.old)).toEqual([
      { card_id: 1, user_id: member.id },
      { card_id: 2, user_id: member.id },
    ]);
    expect(asStranger.deletes.items).toEqual([]);
  });

  it("judges a deleted deck as its members saw it before the delete, cascaded rows included", async () => {
    const deck = await createDeck(stack, owner.id, [member.id]);
    const asMember = await watch("decks-m", "rt_decks", member.token);
    const asStranger = await watch("decks-s", "rt_decks", stranger.token);
    const memberships = await watch("decks-members-m", "rt_deck_members", member.token);
    await afterMarker([asMember, asStranger, memberships], "subscribed");

    const ownerClient = clientFor(stack, stack.anonKey, { accessToken: async () => owner.token });
    const { error } = await ownerClient.from("rt_decks").delete().eq("id", deck);
    expect(error).toBeNull();
    await afterMarker([asMember, asStranger, memberships], "deck deleted");

    expect(asMember.deletes.items.map((c) => c.old)).toEqual([{ id: deck }]);
    expect(asStranger.deletes.items).toEqual([]);
    expect(memberships.deletes.items.map((c) => c.old)).toEqual(
      expect.arrayContaining([
        { deck_id: deck, user_id: owner.id },
        { deck_id: deck, user_id: member.id },
      ]),
    );
    expect(memberships.deletes.items).toHaveLength(2);
  });

  it("refuses a subscription to a table the role may not select from", async () => {
    const anon = await client();
    const refused = new Promise<{ status: string; error?: Error }>((resolve) => {
      anon
        .channel("anon-states")
        .on("postgres_changes", { event: "*", schema: "public", table: "rt_card_states" }, () => undefined)
        .subscribe((status, error) => {
          if (status !== "SUBSCRIBED") resolve({ status, error });
        });
    });
    const outcome = await refused;
    expect(outcome.status).toBe("CHANNEL_ERROR");
    expect(outcome.error?.message).toMatch(/Unauthorized.*public\.rt_card_states/);

    // A signed-in user holds the privilege and may subscribe.
    const signedIn = await client(member.token);
    await expect(
      subscribe(
        signedIn
          .channel("member-states")
          .on("postgres_changes", { event: "*", schema: "public", table: "rt_card_states" }, () => undefined),
      ),
    ).resolves.toBeDefined();
  });
});
