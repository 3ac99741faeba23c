import { randomUUID } from "node:crypto";
import { describe, expect, test, vi } from "vitest";
import { createEngram, type EngramClient } from "../src/client.js";
import { EngramError } from "../src/errors.js";
import { adminClient, type SignedIn, signedIn, supabaseClient } from "./support/engram.js";

/** Waits for an assertion to hold; realtime delivery on a busy two-core CI can take a while. */
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });

/** Collects a subscription's events and tells when it is live. */
function recorder<E>() {
  const events: E[] = [];
  const errors: EngramError[] = [];
  let ready = false;
  return {
    events,
    errors,
    listener: (event: E) => {
      events.push(event);
    },
    options: {
      onError: (error: EngramError) => {
        errors.push(error);
      },
      onReady: () => {
        ready = true;
      },
    },
    ready: () =>
      eventually(() => {
        if (!ready) throw new Error("not subscribed yet");
      }),
  };
}

/**
 * Leaves out the set-up's own announcements: the deck made and its members added
 * (their ids among `setUpIds`) may still arrive after a join, as on the platform.
 */
function afterSetUp(events: unknown[], ...setUpIds: string[]) {
  return events.filter((event) => {
    const { table, type, ids } = event as { table?: string; type?: string; ids?: string[] | null };
    const fromSetUp = type === "insert" && (table === "decks" || table === "deck_members");
    return !(fromSetUp && ids?.every((id) => setUpIds.includes(id)));
  });
}

async function deckWithCard(owner: SignedIn) {
  const deck = await owner.engram.decks.create({ name: "Realtime" });
  const { data: note, error } = await owner.supabase
    .from("notes")
    .insert({ deck_id: deck.id, kind: "basic", fields: { front: "Q", back: "A" } })
    .select()
    .single();
  if (error) throw error;
  const { data: card } = await owner.supabase.from("cards").select().eq("note_id", note.id).single();
  if (!card) throw new Error("no card");
  return { deck, note, card };
}

function answer(supabase: EngramClient, cardId: string) {
  const now = new Date();
  return supabase.rpc("record_review", {
    p_card_id: cardId,
    p_client_review_id: randomUUID(),
    p_rating: 3,
    p_reviewed_at: now.toISOString(),
    p_duration_ms: 1200,
    p_expected_version: 0,
    p_state: "review",
    p_due: new Date(now.getTime() + 86_400_000).toISOString(),
    p_stability: 3.1,
    p_difficulty: 5.2,
    p_elapsed_days: 0,
    p_scheduled_days: 1,
    p_learning_steps: 0,
    p_reps: 1,
    p_lapses: 0,
  });
}

/** The same account signed in on a second client, as another device. */
async function secondDevice(user: SignedIn): Promise<EngramClient> {
  const supabase = supabaseClient();
  const { error } = await supabase.auth.signInWithPassword({
    email: user.account.email,
    password: user.account.password,
  });
  if (error) throw error;
  return supabase;
}

/** A deck of `owner` with `member` as an editor (inserted as the service role, as an accepted invite would). */
async function shareDeck(owner: SignedIn, member: SignedIn, name = "Shared deck") {
  const deck = await owner.engram.decks.create({ name });
  const { error } = await adminClient()
    .from("deck_members")
    .insert({ deck_id: deck.id, user_id: member.account.id, role: "editor" });
  if (error) throw error;
  return deck;
}

const topics = (supabase: EngramClient) => supabase.getChannels().map((channel) => channel.topic);

describe("realtime: own schedule", () => {
  test("an answer given on another device arrives as the card's schedule and the answer, by id only", async () => {
    const alice = await signedIn("alice");
    const { card } = await deckWithCard(alice);
    const seen = recorder<unknown>();
    const stop = alice.engram.realtime.onOwnSchedule(seen.listener, seen.options);
    await seen.ready();

    const phone = await secondDevice(alice);
    const { error } = await answer(phone, card.id);
    expect(error).toBeNull();

    await eventually(() => {
      expect(seen.events).toEqual(
        expect.arrayContaining([
          { table: "card_states", type: "update", ids: [card.id] },
          { table: "review_logs", type: "insert", ids: [expect.any(String)] },
        ]),
      );
    });
    expect(seen.errors).toEqual([]);
    await stop();
    await phone.realtime.disconnect();
  });

  test("another user's answers do not arrive", async () => {
    const alice = await signedIn("alice");
    const bob = await signedIn("bob");
    const { card } = await deckWithCard(alice);
    const bobs = recorder<unknown>();
    const alices = recorder<unknown>();
    const stopBob = bob.engram.realtime.onOwnSchedule(bobs.listener, bobs.options);
    const stopAlice = alice.engram.realtime.onOwnSchedule(alices.listener, alices.options);
    await Promise.all([bobs.ready(), alices.ready()]);

    expect((await answer(alice.supabase, card.id)).error).toBeNull();
    // Alice's own subscription sees it, so Bob's would have by now (messages go out in commit order).
    await eventually(() => expect(alices.events.length).toBeGreaterThanOrEqual(2));
    expect(bobs.events).toEqual([]);
    await Promise.all([stopBob(), stopAlice()]);
  });

  test("nobody may join another user's own topic", async () => {
    const alice = await signedIn("alice");
    const bob = await signedIn("bob");
    await bob.supabase.realtime.setAuth();
    const prying = bob.supabase.channel(`user:${alice.account.id}`, { config: { private: true } });
    const refusal = await new Promise<string>((resolve) =>
      prying.subscribe((status, error) => {
        if (status !== "SUBSCRIBED" && error) resolve(error.message);
        else if (status === "SUBSCRIBED") resolve("joined");
      }),
    );
    expect(refusal).toMatch(/Unauthorized/);
    await bob.supabase.removeChannel(prying);
  });

  test("the user's streams share one channel; stopping one leaves the others listening", async () => {
    const alice = await signedIn("alice");
    const first = await deckWithCard(alice);
    const second = await deckWithCard(alice);
    const stopped = recorder<unknown>();
    const watching = recorder<unknown>();
    const memberships = recorder<unknown>();
    const stop = alice.engram.realtime.onOwnSchedule(stopped.listener, stopped.options);
    const stopWatching = alice.engram.realtime.onOwnSchedule(watching.listener, watching.options);
    const stopMemberships = alice.engram.realtime.onOwnMemberships(memberships.listener, memberships.options);
    await Promise.all([stopped.ready(), watching.ready(), memberships.ready()]);
    expect(topics(alice.supabase)).toEqual([`realtime:user:${alice.account.id}`]);

    await answer(alice.supabase, first.card.id);
    await eventually(() => expect(stopped.events.length).toBeGreaterThanOrEqual(2));
    await stop();
    const before = stopped.events.length;
    const watchedBefore = watching.events.length;

    await answer(alice.supabase, second.card.id);
    await eventually(() => expect(watching.events.length).toBeGreaterThanOrEqual(watchedBefore + 2));
    expect(stopped.events.length).toBe(before);
    // Schedules are not memberships.
    expect(afterSetUp(memberships.events, alice.account.id, first.deck.id, second.deck.id)).toEqual([]);

    await Promise.all([stopWatching(), stopMemberships()]);
    expect(topics(alice.supabase)).toEqual([]);
  });
});

describe("realtime: deck content", () => {
  test("a member hears notes, members and the deck change by table, kind and ids, never their contents", async () => {
    const owner = await signedIn("owner");
    const member = await signedIn("member");
    const newcomer = await signedIn("newcomer");
    const deck = await shareDeck(owner, member);

    const members = recorder<unknown>();
    const stopMember = member.engram.realtime.onDeckContent(deck.id, members.listener, members.options);
    await members.ready();

    const { data: note } = await owner.supabase
      .from("notes")
      .insert({ deck_id: deck.id, kind: "basic", fields: { front: "Capital of Peru", back: "Lima" } })
      .select()
      .single();
    if (!note) throw new Error("no note");
    await owner.supabase
      .from("notes")
      .update({ fields: { front: "Capital of Peru?", back: "Lima" } })
      .eq("id", note.id);
    await owner.engram.decks.rename(deck.id, "Shared deck (renamed)");
    await adminClient().from("deck_members").insert({ deck_id: deck.id, user_id: newcomer.account.id, role: "viewer" });
    await adminClient().from("deck_members").delete().eq("deck_id", deck.id).eq("user_id", newcomer.account.id);
    await owner.supabase.from("notes").delete().eq("id", note.id);

    // In commit order; the note's card and every schedule follow the note unannounced.
    await eventually(() =>
      expect(afterSetUp(members.events, owner.account.id, member.account.id, deck.id)).toEqual([
        { table: "notes", type: "insert", ids: [note.id] },
        { table: "notes", type: "update", ids: [note.id] },
        { table: "decks", type: "update", ids: [deck.id] },
        { table: "deck_members", type: "insert", ids: [newcomer.account.id] },
        { table: "deck_members", type: "delete", ids: [newcomer.account.id] },
        { table: "notes", type: "delete", ids: [note.id] },
      ]),
    );
    expect(JSON.stringify(members.events)).not.toMatch(/Peru|Lima|renamed/);
    expect(members.errors).toEqual([]);
    await stopMember();
  });

  test("a stranger and a visitor who is not signed in may not join the deck's topic, even a public deck's", async () => {
    const owner = await signedIn("owner");
    const stranger = await signedIn("stranger");
    const visitor = createEngram(supabaseClient());
    const deck = await owner.engram.decks.create({ name: "Members only", is_public: true });

    const strangers = recorder<unknown>();
    const visitors = recorder<unknown>();
    const owners = recorder<unknown>();
    const stops = [
      stranger.engram.realtime.onDeckContent(deck.id, strangers.listener, strangers.options),
      visitor.realtime.onDeckContent(deck.id, visitors.listener, visitors.options),
      owner.engram.realtime.onDeckContent(deck.id, owners.listener, owners.options),
    ];
    await eventually(() => expect(strangers.errors.map((e) => e.code)).toEqual(["permission-denied"]));
    await eventually(() => expect(visitors.errors.map((e) => e.code)).toEqual(["permission-denied"]));
    await owners.ready();

    await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Q", back: "A" } });
    // The owner hears it, so the others would have by now.
    await eventually(() => expect(afterSetUp(owners.events, owner.account.id, deck.id)).toHaveLength(1));
    expect(strangers.events).toEqual([]);
    expect(visitors.events).toEqual([]);
    await Promise.all(stops.map((stop) => stop()));
  });

  test("a removed member still subscribed learns only that something changed, and nothing after a token refresh", async () => {
    const owner = await signedIn("owner");
    const member = await signedIn("member");
    const deck = await shareDeck(owner, member);
    const removed = recorder<unknown>();
    const owners = recorder<unknown>();
    const stopRemoved = member.engram.realtime.onDeckContent(deck.id, removed.listener, removed.options);
    const stopOwner = owner.engram.realtime.onDeckContent(deck.id, owners.listener, owners.options);
    await Promise.all([removed.ready(), owners.ready()]);

    await owner.engram.members.remove(deck.id, member.account.id);
    // Realtime checks a channel at join and token refresh only: the removal itself still reaches them, by id.
    await eventually(() =>
      expect(afterSetUp(removed.events, owner.account.id, member.account.id, deck.id)).toEqual([
        { table: "deck_members", type: "delete", ids: [member.account.id] },
      ]),
    );

    const { error } = await member.supabase.auth.refreshSession();
    expect(error).toBeNull();
    await eventually(() => expect(removed.errors.map((e) => e.code)).toEqual(["permission-denied"]));

    await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Q", back: "A" } });
    await eventually(() => expect(owners.events).toContainEqual(expect.objectContaining({ table: "notes" })));
    expect(afterSetUp(removed.events, owner.account.id, member.account.id, deck.id)).toHaveLength(1);
    await Promise.all([stopRemoved(), stopOwner()]);
  });

  test("broadcasts on the deck's topic that are not change messages are ignored", async () => {
    const owner = await signedIn("owner");
    const member = await signedIn("member");
    const deck = await shareDeck(owner, member);
    const heard = recorder<unknown>();
    const stop = member.engram.realtime.onDeckContent(deck.id, heard.listener, heard.options);
    await heard.ready();

    // Members may send on their deck's topic (presence, editing signals), so anything may arrive there.
    await owner.supabase.realtime.setAuth();
    const sender = owner.supabase.channel(`deck:${deck.id}`, { config: { private: true, broadcast: { ack: true } } });
    await new Promise<void>((resolve, reject) =>
      sender.subscribe((status, error) => {
        if (status === "SUBSCRIBED") resolve();
        else if (error) reject(error);
      }),
    );
    for (const payload of [
      { table: "notes", type: "insert", ids: ["not-an-id"] },
      { table: "profiles", type: "update", ids: null },
      { table: "notes", type: "upsert", ids: null },
      { ids: [] },
      { table: "notes", type: "update", ids: null },
    ]) {
      expect(await sender.send({ type: "broadcast", event: "change", payload })).toBe("ok");
    }

    // Sent in order on one channel: the last, well-formed one arriving means the others came first.
    await eventually(() =>
      expect(afterSetUp(heard.events, owner.account.id, member.account.id, deck.id)).toEqual([
        { table: "notes", type: "update", ids: null },
      ]),
    );
    await owner.supabase.removeChannel(sender);
    await stop();
  });

  test("a malformed deck id is refused before subscribing", () => {
    const listener = vi.fn();
    return signedIn().then(({ engram }) => {
      expect(() => engram.realtime.onDeckContent("not-a-deck", listener)).toThrow(EngramError);
      expect(() => engram.realtime.onDeckContent("not-a-deck", listener)).toThrow(
        expect.objectContaining({ code: "validation" }),
      );
      expect(engram.supabase.getChannels()).toEqual([]);
    });
  });
});

describe("realtime: import progress", () => {
  test("the user's import jobs are told as they progress; other users' and other jobs are not", async () => {
    const alice = await signedIn("alice");
    const bob = await signedIn("bob");
    const all = recorder<unknown>();
    const bobs = recorder<unknown>();
    const stopAll = alice.engram.realtime.onImportProgress(all.listener, all.options);
    const stopBob = bob.engram.realtime.onImportProgress(bobs.listener, bobs.options);
    await Promise.all([all.ready(), bobs.ready()]);

    const admin = adminClient();
    const { data: job } = await admin
      .from("import_jobs")
      .insert({ user_id: alice.account.id, source: "csv", total: 10 })
      .select()
      .single();
    if (!job) throw new Error("no job");
    // Heard before the next listener attaches to the shared channel, so it is not theirs to hear.
    await eventually(() => expect(all.events).toHaveLength(1));
    const one = recorder<unknown>();
    const stopOne = alice.engram.realtime.onImportProgress(one.listener, { ...one.options, jobId: job.id });
    await one.ready();
    const { data: other } = await admin
      .from("import_jobs")
      .insert({ user_id: alice.account.id, source: "apkg" })
      .select()
      .single();
    await admin.from("import_jobs").update({ status: "running", processed: 4 }).eq("id", job.id);
    await admin.from("import_jobs").update({ status: "done", processed: 10 }).eq("id", job.id);

    await eventually(() => {
      expect(all.events).toEqual([
        { table: "import_jobs", type: "insert", ids: [job.id] },
        { table: "import_jobs", type: "insert", ids: [other?.id] },
        { table: "import_jobs", type: "update", ids: [job.id] },
        { table: "import_jobs", type: "update", ids: [job.id] },
      ]);
    });
    await eventually(() =>
      expect(one.events).toEqual([
        { table: "import_jobs", type: "update", ids: [job.id] },
        { table: "import_jobs", type: "update", ids: [job.id] },
      ]),
    );
    expect(bobs.events).toEqual([]);
    await Promise.all([stopAll(), stopBob(), stopOne()]);
  });
});

describe("realtime: reconnects", () => {
  test("a dropped connection yields a resync and events keep flowing afterwards", async () => {
    const alice = await signedIn("alice");
    const first = await deckWithCard(alice);
    const second = await deckWithCard(alice);
    const seen = recorder<{ type: string; table?: string }>();
    const stop = alice.engram.realtime.onOwnSchedule(seen.listener, seen.options);
    await seen.ready();
    await answer(alice.supabase, first.card.id);
    await eventually(() => expect(seen.events.length).toBeGreaterThanOrEqual(2));

    await alice.supabase.realtime.disconnect();
    alice.supabase.realtime.connect();
    await eventually(() => expect(seen.events).toContainEqual({ type: "resync" }));

    const resyncAt = seen.events.findIndex((event) => event.type === "resync");
    await answer(alice.supabase, second.card.id);
    await eventually(() =>
      expect(seen.events.slice(resyncAt)).toContainEqual(
        expect.objectContaining({ table: "review_logs", type: "insert" }),
      ),
    );
    expect(seen.errors).toEqual([]);
    await stop();
  });

  test("a channel the server closes for a bad token joins again after the token refresh, with a resync", async () => {
    const alice = await signedIn("alice");
    const { card } = await deckWithCard(alice);
    const seen = recorder<{ type: string; table?: string }>();
    const stop = alice.engram.realtime.onOwnSchedule(seen.listener, seen.options);
    await seen.ready();

    // The server checks each new token and shuts the channel when it is invalid.
    await alice.supabase.realtime.setAuth("not-a-jwt");
    await eventually(() => expect(seen.errors.map((e) => e.code)).toEqual(["auth/session-expired"]));

    const { error } = await alice.supabase.auth.refreshSession();
    expect(error).toBeNull();
    await eventually(() => expect(seen.events).toContainEqual({ type: "resync" }));
    await answer(alice.supabase, card.id);
    await eventually(() =>
      expect(seen.events).toEqual(expect.arrayContaining([expect.objectContaining({ table: "review_logs" })])),
    );
    await stop();
  });
});
