import { createScheduler, Rating, renderCard } from "@engram/core";
import { describe, expect, test } from "vitest";
import { EngramError } from "../src/errors.js";
import { type SignedIn, signedIn } from "./support/engram.js";

const scheduler = createScheduler();

async function deckWithNotes(user: SignedIn, fronts: string[], deck: { new_per_day?: number } = {}) {
  const created = await user.engram.decks.create({ name: "Study", ...deck });
  const notes = fronts.map((front) => ({ deck_id: created.id, kind: "basic" as const, fields: { front, back: "a" } }));
  const { error } = await user.supabase.from("notes").insert(notes);
  if (error) throw error;
  return created;
}

async function reviewCount(user: SignedIn): Promise<number> {
  const { count, error } = await user.supabase.from("review_logs").select("*", { count: "exact", head: true });
  if (error) throw error;
  return count ?? 0;
}

describe("study queue", () => {
  test("the queue lists today's cards with their note, schedule and version, within the deck's new-card limit", async () => {
    const user = await signedIn("queue");
    // Siblings are not buried here, so the five new cards outnumber the limit.
    const deck = await user.engram.decks.create({ name: "Mixed", new_per_day: 4, bury_new: false });
    // The basic note goes first, so its card is the first new card (new cards come in order of creation).
    const basic = await user.supabase
      .from("notes")
      .insert({ deck_id: deck.id, kind: "basic", fields: { front: "perro", back: "dog" }, tags: ["animals"] });
    const { error } = await user.supabase.from("notes").insert([
      { deck_id: deck.id, kind: "basic_reversed", fields: { front: "gato", back: "cat" }, tags: [] },
      { deck_id: deck.id, kind: "cloze", fields: { text: "{{c1::Madrid}} is in {{c2::Spain}}", extra: "" }, tags: [] },
    ]);
    if (basic.error ?? error) throw basic.error ?? error;

    const queue = await user.engram.study.queue({ deckId: deck.id });
    expect(queue).toHaveLength(4);
    for (const card of queue) {
      expect(card).toMatchObject({ deck_id: deck.id, queue: "new", version: 0 });
      expect(card.schedule).toMatchObject({ state: "new", reps: 0, last_review: null });
      expect(card.schedule.due).toBeInstanceOf(Date);
      expect(renderCard(card.note, card.ordinal).front).not.toBe("");
    }
    expect(queue[0]?.note).toMatchObject({
      kind: "basic",
      fields: { front: "perro", back: "dog" },
      tags: ["animals"],
    });
    expect(new Set(queue.map((card) => card.card_id)).size).toBe(4);
  });

  test("an answered new card returns as learning and uses up one of the day's new cards", async () => {
    const user = await signedIn("queue");
    const deck = await deckWithNotes(user, ["one", "two", "three"], { new_per_day: 2 });
    const [first] = await user.engram.study.queue({ deckId: deck.id });
    if (!first) throw new Error("empty queue");
    await user.engram.study.recordReview({ card: first, rating: Rating.again, duration_ms: 900 }, { scheduler });

    const queue = await user.engram.study.queue({ deckId: deck.id });
    expect(queue.map((card) => card.queue)).toEqual(["learning", "new"]);
    expect(queue[0]).toMatchObject({ card_id: first.card_id, version: 1, schedule: { state: "learning", reps: 1 } });
  });

  test("a malformed deck id is refused before any request", async () => {
    const user = await signedIn("queue");
    await expect(user.engram.study.queue({ deckId: "deck-1" })).rejects.toMatchObject({
      code: "validation",
      field: "deckId",
    });
  });
});

describe("recording answers", () => {
  test("a retry with the same review id returns the stored result and records nothing twice", async () => {
    const user = await signedIn("review");
    const deck = await deckWithNotes(user, ["hola"]);
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");

    const saved = await user.engram.study.recordReview({ card, rating: Rating.good, duration_ms: 2500 });
    expect(saved).toMatchObject({ card_id: card.card_id, version: 1, schedule: { state: "learning", reps: 1 } });
    expect(saved.schedule.due.getTime()).toBeGreaterThan(Date.now());

    const retried = await user.engram.study.recordReview(
      { card, rating: Rating.easy, duration_ms: 100, client_review_id: saved.client_review_id },
      { scheduler },
    );
    expect(retried).toEqual(saved);
    expect(await reviewCount(user)).toBe(1);
  });

  test("an answer computed from an older version is refused as a conflict carrying the current schedule", async () => {
    const user = await signedIn("review");
    const deck = await deckWithNotes(user, ["hola"]);
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");
    const saved = await user.engram.study.recordReview({ card, rating: Rating.again, duration_ms: 1 }, { scheduler });

    const error = await user.engram.study
      .recordReview({ card, rating: Rating.good, duration_ms: 1 }, { scheduler })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "conflict", detail: { card_id: card.card_id, version: 1 } });
    expect((error as EngramError).detail).toEqual({ card_id: card.card_id, schedule: saved.schedule, version: 1 });
    expect(await reviewCount(user)).toBe(1);
  });

  test("undo restores the schedule from before the answer and deletes its log", async () => {
    const user = await signedIn("review");
    const deck = await deckWithNotes(user, ["hola"]);
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");
    const saved = await user.engram.study.recordReview({ card, rating: Rating.good, duration_ms: 1 }, { scheduler });

    const restored = await user.engram.study.undo(saved.client_review_id);
    expect(restored).toEqual({ card_id: card.card_id, schedule: card.schedule, version: 2 });
    expect(await reviewCount(user)).toBe(0);
    await expect(user.engram.study.undo(saved.client_review_id)).rejects.toMatchObject({ code: "not-found" });
  });

  test("a rating outside 1–4 or a negative time is refused before any request", async () => {
    const user = await signedIn("review");
    const deck = await deckWithNotes(user, ["hola"]);
    const [card] = await user.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");
    const rating = 5 as Rating;
    await expect(user.engram.study.recordReview({ card, rating, duration_ms: 1 })).rejects.toMatchObject({
      code: "validation",
      field: "rating",
    });
    await expect(
      user.engram.study.recordReview({ card, rating: Rating.good, duration_ms: -1 }, { scheduler }),
    ).rejects.toMatchObject({ code: "validation", field: "duration_ms" });
    expect(await reviewCount(user)).toBe(0);
  });

  test("another user's card cannot be answered", async () => {
    const owner = await signedIn("owner");
    const stranger = await signedIn("stranger");
    const deck = await deckWithNotes(owner, ["private"]);
    const [card] = await owner.engram.study.queue({ deckId: deck.id });
    if (!card) throw new Error("empty queue");
    await expect(
      stranger.engram.study.recordReview({ card, rating: Rating.good, duration_ms: 1 }, { scheduler }),
    ).rejects.toMatchObject({ code: "not-found" });
  });
});
