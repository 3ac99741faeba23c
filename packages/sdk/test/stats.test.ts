import { describe, expect, test } from "vitest";
import { createEngram } from "../src/client.js";
import { EngramError } from "../src/errors.js";
import { engramKeys, engramQueries } from "../src/query/index.js";
import { type SignedIn, signedIn, supabaseClient } from "./support/engram.js";

const day = 86_400_000;

/** Stores a "good" answer that schedules the card `inDays` ahead, as the study screen would. */
async function answer(user: SignedIn, cardId: string, reviewedAt: Date, inDays: number, rating = 3, version = 0) {
  const { error } = await user.supabase.rpc("record_review", {
    p_card_id: cardId,
    p_client_review_id: crypto.randomUUID(),
    p_rating: rating,
    p_reviewed_at: reviewedAt.toISOString(),
    p_duration_ms: 4000,
    p_expected_version: version,
    p_state: "review",
    p_due: new Date(reviewedAt.getTime() + inDays * day).toISOString(),
    p_stability: inDays,
    p_difficulty: 5,
    p_elapsed_days: 0,
    p_scheduled_days: inDays,
    p_learning_steps: 0,
    p_reps: 1,
    p_lapses: 0,
  });
  expect(error).toBeNull();
}

async function studiedDeck() {
  const user = await signedIn("learner");
  const deck = await user.engram.decks.create({ name: "Kanji" });
  const notes = [];
  for (const front of ["日", "月", "火"]) {
    notes.push(await user.engram.notes.create(deck.id, { kind: "basic", fields: { front, back: "…" } }));
  }
  const [first, second, third] = notes.map((n) => n.cards[0]?.id ?? "");
  return { user, deck, cards: { first: first ?? "", second: second ?? "", third: third ?? "" } };
}

describe("stats", () => {
  test("a user with no answers gets zeros, an empty heatmap and a 30-day forecast", async () => {
    const { engram } = await signedIn();
    const stats = await engram.stats.user();
    expect(stats).toMatchObject({
      streak: 0,
      reviewed_today: 0,
      due_today: 0,
      heatmap: [],
      answers_per_day: [],
      retention: { reviews: 0, passed: 0, rate: null },
      card_counts: { new: 0, learning: 0, review: 0, relearning: 0, suspended: 0 },
    });
    expect(stats.forecast).toHaveLength(30);
    expect(stats.forecast[0]).toEqual({ date: stats.today, due: 0 });
  });

  test("answers show up in today's counts, the heatmap, the forecast and card counts", async () => {
    const { user, deck, cards } = await studiedDeck();
    const now = new Date();
    await answer(user, cards.first, now, 3);
    await user.engram.cards.setSuspended([cards.third], true);

    const stats = await user.engram.stats.user({ deckId: deck.id });
    expect(stats).toMatchObject({
      streak: 1,
      reviewed_today: 1,
      new_today: 1,
      heatmap: [{ date: stats.today, reviews: 1 }],
      answers_per_day: [{ date: stats.today, again: 0, hard: 0, good: 1, easy: 0 }],
      card_counts: { new: 1, review: 1, suspended: 1 },
    });
    expect(stats.forecast.reduce((sum, f) => sum + f.due, 0)).toBe(1);
    expect(stats.forecast.findIndex((f) => f.due === 1)).toBeGreaterThanOrEqual(2);

    // Three days on, the card is due today.
    const later = await user.engram.stats.user({ now: new Date(now.getTime() + 3 * day + 60_000) });
    expect(later).toMatchObject({ due_today: 1, reviewed_today: 0, streak: 0 });
  });

  test("deck rows give what is due today and how many new cards are allowed", async () => {
    const { user, deck, cards } = await studiedDeck();
    const other = await user.engram.decks.create({ name: "Another" });
    const now = new Date();
    await answer(user, cards.first, now, 1);
    await user.engram.decks.update(deck.id, { new_per_day: 2 });

    const rows = await user.engram.stats.decks({ now: new Date(now.getTime() + day + 60_000) });
    expect(rows.map((r) => r.name)).toEqual(["Another", "Kanji"]);
    expect(rows[0]).toMatchObject({ deck_id: other.id, note_count: 0, due_count: 0, new_today: 0 });
    expect(rows[1]).toMatchObject({
      deck_id: deck.id,
      role: "owner",
      note_count: 3,
      card_count: 3,
      new_count: 2,
      review_count: 1,
      due_count: 1,
      new_today: 2,
    });
    const today = await user.engram.stats.decks();
    expect(today.find((r) => r.deck_id === deck.id)).toMatchObject({ due_count: 0, new_today: 1 });
  });

  test("stats for a deck one is not in are not found", async () => {
    const { deck } = await studiedDeck();
    const stranger = await signedIn("stranger");
    await expect(stranger.engram.stats.user({ deckId: deck.id })).rejects.toMatchObject({ code: "not-found" });
  });

  test("bad options fail validation; signed out, stats need a session", async () => {
    const { engram } = await signedIn();
    const error = await engram.stats.user({ deckId: "kanji" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "validation", field: "deckId" });
    await expect(engram.stats.decks({ now: "tomorrow" as never })).rejects.toMatchObject({
      code: "validation",
      field: "now",
    });
    const anonymous = createEngram(supabaseClient());
    await expect(anonymous.stats.decks()).rejects.toMatchObject({ code: "auth/session-expired" });
  });

  test("review figures: answers per day by state, retention young and mature, buttons", async () => {
    const { user, deck, cards } = await studiedDeck();
    const now = new Date();
    await answer(user, cards.first, new Date(now.getTime() - 2 * day), 1); // new, good: review in 1 day
    await answer(user, cards.first, now, 5, 3, 1); // review (young: 1 day before), good
    await answer(user, cards.second, now, 3, 1); // new, again

    const stats = await user.engram.stats.reviews({ deckId: deck.id, now });
    const twoDaysAgo = new Date(Date.parse(`${stats.today}T00:00:00Z`) - 2 * day).toISOString().slice(0, 10);
    expect(stats).toEqual({
      today: stats.today,
      days: 30,
      per_day: [
        { date: twoDaysAgo, new: 1, learning: 0, review: 0, relearning: 0, duration_ms: 4000 },
        { date: stats.today, new: 1, learning: 0, review: 1, relearning: 0, duration_ms: 8000 },
      ],
      retention: [
        { period: "today", young: { passed: 1, failed: 0 }, mature: { passed: 0, failed: 0 } },
        { period: "yesterday", young: { passed: 0, failed: 0 }, mature: { passed: 0, failed: 0 } },
        { period: "week", young: { passed: 1, failed: 0 }, mature: { passed: 0, failed: 0 } },
        { period: "month", young: { passed: 1, failed: 0 }, mature: { passed: 0, failed: 0 } },
        { period: "year", young: { passed: 1, failed: 0 }, mature: { passed: 0, failed: 0 } },
      ],
      buttons: { learning: [1, 0, 1, 0], young: [0, 0, 1, 0], mature: [0, 0, 0, 0] },
    });
    const year = await user.engram.stats.reviews({ days: 365 });
    expect(year).toMatchObject({ days: 365, per_day: stats.per_day, buttons: stats.buttons });
    // All time runs from the first answer, two days ago: three study days.
    const all = await user.engram.stats.reviews({ days: "all", now });
    expect(all).toMatchObject({ days: 3, per_day: stats.per_day, buttons: stats.buttons });

    const stranger = await signedIn("stranger");
    await expect(stranger.engram.stats.reviews({ deckId: deck.id })).rejects.toMatchObject({ code: "not-found" });
    expect(await stranger.engram.stats.reviews()).toMatchObject({ per_day: [], buttons: { young: [0, 0, 0, 0] } });
    await expect(user.engram.stats.reviews({ days: 7 as never })).rejects.toMatchObject({
      code: "validation",
      field: "days",
    });
  });

  test("the review figures' query sits under the stats key, so invalidating stats refetches it", async () => {
    const { engram } = await signedIn();
    const options = engramQueries(engram).stats.reviews({ days: 90 });
    expect(options.queryKey.slice(0, 1)).toEqual([...engramKeys.stats.all]);
    expect(options.queryKey).toEqual(engramKeys.stats.reviews({ days: 90 }));
    expect(await options.queryFn?.({} as never)).toMatchObject({ days: 90, per_day: [] });
  });
});
