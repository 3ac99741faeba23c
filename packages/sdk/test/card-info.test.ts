import { Rating } from "@engram/core";
import { describe, expect, test } from "vitest";
import { retrievabilityAfter } from "../src/card-info.js";
import { errorOf, signedIn } from "./support/engram.js";

type User = Awaited<ReturnType<typeof signedIn>>;

async function memberOf(owner: User, deckId: string, role: "editor" | "viewer") {
  const member = await signedIn(role);
  await member.engram.invites.accept((await owner.engram.invites.create(deckId, { role })).token);
  return member;
}

/** A deck with one basic note whose card the owner answered Good, then Again. */
async function reviewedTwice(owner: User) {
  const deck = await owner.engram.decks.create({ name: "Capitals" });
  const note = await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Peru?", back: "Lima" } });
  const [card] = await owner.engram.study.queue({ deckId: deck.id });
  if (!card) throw new Error("empty queue");
  const first = await owner.engram.study.recordReview({ card, rating: Rating.good, duration_ms: 1200 });
  await owner.engram.study.recordReview({ card: first, rating: Rating.again, duration_ms: 3000 });
  return { deck, note, cardId: card.card_id };
}

describe("card info", () => {
  test("shows the caller's own card with its note, schedule and both answers", async () => {
    const owner = await signedIn("owner");
    const { deck, note, cardId } = await reviewedTwice(owner);
    const info = await owner.engram.cardInfo.get(cardId);
    expect(info).toMatchObject({
      cardId,
      noteId: note.id,
      deckId: deck.id,
      deckName: "Capitals",
      sortField: "Peru?",
      noteTypeName: "Basic",
      template: "Card 1",
      reviewCount: 2,
      totalTimeMs: 4200,
      averageTimeMs: 2100,
      suspended: false,
    });
    expect(info.reviews.map((review) => [review.rating, review.durationMs])).toEqual([
      [Rating.good, 1200],
      [Rating.again, 3000],
    ]);
    expect(info.firstReview).toBe(info.reviews[0]?.reviewedAt);
    expect(info.latestReview).toBe(info.reviews[1]?.reviewedAt);
    expect(info.state).not.toBe("new");
    expect(info.stability).toBeGreaterThan(0);
    expect(info.difficulty).toBeGreaterThanOrEqual(0);
    expect(info.difficulty).toBeLessThanOrEqual(1);
    // Answered just now: the forgetting curve starts at certain recall.
    expect(info.retrievability).toBeCloseTo(1, 5);
  });

  test("another member sees the card with none of the owner's answers", async () => {
    const owner = await signedIn("owner");
    const { deck, cardId } = await reviewedTwice(owner);
    const viewer = await memberOf(owner, deck.id, "viewer");
    expect(await viewer.engram.cardInfo.get(cardId)).toMatchObject({
      reviewCount: 0,
      reviews: [],
      state: "new",
      due: null,
      retrievability: null,
      firstReview: null,
      averageTimeMs: null,
    });
  });

  test("a card in a deck not shared with the caller is not found, and a bad id is refused before any request", async () => {
    const owner = await signedIn("owner");
    const { cardId } = await reviewedTwice(owner);
    const stranger = await signedIn("stranger");
    expect(await errorOf(stranger.engram.cardInfo.get(cardId))).toMatchObject({ code: "not-found" });
    await expect(stranger.engram.cardInfo.get("card-1")).rejects.toMatchObject({ code: "validation" });
  });

  test("the forgetting curve is 90 % after as many days as the stability, and falls with time", () => {
    expect(retrievabilityAfter(0, 10)).toBe(1);
    expect(retrievabilityAfter(10, 10)).toBeCloseTo(0.9, 10);
    expect(retrievabilityAfter(30, 10, 0.5)).toBeLessThan(retrievabilityAfter(10, 10, 0.5));
  });
});
