import { createScheduler, Rating } from "@engram/core";
import { describe, expect, test, vi } from "vitest";
import type { ReviewSessionEvent } from "../src/study/index.js";
import { adminClient, type SignedIn, signedIn } from "./support/engram.js";

// Leeches through the SDK: the deck's settings, the answer that makes a card
// a leech (its result says so), the session letting a suspended leech go,
// and undo, against the real stack.

const scheduler = createScheduler();
const retry = { initialDelayMs: 20, maxDelayMs: 200 };
const patiently = { timeout: 10_000 };

/** A deck with one card the user has in review, due since yesterday, forgotten `lapses` times so far. */
async function deckWithReviewCard(user: SignedIn, settings: { leech_threshold: number; leech_action?: "tag_only" }) {
  const deck = await user.engram.decks.create({ name: "Leeches", ...settings });
  const note = await user.engram.notes.create(deck.id, { kind: "basic", fields: { front: "ser", back: "to be" } });
  const cardId = note.cards[0]?.id ?? "";
  const day = 86_400_000;
  // A schedule no answer here could reach in a test's time: set as the table owner.
  const { error } = await adminClient()
    .from("card_states")
    .update({
      state: "review",
      due: new Date(Date.now() - day).toISOString(),
      last_review: new Date(Date.now() - 13 * day).toISOString(),
      stability: 12.5,
      difficulty: 4.2,
      scheduled_days: 12,
      reps: 6,
      lapses: settings.leech_threshold - 1,
    })
    .eq("user_id", user.account.id)
    .eq("card_id", cardId);
  if (error) throw error;
  return { deck, cardId };
}

async function scheduleOf(user: SignedIn, deckId: string) {
  const [row] = await user.engram.cards.schedules({ deckId });
  return row;
}

describe("leech settings", () => {
  test("the owner sets the threshold and action with the deck's other settings", async () => {
    const user = await signedIn("leech-settings");
    const deck = await user.engram.decks.create({ name: "Verbs" });
    expect(deck).toMatchObject({ leech_threshold: 8, leech_action: "suspend" });

    const updated = await user.engram.decks.update(deck.id, { leech_threshold: 5, leech_action: "tag_only" });

    expect(updated).toMatchObject({ leech_threshold: 5, leech_action: "tag_only" });
    expect(await user.engram.decks.get(deck.id)).toMatchObject({ leech_threshold: 5, leech_action: "tag_only" });
  });

  test("a threshold out of 1–99 is refused before any request, naming the field", async () => {
    const user = await signedIn("leech-settings");
    const deck = await user.engram.decks.create({ name: "Verbs" });
    await expect(user.engram.decks.update(deck.id, { leech_threshold: 100 })).rejects.toMatchObject({
      code: "validation",
      field: "leech_threshold",
    });
    expect(await user.engram.decks.get(deck.id)).toMatchObject({ leech_threshold: 8 });
  });

  test("the database refuses what the SDK would have: a threshold of 0 from another client", async () => {
    const user = await signedIn("leech-settings");
    const deck = await user.engram.decks.create({ name: "Verbs" });
    const { error } = await user.supabase.from("decks").update({ leech_threshold: 0 }).eq("id", deck.id);
    expect(error).toMatchObject({ code: "23514" });
    expect(error?.message).toContain("decks_leech_threshold_range");
  });
});

describe("answers that make a leech", () => {
  test("the answer's result says the card became a leech and was suspended; it leaves the queue", async () => {
    const user = await signedIn("leech");
    const { deck, cardId } = await deckWithReviewCard(user, { leech_threshold: 3 });
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    expect(card).toMatchObject({ card_id: cardId, queue: "review" });
    if (!card) return;

    const recorded = await user.engram.study.recordReview(
      { card, rating: Rating.again, duration_ms: 3000 },
      { scheduler },
    );

    expect(recorded.leech).toEqual({ lapses: 3, suspended: true });
    expect(await scheduleOf(user, deck.id)).toMatchObject({ suspended: true, leech_at: expect.any(String), lapses: 3 });
    expect(await user.engram.study.queue({ deckId: deck.id })).toEqual([]);
  });

  test("with 'tag only' the card is marked and stays in the queue", async () => {
    const user = await signedIn("leech");
    const { deck } = await deckWithReviewCard(user, { leech_threshold: 2, leech_action: "tag_only" });
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");

    const recorded = await user.engram.study.recordReview(
      { card, rating: Rating.again, duration_ms: 3000 },
      { scheduler },
    );

    expect(recorded.leech).toEqual({ lapses: 2, suspended: false });
    expect(await scheduleOf(user, deck.id)).toMatchObject({ suspended: false, leech_at: expect.any(String) });
    expect((await user.engram.study.queue({ deckId: deck.id })).map((c) => c.card_id)).toEqual([card.card_id]);
  });

  test("other answers, and a retry of an ordinary one, say nothing of leeches", async () => {
    const user = await signedIn("leech");
    const { deck } = await deckWithReviewCard(user, { leech_threshold: 3 });
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");
    const input = { card, rating: Rating.good, duration_ms: 3000, client_review_id: crypto.randomUUID() };

    expect((await user.engram.study.recordReview(input, { scheduler })).leech).toBeNull();
    expect((await user.engram.study.recordReview(input, { scheduler })).leech).toBeNull();
  });

  test("undo takes the mark and the suspension back", async () => {
    const user = await signedIn("leech");
    const { deck } = await deckWithReviewCard(user, { leech_threshold: 3 });
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");
    const recorded = await user.engram.study.recordReview(
      { card, rating: Rating.again, duration_ms: 3000 },
      { scheduler },
    );

    const restored = await user.engram.study.undo(recorded.client_review_id);

    expect(restored.schedule).toMatchObject({ state: "review", lapses: 2 });
    expect(await scheduleOf(user, deck.id)).toMatchObject({ suspended: false, leech_at: null });
  });
});

describe("a session", () => {
  test("reports the leech in the saved event and does not bring the suspended card back", async () => {
    const user = await signedIn("leech-session");
    const { deck, cardId } = await deckWithReviewCard(user, { leech_threshold: 3 });
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    const seen: ReviewSessionEvent[] = [];
    session.subscribe((event) => seen.push(event));

    session.answer(Rating.again);
    // Forgotten, the card is relearning: without the leech it would come back within the session.
    expect(session.getState()).toMatchObject({ done: false, counts: { learning: 1 } });

    await vi.waitFor(() => expect(session.getState()).toMatchObject({ pending: 0, done: true }), patiently);
    const saved = seen.find((event) => event.type === "saved");
    expect(saved).toMatchObject({ result: { card_id: cardId, leech: { lapses: 3, suspended: true } } });
    await session.close();
  });

  test("an answer made offline reports the leech when it is sent, and the card leaves then", async () => {
    let offline = false;
    const user = await signedIn("leech-offline", {
      global: {
        fetch: (input, init) => (offline ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init)),
      },
    });
    const { deck } = await deckWithReviewCard(user, { leech_threshold: 3 });
    const session = await user.engram.study.session({ deckId: deck.id, scheduler, retry });
    const seen: ReviewSessionEvent[] = [];
    session.subscribe((event) => seen.push(event));

    offline = true;
    session.answer(Rating.again);
    await vi.waitFor(() => expect(session.getState().offline).toBe(true), patiently);
    expect(session.getState()).toMatchObject({ pending: 1, done: false });

    offline = false;
    await vi.waitFor(() => expect(session.getState()).toMatchObject({ pending: 0, done: true }), patiently);
    expect(seen.find((event) => event.type === "saved")).toMatchObject({ result: { leech: { suspended: true } } });
    await session.close();
  });
});
