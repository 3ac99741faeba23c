// Node has no IndexedDB; fake-indexeddb provides the browser API the IndexedDB store is written for.
import "fake-indexeddb/auto";
import { randomUUID } from "node:crypto";
import { createScheduler, Rating } from "@engram/core";
import { describe, expect, test, vi } from "vitest";
import { createEngram } from "../src/client.js";
import {
  indexedDbReviewStore,
  memoryReviewStore,
  type ReviewSession,
  type ReviewSessionEvent,
  type StudyCard,
  type StudyNote,
} from "../src/study/index.js";
import { adminClient, type SignedIn, signedIn, supabaseClient } from "./support/engram.js";

const scheduler = createScheduler();
const retry = { initialDelayMs: 20, maxDelayMs: 200 };
// Other suites share the machine's two cores; a real round trip can take longer than waitFor's default second.
const patiently = { timeout: 10_000 };

/**
 * A fetch for supabase-js that can lose the network as a device does:
 * `offline` fails every request before it leaves, `lose-responses` lets the
 * server handle it but loses the answer, `held` keeps requests waiting.
 */
function network() {
  let mode: "online" | "offline" | "lose-responses" | "held" = "online";
  let release = () => {};
  let held = Promise.resolve();
  const request: typeof fetch = async (input, init) => {
    if (mode === "offline") throw new TypeError("fetch failed");
    if (mode === "held") await held;
    const response = await fetch(input, init);
    if (mode === "lose-responses") throw new TypeError("fetch failed");
    return response;
  };
  return {
    fetch: request,
    set(next: typeof mode) {
      if (next === "held") held = new Promise((resolve) => (release = resolve));
      else release();
      mode = next;
    },
  };
}

async function deckWithCards(user: SignedIn, count: number) {
  const deck = await user.engram.decks.create({ name: "Study" });
  const notes = Array.from({ length: count }, (_, i) => ({
    deck_id: deck.id,
    kind: "basic" as const,
    fields: { front: `question ${i}`, back: `answer ${i}` },
  }));
  const { error } = await user.supabase.from("notes").insert(notes);
  if (error) throw error;
  return deck;
}

async function serverLogs(userId: string) {
  const { data, error } = await adminClient()
    .from("review_logs")
    .select("client_review_id, card_id, rating")
    .eq("user_id", userId)
    .order("reviewed_at");
  if (error) throw error;
  return data;
}

async function serverStates(userId: string, cardIds: string[]) {
  const { data, error } = await adminClient()
    .from("card_states")
    .select("card_id, state, due, reps, version")
    .eq("user_id", userId)
    .in("card_id", cardIds);
  if (error) throw error;
  return new Map(data.map((row) => [row.card_id, row]));
}

function currentId(session: ReviewSession): string | undefined {
  return session.current?.card.card_id;
}

function events(session: ReviewSession): ReviewSessionEvent[] {
  const seen: ReviewSessionEvent[] = [];
  session.subscribe((event) => seen.push(event));
  return seen;
}

describe("review session", () => {
  test("the next card is served at once while the answer is still on its way", async () => {
    const net = network();
    const user = await signedIn("session", { global: { fetch: net.fetch } });
    const deck = await deckWithCards(user, 2);
    const session = await user.engram.study.session({ deckId: deck.id, retry });
    const first = session.current;
    expect(first?.intervals[Rating.again].label).toBe("1m");
    expect(first?.intervals[Rating.good].label).toBe("10m");

    net.set("held");
    session.answer(Rating.easy, { durationMs: 1200 });
    expect(currentId(session)).not.toBe(first?.card.card_id);
    expect(session.getState()).toMatchObject({ pending: 1, counts: { new: 1, learning: 0, review: 0 } });
    expect(await serverLogs(user.account.id)).toEqual([]);

    net.set("online");
    await session.flush();
    expect(session.getState().pending).toBe(0);
    expect(await serverLogs(user.account.id)).toEqual([
      { client_review_id: expect.any(String), card_id: first?.card.card_id, rating: Rating.easy },
    ]);
    await session.close();
  });

  test("a card answered Again comes back in the same session, after the other cards", async () => {
    const user = await signedIn("session");
    const deck = await deckWithCards(user, 2);
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    const [first, second] = [currentId(session), session.getState().counts];
    expect(second).toEqual({ new: 2, learning: 0, review: 0 });

    session.answer(Rating.again);
    expect(session.counts).toEqual({ new: 1, learning: 1, review: 0 });
    const other = currentId(session);
    expect(other).not.toBe(first);
    session.answer(Rating.good);
    // Nothing new is left, so the learning card due first comes back within the 20-minute look-ahead.
    expect(currentId(session)).toBe(first);
    expect(session.current?.card).toMatchObject({ queue: "learning", version: 1, schedule: { state: "learning" } });
    expect(session.counts).toEqual({ new: 0, learning: 2, review: 0 });

    session.answer(Rating.easy);
    await session.flush();
    const logs = await serverLogs(user.account.id);
    expect(logs.map((log) => [log.card_id, log.rating])).toEqual([
      [first, Rating.again],
      [other, Rating.good],
      [first, Rating.easy],
    ]);
    expect((await serverStates(user.account.id, [first ?? ""])).get(first ?? "")).toMatchObject({
      state: "review",
      version: 2,
    });
    await session.close();
  });

  test("undo takes back up to ten answers, on the server once they were saved", async () => {
    const user = await signedIn("undo");
    const deck = await deckWithCards(user, 12);
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    const answered: string[] = [];
    for (let i = 0; i < 12; i++) {
      answered.push(currentId(session) ?? "");
      session.answer(Rating.easy);
    }
    expect(session.getState().done).toBe(true);
    await session.flush();

    for (let i = 11; i >= 2; i--) expect(session.undo()?.card_id).toBe(answered[i]);
    expect(session.undo()).toBeNull();
    expect(session.getState()).toMatchObject({ canUndo: false, counts: { new: 10 } });
    expect(currentId(session)).toBe(answered[2]);
    expect(session.current?.card.version).toBe(2);

    await session.flush();
    expect((await serverLogs(user.account.id)).map((log) => log.card_id)).toEqual(answered.slice(0, 2));
    const states = await serverStates(user.account.id, answered);
    expect(states.get(answered[5] ?? "")).toMatchObject({ state: "new", reps: 0, version: 2 });

    // The restored card is answered again on the version the undo left it at: no conflict, one more log.
    expect(session.answer(Rating.good).card.version).toBe(3);
    await session.flush();
    expect(await serverLogs(user.account.id)).toHaveLength(3);
    expect(session.getState().failures).toEqual([]);
    await session.close();
  });

  test("an answer undone before it was sent is dropped from the store and never reaches the server", async () => {
    const net = network();
    const user = await signedIn("undo", { global: { fetch: net.fetch } });
    const deck = await deckWithCards(user, 2);
    const store = memoryReviewStore();
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, store, retry });
    const first = currentId(session);

    net.set("offline");
    session.answer(Rating.good);
    await vi.waitFor(async () => expect(await store.list()).toHaveLength(1), patiently);
    expect(session.undo()?.card_id).toBe(first);
    await vi.waitFor(async () => expect(await store.list()).toEqual([]), patiently);
    expect(session.pending()).toEqual([]);

    net.set("online");
    await session.flush();
    expect(await serverLogs(user.account.id)).toEqual([]);
    await session.close();
  });

  test("an answer undone while on its way is saved, then undone on the server", async () => {
    const net = network();
    const user = await signedIn("undo", { global: { fetch: net.fetch } });
    const deck = await deckWithCards(user, 2);
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    const first = currentId(session);

    net.set("held");
    session.answer(Rating.good);
    // Sending starts at once, so the answer is already on its way and cannot simply be dropped.
    expect(session.pending()).toHaveLength(1);
    expect(session.undo()).toMatchObject({ card_id: first, version: 2 });
    expect(session.pending().map((entry) => entry.kind)).toEqual(["answer", "undo"]);

    net.set("online");
    await session.flush();
    expect(await serverLogs(user.account.id)).toEqual([]);
    expect((await serverStates(user.account.id, [first ?? ""])).get(first ?? "")).toMatchObject({
      state: "new",
      version: 2,
    });
    await session.close();
  });

  test("an answer saved before going offline can still be undone; the undo is sent when the connection returns", async () => {
    const net = network();
    const user = await signedIn("undo", { global: { fetch: net.fetch } });
    const deck = await deckWithCards(user, 2);
    const store = memoryReviewStore();
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, store, retry });
    session.answer(Rating.easy);
    await session.flush();
    expect(await serverLogs(user.account.id)).toHaveLength(1);

    net.set("offline");
    session.undo();
    await vi.waitFor(
      async () => expect(await store.list()).toEqual([expect.objectContaining({ kind: "undo" })]),
      patiently,
    );
    net.set("online");
    await session.flush();
    expect(await serverLogs(user.account.id)).toEqual([]);
    expect(await store.list()).toEqual([]);
    await session.close();
  });

  test("a note edited during the session shows its new content on its cards; a card the edit removed leaves", async () => {
    const user = await signedIn("session");
    // Both cloze cards in the session: their deck does not bury new siblings.
    const deck = await user.engram.decks.create({ name: "Edit", bury_new: false });
    const note = await user.engram.notes.create(deck.id, {
      kind: "cloze",
      fields: { text: "{{c1::Paris}} is in {{c2::France}}", extra: "" },
    });
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    expect(session.counts.new).toBe(2);
    const shown = session.current?.card;
    expect(shown?.note.id).toBe(note.id);

    const edited = await user.engram.notes.update(note.id, note.version, {
      kind: "cloze",
      fields: { text: `{{c${shown?.ordinal}::Lyon}} is a city`, extra: "" },
    });
    const seen = events(session);
    // The row's fields are jsonb; the notes_fields_shape constraint makes them a cloze's.
    const updated = { id: edited.id, kind: edited.kind, fields: edited.fields, tags: edited.tags } as StudyNote;
    expect(session.updateNote(updated)).toBe(2);
    expect(session.current?.card.card_id).toBe(shown?.card_id);
    expect(session.current?.card.note.fields).toEqual({ text: `{{c${shown?.ordinal}::Lyon}} is a city`, extra: "" });
    // The other cloze number is gone from the note, so its card left the session.
    expect(session.counts).toEqual({ new: 1, learning: 0, review: 0 });
    expect(seen.some((event) => event.type === "change")).toBe(true);

    expect(session.updateNote({ id: randomUUID(), kind: "basic", fields: { front: "a", back: "b" }, tags: [] })).toBe(
      0,
    );
    await session.close();
  });

  test("learning cards due later than the look-ahead wait, and the session says when the next one is", async () => {
    const user = await signedIn("waiting");
    const deck = await deckWithCards(user, 1);
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");
    const due = new Date(Date.now() + 30 * 60_000);
    const later: StudyCard = { ...card, queue: "learning", schedule: { ...card.schedule, state: "learning", due } };
    const session = await user.engram.study.session({ cards: [later], scheduler, retry });

    expect(session.getState()).toMatchObject({ current: null, done: false, counts: { learning: 1 } });
    expect(session.getState().nextAt?.getTime()).toBe(due.getTime() - 20 * 60_000);
    expect(() => session.answer(Rating.good)).toThrow(expect.objectContaining({ code: "not-found" }));
    await session.close();
  });

  test("answers made offline wait in memory and are sent when the connection returns", async () => {
    const net = network();
    const user = await signedIn("offline", { global: { fetch: net.fetch } });
    const deck = await deckWithCards(user, 3);
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    const seen = events(session);

    net.set("offline");
    session.answer(Rating.easy);
    session.answer(Rating.easy);
    await vi.waitFor(() => expect(session.getState().offline).toBe(true), patiently);
    expect(seen).toContainEqual(
      expect.objectContaining({ type: "retrying", error: expect.objectContaining({ code: "network" }) }),
    );
    await expect(session.flush()).rejects.toMatchObject({ code: "network" });
    expect(session.getState()).toMatchObject({ pending: 2, counts: { new: 1 } });

    net.set("online");
    await vi.waitFor(() => expect(session.getState()).toMatchObject({ pending: 0, offline: false }), patiently);
    expect(await serverLogs(user.account.id)).toHaveLength(2);
    expect(seen.filter((event) => event.type === "saved")).toHaveLength(2);
    await session.close();
  });

  test("answers made after signing out wait for the user to sign in again", async () => {
    const user = await signedIn("signout");
    const deck = await deckWithCards(user, 2);
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    await user.engram.auth.signOut();

    session.answer(Rating.easy);
    await vi.waitFor(
      () => expect(session.getState().waitingError).toMatchObject({ code: "permission-denied" }),
      patiently,
    );
    expect(session.getState()).toMatchObject({ pending: 1, failures: [], offline: false });

    await user.engram.auth.signIn({ email: user.account.email, password: user.account.password });
    await session.flush();
    expect(await serverLogs(user.account.id)).toHaveLength(1);
    expect(session.getState().waitingError).toBeNull();
    await session.close();
  });

  test("an answer whose response was lost is retried and still recorded once", async () => {
    const net = network();
    const user = await signedIn("offline", { global: { fetch: net.fetch } });
    const deck = await deckWithCards(user, 1);
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });

    net.set("lose-responses");
    session.answer(Rating.easy);
    await vi.waitFor(async () => expect(await serverLogs(user.account.id)).toHaveLength(1), patiently);
    expect(session.getState().pending).toBe(1);

    net.set("online");
    await session.flush();
    expect(await serverLogs(user.account.id)).toHaveLength(1);
    await session.close();
  });

  test("answers made offline survive a reload (IndexedDB) and reach the server exactly once", async () => {
    const net = network();
    const user = await signedIn("reload", { global: { fetch: net.fetch } });
    const deck = await deckWithCards(user, 4);
    const cards = await user.engram.study.queue({ deckId: deck.id });
    const storeName = `engram-reviews-${randomUUID()}`;
    const before = await user.engram.study.session({ cards, scheduler, store: indexedDbReviewStore(storeName), retry });

    net.set("offline");
    const answers = [Rating.good, Rating.again, Rating.easy].map((rating) => before.answer(rating));
    await vi.waitFor(() => expect(before.getState().offline).toBe(true), patiently);
    await before.close();

    // The page reloads while still offline: a new session over the same store, from the cards the app kept.
    const store = indexedDbReviewStore(storeName);
    expect((await store.list()).map((entry) => entry.id).sort()).toEqual(answers.map((a) => a.clientReviewId).sort());
    const after = await user.engram.study.session({ cards, scheduler, store, retry });
    expect(after.pending()).toHaveLength(3);
    // Answered cards show their stored answers: two learning cards wait, the easy one is gone, one new card is left.
    expect(after.counts).toEqual({ new: 1, learning: 2, review: 0 });
    expect(currentId(after)).toBe(cards[3]?.card_id);

    net.set("online");
    await after.flush();
    expect(await store.list()).toEqual([]);
    const logs = await serverLogs(user.account.id);
    expect(logs.map((log) => log.client_review_id).sort()).toEqual(answers.map((a) => a.clientReviewId).sort());
    const states = await serverStates(
      user.account.id,
      answers.map((a) => a.card.card_id),
    );
    for (const { card } of answers) {
      const state = states.get(card.card_id);
      expect(state).toMatchObject({ state: card.schedule.state, reps: 1, version: 1 });
      expect(new Date(state?.due ?? 0).getTime()).toBe(card.schedule.due.getTime());
    }
    await after.close();

    // Opening another session on the same store sends nothing again.
    const again = await user.engram.study.session({ cards: [], scheduler, store, retry });
    await again.flush();
    expect(await serverLogs(user.account.id)).toHaveLength(3);
    await again.close();
  });

  test("an answer the server refuses for good is reported and kept, not lost", async () => {
    const user = await signedIn("refused");
    const deck = await deckWithCards(user, 1);
    const store = memoryReviewStore();
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, store, retry });
    const seen = events(session);
    await user.engram.decks.remove(deck.id);

    const { clientReviewId } = session.answer(Rating.good);
    await vi.waitFor(() => expect(session.getState().failures).toHaveLength(1), patiently);
    expect(seen).toContainEqual(
      expect.objectContaining({ type: "failed", error: expect.objectContaining({ code: "not-found" }) }),
    );
    expect(session.getState().failures[0]).toMatchObject({ id: clientReviewId, failure: { code: "not-found" } });
    expect(await store.list()).toEqual([expect.objectContaining({ id: clientReviewId, failure: expect.anything() })]);

    // A later session still reports it, and sends it no more.
    await session.close();
    const later = await user.engram.study.session({ cards: [], scheduler, store, retry });
    expect(later.getState().failures).toHaveLength(1);
    expect(later.pending()).toEqual([]);
    later.retryFailures();
    expect(later.getState()).toMatchObject({ pending: 1, failures: [] });
    await vi.waitFor(
      () => expect(later.getState()).toMatchObject({ pending: 0, failures: [{ id: clientReviewId }] }),
      patiently,
    );
    await later.dismissFailure(clientReviewId);
    expect(await store.list()).toEqual([]);
    await later.close();
  });
});

describe("two devices of one user", () => {
  async function secondDevice(user: SignedIn) {
    const engram = createEngram(supabaseClient());
    await engram.auth.signIn({ email: user.account.email, password: user.account.password });
    return engram;
  }

  test("a stale answer is recomputed on the other device's schedule when the card was still due, dropped otherwise", async () => {
    const user = await signedIn("devices");
    const deck = await deckWithCards(user, 2);
    const phone = await secondDevice(user);
    const laptop = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    const mobile = await phone.study.session({ deckId: deck.id, scheduler, retry });
    const mobileEvents = events(mobile);
    const first = currentId(laptop);
    expect(currentId(mobile)).toBe(first);

    // Both answer the first card; the laptop is first, so the phone's answer builds on the laptop's.
    laptop.answer(Rating.again);
    await laptop.flush();
    mobile.answer(Rating.good);
    await mobile.flush();
    const firstState = (await serverStates(user.account.id, [first ?? ""])).get(first ?? "");
    expect(firstState).toMatchObject({ state: "learning", reps: 2, version: 2 });
    expect(mobileEvents).toContainEqual(expect.objectContaining({ type: "saved" }));

    // The laptop sends the second card to review for days; the phone's later answer has nothing left to do.
    const other = currentId(laptop);
    expect(currentId(mobile)).toBe(other);
    laptop.answer(Rating.easy);
    await laptop.flush();
    mobile.answer(Rating.good);
    await mobile.flush();
    expect(mobileEvents).toContainEqual(
      expect.objectContaining({ type: "dropped", current: expect.objectContaining({ card_id: other }) }),
    );
    const logs = await serverLogs(user.account.id);
    expect(logs.map((log) => [log.card_id, log.rating])).toEqual([
      [first, Rating.again],
      [first, Rating.good],
      [other, Rating.easy],
    ]);
    expect((await serverStates(user.account.id, [other ?? ""])).get(other ?? "")).toMatchObject({
      state: "review",
      version: 1,
    });
    expect(mobile.getState().failures).toEqual([]);
    await Promise.all([laptop.close(), mobile.close()]);
  });

  test("a card answered for days on another device leaves the session here even when it was back on screen", async () => {
    const user = await signedIn("devices");
    const deck = await deckWithCards(user, 1);
    const phone = await secondDevice(user);
    const laptop = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    const mobile = await phone.study.session({ deckId: deck.id, scheduler, retry });
    const card = currentId(laptop);

    laptop.answer(Rating.easy);
    await laptop.flush();
    // Good puts the card in learning here, and as the only card it is shown again at once.
    mobile.answer(Rating.good);
    expect(currentId(mobile)).toBe(card);
    await mobile.flush();
    expect(mobile.getState()).toMatchObject({ current: null, done: true, counts: { new: 0, learning: 0, review: 0 } });
    expect((await serverLogs(user.account.id)).map((log) => log.rating)).toEqual([Rating.easy]);
    await Promise.all([laptop.close(), mobile.close()]);
  });
});
