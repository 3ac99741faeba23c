import { randomUUID } from "node:crypto";
import { describe, expect, test, vi } from "vitest";
import type { EngramClient } from "../src/client.js";
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

describe("realtime: own schedule", () => {
  test("an answer given on another device arrives as a card state update and a review log insert", async () => {
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
          expect.objectContaining({
            table: "card_states",
            type: "update",
            row: expect.objectContaining({ card_id: card.id, state: "review", version: 1 }),
          }),
          expect.objectContaining({
            table: "review_logs",
            type: "insert",
            row: expect.objectContaining({ card_id: card.id, rating: 3 }),
          }),
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
    // Alice's own subscription sees it, so Bob's would have by now (changes go out in commit order).
    await eventually(() => expect(alices.events.length).toBeGreaterThanOrEqual(2));
    expect(bobs.events).toEqual([]);
    await Promise.all([stopBob(), stopAlice()]);
  });

  test("unsubscribing stops the events", async () => {
    const alice = await signedIn("alice");
    const first = await deckWithCard(alice);
    const second = await deckWithCard(alice);
    const stopped = recorder<unknown>();
    const watching = recorder<unknown>();
    const stop = alice.engram.realtime.onOwnSchedule(stopped.listener, stopped.options);
    const stopWatching = alice.engram.realtime.onOwnSchedule(watching.listener, watching.options);
    await Promise.all([stopped.ready(), watching.ready()]);

    await answer(alice.supabase, first.card.id);
    await eventually(() => expect(stopped.events.length).toBeGreaterThanOrEqual(2));
    await stop();
    const before = stopped.events.length;
    const watchedBefore = watching.events.length;

    await answer(alice.supabase, second.card.id);
    await eventually(() => expect(watching.events.length).toBeGreaterThanOrEqual(watchedBefore + 2));
    expect(stopped.events.length).toBe(before);
    await stopWatching();
  });
});

describe("realtime: deck content", () => {
  test("a member sees notes, cards, members and the deck change; a non-member sees none of its rows", async () => {
    const owner = await signedIn("owner");
    const member = await signedIn("member");
    const outsider = await signedIn("outsider");
    const newcomer = await signedIn("newcomer");
    const deck = await owner.engram.decks.create({ name: "Shared deck" });
    const { error: joinError } = await adminClient()
      .from("deck_members")
      .insert({ deck_id: deck.id, user_id: member.account.id, role: "editor" });
    expect(joinError).toBeNull();

    const members = recorder<unknown>();
    const outsiders = recorder<unknown>();
    const stopMember = member.engram.realtime.onDeckContent(deck.id, members.listener, members.options);
    const stopOutsider = outsider.engram.realtime.onDeckContent(deck.id, outsiders.listener, outsiders.options);
    await Promise.all([members.ready(), outsiders.ready()]);

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

    await eventually(() => {
      expect(members.events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ table: "notes", type: "insert", row: expect.objectContaining({ id: note.id }) }),
          expect.objectContaining({
            table: "cards",
            type: "insert",
            row: expect.objectContaining({ note_id: note.id }),
          }),
          expect.objectContaining({
            table: "notes",
            type: "update",
            row: expect.objectContaining({ fields: { front: "Capital of Peru?", back: "Lima" } }),
          }),
          expect.objectContaining({
            table: "decks",
            type: "update",
            row: expect.objectContaining({ name: "Shared deck (renamed)" }),
          }),
          expect.objectContaining({
            table: "deck_members",
            type: "insert",
            row: expect.objectContaining({ user_id: newcomer.account.id }),
          }),
          expect.objectContaining({
            table: "deck_members",
            type: "delete",
            old: { deck_id: deck.id, user_id: newcomer.account.id },
          }),
          expect.objectContaining({ table: "notes", type: "delete", old: { id: note.id } }),
        ]),
      );
    });
    // Row-level security hides every row from the outsider; deletions carry only keys and skip it (as in Supabase).
    expect(outsiders.events.filter((e) => "row" in (e as object))).toEqual([]);
    expect(members.errors).toEqual([]);
    await Promise.all([stopMember(), stopOutsider()]);
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
  test("the user's import jobs arrive as they progress; other users' and other jobs do not", async () => {
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
      expect(all.events.map((e) => e as { type: string; row: { id: string; status: string } })).toEqual([
        expect.objectContaining({ type: "insert", row: expect.objectContaining({ id: job.id, status: "queued" }) }),
        expect.objectContaining({ type: "insert", row: expect.objectContaining({ id: other?.id }) }),
        expect.objectContaining({ type: "update", row: expect.objectContaining({ status: "running", processed: 4 }) }),
        expect.objectContaining({ type: "update", row: expect.objectContaining({ status: "done", processed: 10 }) }),
      ]);
    });
    await eventually(() => expect(one.events).toHaveLength(2));
    expect(one.events.every((e) => (e as { row: { id: string } }).row.id === job.id)).toBe(true);
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
