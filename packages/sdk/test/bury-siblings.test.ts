import { MutationObserver, QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, test, vi } from "vitest";
import { engramMutations, engramQueries } from "../src/query/index.js";
import type { StudyQueue } from "../src/study/index.js";
import { errorOf, type SignedIn, signedIn } from "./support/engram.js";

/** The new / learning / review counts of a list of queue cards. */
function countsOf(cards: { queue: StudyQueue }[]): Record<StudyQueue, number> {
  const counts = { new: 0, learning: 0, review: 0 };
  for (const card of cards) counts[card.queue]++;
  return counts;
}

/** A deck of two reversed notes and one basic note: five new cards, three notes. */
async function deckWithSiblings(user: SignedIn) {
  const deck = await user.engram.decks.create({ name: "Vocabulary" });
  for (const [front, back] of [
    ["perro", "dog"],
    ["gato", "cat"],
  ] as const)
    await user.engram.notes.create(deck.id, { kind: "basic_reversed", fields: { front, back } });
  await user.engram.notes.create(deck.id, { kind: "basic", fields: { front: "casa", back: "house" } });
  return deck;
}

describe("burying siblings", () => {
  test("a deck buries new and review siblings by default, and its owner can change that", async () => {
    const owner = await signedIn("bury-owner");
    const deck = await owner.engram.decks.create({ name: "Defaults" });
    expect(deck).toMatchObject({ bury_new: true, bury_reviews: true, bury_interday_learning: false });
    const updated = await owner.engram.decks.update(deck.id, { bury_new: false, bury_interday_learning: true });
    expect(updated).toMatchObject({ bury_new: false, bury_reviews: true, bury_interday_learning: true });
  });

  test("a member who is not the owner cannot change them, and a setting that is not on or off is refused before sending", async () => {
    const owner = await signedIn("bury-owner");
    const editor = await signedIn("bury-editor");
    const deck = await owner.engram.decks.create({ name: "Shared" });
    await editor.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "editor" })).token);
    expect((await errorOf(editor.engram.decks.update(deck.id, { bury_new: false }))).code).toBe("permission-denied");
    const invalid = await errorOf(owner.engram.decks.update(deck.id, { bury_reviews: "no" as unknown as boolean }));
    expect(invalid).toMatchObject({ code: "validation", field: "bury_reviews" });
    expect(await owner.engram.decks.get(deck.id)).toMatchObject({ bury_new: true, bury_reviews: true });
  });

  test("the queue gives one card of a note; once it is answered its sibling waits for tomorrow, and undo brings it back", async () => {
    const user = await signedIn("bury-study");
    const deck = await deckWithSiblings(user);
    const queue = await user.engram.study.queue({ deckId: deck.id });
    expect(queue).toHaveLength(3);
    expect(new Set(queue.map((card) => card.note.id)).size).toBe(3);

    const session = await user.engram.study.session({ deckId: deck.id });
    const first = session.current?.card;
    if (!first) throw new Error("the session has no card");
    const answered = session.answer(4); // Easy: out of learning, so only burying can hide its sibling
    await session.flush();
    const after = await user.engram.study.queue({ deckId: deck.id });
    expect(after.map((card) => card.note.id)).not.toContain(first.note.id);

    const tomorrow = new Date(Date.now() + 86_400_000);
    const nextDay = await user.engram.study.queue({ deckId: deck.id, now: tomorrow });
    expect(nextDay.filter((card) => card.note.id === first.note.id).map((card) => card.ordinal)).toEqual([
      3 - first.ordinal,
    ]);

    await user.engram.study.undo(answered.clientReviewId);
    const undone = await user.engram.study.queue({ deckId: deck.id });
    expect(undone.map((card) => card.card_id)).toContain(first.card_id);
    await session.close();
  });
});

describe("today's counts", () => {
  test("are what a session of each deck gives, and all decks give their sum", async () => {
    const user = await signedIn("counts");
    await user.engram.profile.update({ new_per_day: 2 });
    const siblings = await deckWithSiblings(user);
    const own = await user.engram.decks.create({ name: "Own limit", new_per_day: 1 });
    for (const front of ["uno", "dos", "tres"])
      await user.engram.notes.create(own.id, { kind: "basic", fields: { front, back: "…" } });

    const listed = await user.engram.stats.decks();
    const byDeck = Object.fromEntries(
      listed.map((deck) => [
        deck.deck_id,
        { new: deck.new_today, learning: deck.learning_today, review: deck.review_today },
      ]),
    );
    expect(byDeck).toEqual({
      [siblings.id]: countsOf(await user.engram.study.queue({ deckId: siblings.id })),
      [own.id]: countsOf(await user.engram.study.queue({ deckId: own.id })),
    });
    expect(byDeck[siblings.id]).toEqual({ new: 2, learning: 0, review: 0 });
    expect(byDeck[own.id]).toEqual({ new: 1, learning: 0, review: 0 });
    expect(countsOf(await user.engram.study.queue())).toEqual({ new: 3, learning: 0, review: 0 });
  });
});

describe("with React Query", () => {
  test("changing a deck's bury settings refetches its study queue and its counts", async () => {
    const user = await signedIn("bury-query");
    const deck = await deckWithSiblings(user);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const queries = engramQueries(user.engram);
    // Observers keep both queries active, as mounted components would, so invalidation refetches them.
    const queue = new QueryObserver(queryClient, queries.study.queue({ deckId: deck.id }));
    const stats = new QueryObserver(queryClient, queries.stats.decks());
    const stop = [queue.subscribe(() => {}), stats.subscribe(() => {})];
    await vi.waitFor(() => expect(queue.getCurrentResult().data).toHaveLength(3));
    await vi.waitFor(() => expect(stats.getCurrentResult().data?.[0]?.new_today).toBe(3));

    await new MutationObserver(queryClient, engramMutations(user.engram, queryClient).decks.update()).mutate({
      deckId: deck.id,
      patch: { bury_new: false },
    });
    expect(queue.getCurrentResult().data).toHaveLength(5);
    expect(stats.getCurrentResult().data?.[0]?.new_today).toBe(5);
    for (const unsubscribe of stop) unsubscribe();
  });
});
