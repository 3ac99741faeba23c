import { describe, expect, test, vi } from "vitest";
import { createEngram } from "../src/client.js";
import { adminClient, errorOf, type SignedIn, signedIn, supabaseClient } from "./support/engram.js";

// Custom study (docs/product.md, "Custom study"): study.custom gives cards
// outside today's schedule, study.extendToday more new cards today, and a
// preview session flips through cards without recording answers.

async function examDeck(user: SignedIn) {
  const deck = await user.engram.decks.create({ name: "Exam", new_per_day: 1 });
  for (const [front, tags] of [
    ["mitosis", ["exam1"]],
    ["meiosis", ["exam1"]],
    ["osmosis", ["exam2"]],
  ] as const) {
    await user.engram.notes.create(deck.id, { kind: "basic", fields: { front, back: "…" }, tags: [...tags] });
  }
  return deck;
}

const logCount = async (user: SignedIn) => {
  const { count, error } = await user.supabase.from("review_logs").select("id", { count: "exact", head: true });
  if (error) throw error;
  return count;
};

describe("study.custom", () => {
  test("a search gives its notes' cards with how many matched; an answer of Again makes a card forgotten", async () => {
    const user = await signedIn("custom-search");
    const deck = await examDeck(user);
    const exam = await user.engram.study.custom({ deckId: deck.id, mode: "search", search: "tag:exam1" });
    expect(exam.matched).toBe(2);
    expect(exam.cards.map((card) => (card.note.fields as { front: string }).front).sort()).toEqual([
      "meiosis",
      "mitosis",
    ]);
    const capped = await user.engram.study.custom({ deckId: deck.id, mode: "search", search: "tag:exam*", limit: 1 });
    expect({ cards: capped.cards.length, matched: capped.matched }).toEqual({ cards: 1, matched: 3 });

    expect((await user.engram.study.custom({ deckId: deck.id, mode: "forgotten", days: 1 })).cards).toEqual([]);
    const card = exam.cards[0];
    if (!card) throw new Error("no card");
    await user.engram.study.recordReview({ card, rating: 1, duration_ms: 3000 });
    const forgotten = await user.engram.study.custom({ deckId: deck.id, mode: "forgotten", days: 1 });
    expect(forgotten.cards.map((found) => found.card_id)).toEqual([card.card_id]);
    expect(forgotten.cards[0]?.schedule.state).toBe("learning");
    const ahead = await user.engram.study.custom({ deckId: deck.id, mode: "ahead", days: 1 });
    expect(ahead.cards.map((found) => found.card_id)).toEqual([card.card_id]);
  });

  test("a search that does not parse is search/syntax, bad numbers are validation, both before sending", async () => {
    const user = await signedIn("custom-errors");
    const deck = await examDeck(user);
    expect(
      await errorOf(user.engram.study.custom({ deckId: deck.id, mode: "search", search: "(tag:exam1" })),
    ).toMatchObject({ code: "search/syntax" });
    expect(await errorOf(user.engram.study.custom({ deckId: deck.id, mode: "ahead", days: 0 }))).toMatchObject({
      code: "validation",
    });
    expect(await errorOf(user.engram.study.extendToday(deck.id, 0))).toMatchObject({ code: "validation" });
    const stranger = await signedIn("custom-stranger");
    expect(await errorOf(stranger.engram.study.custom({ deckId: deck.id, mode: "ahead", days: 3 }))).toMatchObject({
      code: "not-found",
    });
    expect(await errorOf(stranger.engram.study.extendToday(deck.id, 5))).toMatchObject({ code: "not-found" });
  });

  test("extendToday adds new cards to today's queue", async () => {
    const user = await signedIn("custom-extend");
    const deck = await examDeck(user);
    const newCards = async () =>
      (await user.engram.study.queue({ deckId: deck.id })).filter((card) => card.queue === "new").length;
    expect(await newCards()).toBe(1);
    expect(await user.engram.study.extendToday(deck.id, 1)).toBe(1);
    expect(await newCards()).toBe(2);
  });
});

describe("more new cards today on another device", () => {
  test("arrives as a change of the user's own schedule naming the deck", async () => {
    const user = await signedIn("custom-realtime");
    const deck = await examDeck(user);
    const events: unknown[] = [];
    let ready = false;
    const stop = user.engram.realtime.onOwnSchedule((event) => events.push(event), { onReady: () => (ready = true) });
    await vi.waitFor(() => expect(ready).toBe(true), { timeout: 8_000 });

    const phone = createEngram(supabaseClient());
    await phone.auth.signIn({ email: user.account.email, password: user.account.password });
    await phone.study.extendToday(deck.id, 5);
    await vi.waitFor(
      () => expect(events).toContainEqual({ table: "study_day_extras", type: "insert", ids: [deck.id] }),
      { timeout: 8_000 },
    );
    await stop();
  });
});

describe("a custom session", () => {
  test("serves a learning card due tomorrow at once, where today's session would wait for it", async () => {
    const user = await signedIn("custom-learning");
    const deck = await examDeck(user);
    const { cards } = await user.engram.study.custom({ deckId: deck.id, mode: "search", search: "mitosis" });
    const card = cards[0];
    if (!card) throw new Error("no card");
    await user.engram.study.recordReview({ card, rating: 1, duration_ms: 3000 });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const moved = await adminClient()
      .from("card_states")
      .update({ due: tomorrow, scheduled_days: 1 })
      .eq("user_id", user.account.id)
      .eq("card_id", card.card_id);
    expect(moved.error).toBeNull();

    const ahead = await user.engram.study.custom({ deckId: deck.id, mode: "ahead", days: 2 });
    expect(ahead.cards.map((found) => found.schedule.state)).toEqual(["learning"]);
    const custom = await user.engram.study.session({ cards: ahead.cards, custom: true });
    expect(custom.current?.card.card_id).toBe(card.card_id);
    const today = await user.engram.study.session({ cards: ahead.cards });
    expect(today.current).toBeNull();
    await Promise.all([custom.close(), today.close()]);
  });
});

describe("a preview session", () => {
  test("records no answer: Again shows the card again, other answers move on, undo goes back", async () => {
    const user = await signedIn("custom-preview");
    const deck = await examDeck(user);
    const { cards } = await user.engram.study.custom({ deckId: deck.id, mode: "search", search: "tag:exam1" });
    const session = await user.engram.study.session({ cards, preview: true });
    const first = session.current?.card.card_id;
    session.answer(1);
    expect(session.counts.new).toBe(2);
    session.answer(3);
    expect(session.current?.card.card_id).toBe(first);
    session.undo();
    expect(session.current?.card.card_id).not.toBe(first);
    session.answer(3);
    session.answer(4);
    expect(session.getState().done).toBe(true);
    await session.flush();
    expect(await logCount(user)).toBe(0);
    await session.close();
  });
});
