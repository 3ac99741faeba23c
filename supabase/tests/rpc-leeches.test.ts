import { randomUUID } from "node:crypto";
import { defaults, limits } from "@engram/core";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  addBasicCards,
  addMember,
  type CardStateRow,
  createDeck,
  recordReview,
  reviewDue,
  setState,
  stateOf,
  type User,
  undoReview,
} from "./support/study-fixtures.js";

// Leeches: a lapse ("again" on a review card) that brings the card's lapses
// to the deck's threshold, or another half threshold past it, marks the card
// a leech for the user who answered and, unless the deck only tags leeches,
// suspends it. Undo takes both back; nobody else's schedule changes.

let db: Database;
let alice: User; // owns the decks
let bob: User; // an editor of "Verbs"
let vera: User; // a viewer of "Verbs"
let verbs: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [alice, bob, vera] = await Promise.all([
    createUser(db, { displayName: "Alice" }),
    createUser(db, { displayName: "Bob" }),
    createUser(db, { displayName: "Vera" }),
  ]);
  verbs = await createDeck(db, alice, { name: "Verbs" });
  await addMember(db, alice, verbs, bob, "editor");
  await addMember(db, alice, verbs, vera, "viewer");
});
afterAll(() => db.close());

async function deckWith(threshold: number, action: "suspend" | "tag_only"): Promise<string> {
  const deck = await createDeck(db, alice, { name: `Leeches at ${threshold}, ${action}` });
  await actAs(db, alice, (tx) =>
    tx.query("update decks set leech_threshold = $2, leech_action = $3 where id = $1", [deck, threshold, action]),
  );
  return deck;
}

/** A card of the deck that `user` has in review with `lapses` lapses so far. */
async function reviewCard(deck: string, lapses: number, user: User = alice): Promise<string> {
  const [card] = (await addBasicCards(db, alice, deck, 1, "Leech")) as [string];
  await setState(db, user.id, card, reviewDue("2026-03-01T09:00:00Z", { lapses }));
  return card;
}

/** `user` answers "again" to the card, which FSRS counts as one more lapse. */
async function forget(
  card: string,
  user: User = alice,
  reviewedAt = "2026-03-02T10:00:00Z",
  clientReviewId: string = randomUUID(),
): Promise<CardStateRow> {
  const before = await stateOf(db, user.id, card);
  if (!before) throw new Error("the card has no schedule");
  return actAs(db, user, (tx) =>
    recordReview(tx, {
      cardId: card,
      clientReviewId,
      expectedVersion: before.version,
      rating: 1,
      reviewedAt,
      state: "relearning",
      due: new Date(new Date(reviewedAt).getTime() + 10 * 60_000),
      stability: 1.2,
      difficulty: 7.1,
      reps: before.reps + 1,
      lapses: before.lapses + 1,
    }),
  );
}

/** The card back in review later on, as after relearning it (the table owner sets it). */
async function relearned(card: string, lapses: number, extra: Parameters<typeof reviewDue>[1] = {}): Promise<void> {
  await setState(db, alice.id, card, reviewDue("2026-03-20T09:00:00Z", { lapses, ...extra }));
}

describe("marking leeches", () => {
  test("the lapse that reaches the threshold (8 by default) marks the card and suspends it", async () => {
    const card = await reviewCard(verbs, 7);
    const returned = await forget(card);
    expect(returned).toMatchObject({
      lapses: 8,
      leech_at: new Date("2026-03-02T10:00:00Z"),
      last_review: new Date("2026-03-02T10:00:00Z"),
      suspended: true,
    });
    expect(await stateOf(db, alice.id, card)).toEqual(returned);
  });

  test("a new deck has threshold 8 and suspends (the defaults of @engram/core)", async () => {
    const [deck] = await db.query<{ leech_threshold: number; leech_action: string }>(
      "select leech_threshold, leech_action from decks where id = $1",
      [verbs],
    );
    expect(deck).toEqual({ leech_threshold: defaults.leechThreshold, leech_action: defaults.leechAction });
  });

  test("lapses under the threshold leave the card unmarked and in the queue", async () => {
    const card = await reviewCard(verbs, 6);
    expect(await forget(card)).toMatchObject({ lapses: 7, leech_at: null, suspended: false });
  });

  test("only a lapse counts: 'again' on a card in relearning marks nothing, whatever its lapses", async () => {
    const card = await reviewCard(verbs, 8);
    await setState(db, alice.id, card, { state: "relearning" });
    expect(await forget(card)).toMatchObject({ leech_at: null, suspended: false });
  });

  test("other answers at the threshold mark nothing", async () => {
    const card = await reviewCard(verbs, 8);
    const returned = await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: card, expectedVersion: 0, rating: 3, state: "review", lapses: 8, scheduledDays: 3 }),
    );
    expect(returned).toMatchObject({ leech_at: null, suspended: false });
  });

  test("'tag only' marks the card and keeps it in the queue", async () => {
    const deck = await deckWith(8, "tag_only");
    const card = await reviewCard(deck, 7);
    expect(await forget(card)).toMatchObject({
      lapses: 8,
      leech_at: new Date("2026-03-02T10:00:00Z"),
      suspended: false,
    });
  });

  test("the mark comes again every half threshold (12, 16 for 8), suspending the card again", async () => {
    const card = await reviewCard(verbs, 7);
    await forget(card, alice, "2026-03-02T10:00:00Z");
    // Unsuspended by its user, then forgotten again and again.
    const marks: (Date | null)[] = [];
    const suspensions: boolean[] = [];
    for (let lapses = 8; lapses < 16; lapses++) {
      await relearned(card, lapses, { suspended: false });
      const day = String(3 + lapses).padStart(2, "0");
      const after = await forget(card, alice, `2026-03-${day}T10:00:00Z`);
      marks.push(after.leech_at);
      suspensions.push(after.suspended);
    }
    // lapses 9 … 16: the mark moves at 12 and 16 only, and only those suspend.
    expect(marks).toEqual([
      new Date("2026-03-02T10:00:00Z"),
      new Date("2026-03-02T10:00:00Z"),
      new Date("2026-03-02T10:00:00Z"),
      new Date("2026-03-14T10:00:00Z"),
      new Date("2026-03-14T10:00:00Z"),
      new Date("2026-03-14T10:00:00Z"),
      new Date("2026-03-14T10:00:00Z"),
      new Date("2026-03-18T10:00:00Z"),
    ]);
    expect(suspensions).toEqual([false, false, false, true, false, false, false, true]);
  });

  test("an odd threshold repeats every half rounded up, as Anki (5: at 5, 8, 11)", async () => {
    const deck = await deckWith(5, "tag_only");
    const card = await reviewCard(deck, 0);
    const markedAt: number[] = [];
    for (let lapses = 0; lapses < 11; lapses++) {
      await setState(db, alice.id, card, reviewDue("2026-03-01T09:00:00Z", { lapses }));
      const reviewedAt = new Date(Date.UTC(2026, 2, 2, lapses)).toISOString();
      const after = await forget(card, alice, reviewedAt);
      if (after.leech_at?.toISOString() === reviewedAt) markedAt.push(after.lapses);
    }
    expect(markedAt).toEqual([5, 8, 11]);
  });

  test("a threshold of 1 marks every lapse", async () => {
    const deck = await deckWith(1, "suspend");
    const card = await reviewCard(deck, 0);
    expect(await forget(card)).toMatchObject({ lapses: 1, suspended: true, leech_at: expect.any(Date) });
  });

  test("a retry of the answer that marked the card returns the same marked schedule and changes nothing", async () => {
    const card = await reviewCard(verbs, 7);
    const clientReviewId = randomUUID();
    const first = await forget(card, alice, "2026-03-02T10:00:00Z", clientReviewId);
    const again = await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: card, clientReviewId, expectedVersion: 0, rating: 1, lapses: 8 }),
    );
    expect(again).toEqual(first);
  });
});

describe("undoing the answer that marked a leech", () => {
  test("takes the mark and the suspension back", async () => {
    const card = await reviewCard(verbs, 7);
    const before = await stateOf(db, alice.id, card);
    const clientReviewId = randomUUID();
    await forget(card, alice, "2026-03-02T10:00:00Z", clientReviewId);

    const restored = await actAs(db, alice, (tx) => undoReview(tx, clientReviewId));

    expect(restored).toEqual({ ...before, version: 2, updated_at: expect.any(Date) });
    expect(restored).toMatchObject({ leech_at: null, suspended: false, lapses: 7 });
  });

  test("of a repeat puts back the earlier mark and the suspension as it was before", async () => {
    const card = await reviewCard(verbs, 7);
    await forget(card, alice, "2026-03-02T10:00:00Z");
    await relearned(card, 11, { suspended: false });
    const clientReviewId = randomUUID();
    expect(await forget(card, alice, "2026-03-20T10:00:00Z", clientReviewId)).toMatchObject({
      leech_at: new Date("2026-03-20T10:00:00Z"),
      suspended: true,
    });

    const restored = await actAs(db, alice, (tx) => undoReview(tx, clientReviewId));

    expect(restored).toMatchObject({ lapses: 11, leech_at: new Date("2026-03-02T10:00:00Z"), suspended: false });
  });

  test("of an answer that marked nothing leaves the mark and a suspension made since alone", async () => {
    const card = await reviewCard(verbs, 7);
    await forget(card, alice, "2026-03-02T10:00:00Z");
    await relearned(card, 8, { suspended: false });
    const clientReviewId = randomUUID();
    await forget(card, alice, "2026-03-20T10:00:00Z", clientReviewId); // lapse 9: no mark
    await actAs(db, alice, (tx) => tx.query("select set_suspended(array[$1]::uuid[], true)", [card]));

    const restored = await actAs(db, alice, (tx) => undoReview(tx, clientReviewId));

    expect(restored).toMatchObject({ lapses: 8, leech_at: new Date("2026-03-02T10:00:00Z"), suspended: true });
  });
});

describe("a leech is its user's own", () => {
  test("one member's leech leaves the other members' schedules of the card unmarked and unsuspended", async () => {
    const card = await reviewCard(verbs, 7, bob);
    await setState(db, vera.id, card, reviewDue("2026-03-01T09:00:00Z", { lapses: 7 }));
    const veraBefore = await stateOf(db, vera.id, card);

    await forget(card, bob);

    expect(await stateOf(db, vera.id, card)).toEqual(veraBefore);
    const seenByVera = await actAs(db, vera, (tx) =>
      tx.query<{ user_id: string; leech_at: Date | null; suspended: boolean }>(
        "select user_id, leech_at, suspended from card_states where card_id = $1",
        [card],
      ),
    );
    expect(seenByVera).toEqual([{ user_id: vera.id, leech_at: null, suspended: false }]);
  });

  test("the shared note gets no tag", async () => {
    const card = await reviewCard(verbs, 7);
    await forget(card);
    const [note] = await db.query<{ tags: string[] }>(
      "select n.tags from notes n join cards c on c.note_id = n.id where c.id = $1",
      [card],
    );
    expect(note?.tags).toEqual([]);
  });
});

describe("leech settings", () => {
  const change = "update decks set leech_threshold = 4, leech_action = 'tag_only' where id = $1 returning id";
  const settingsOf = async (deck: string) =>
    (await db.query("select leech_threshold, leech_action from decks where id = $1", [deck]))[0];

  test("the owner changes them", async () => {
    const deck = await createDeck(db, alice, { name: "Owner's settings" });
    await actAs(db, alice, (tx) => tx.query(change, [deck]));
    expect(await settingsOf(deck)).toEqual({ leech_threshold: 4, leech_action: "tag_only" });
  });

  test.each([
    ["an editor", () => bob],
    ["a viewer", () => vera],
  ])("%s cannot change them (no row is updated)", async (_, who) => {
    const before = await settingsOf(verbs);
    const updated = await actAs(db, who(), (tx) => tx.query(change, [verbs]));
    expect(updated).toEqual([]);
    expect(await settingsOf(verbs)).toEqual(before);
  });

  test("a new deck may be created with its own", async () => {
    const [deck] = await actAs(db, alice, (tx) =>
      tx.query(
        "insert into decks (name, leech_threshold, leech_action) values ('Hard', 3, 'tag_only') returning leech_threshold, leech_action",
      ),
    );
    expect(deck).toMatchObject({ leech_threshold: 3, leech_action: "tag_only" });
  });

  test.each([limits.leechThresholdMin - 1, limits.leechThresholdMax + 1, -1])(
    "a threshold of %i is refused (decks_leech_threshold_range)",
    async (threshold) => {
      const result = await probeAs(db, alice, (tx) =>
        tx.query("update decks set leech_threshold = $2 where id = $1", [verbs, threshold]),
      );
      expect(result).toMatchObject({ ok: false, error: { code: "23514", constraint: "decks_leech_threshold_range" } });
    },
  );

  test("the bounds 1 and 99 (limits of @engram/core) are accepted", async () => {
    for (const threshold of [limits.leechThresholdMin, limits.leechThresholdMax]) {
      const result = await probeAs(db, alice, (tx) =>
        tx.query<{ leech_threshold: number }>(
          "update decks set leech_threshold = $2 where id = $1 returning leech_threshold",
          [verbs, threshold],
        ),
      );
      expect(result).toEqual({ ok: true, value: [{ leech_threshold: threshold }] });
    }
  });

  test("an unknown action is refused (22P02), and no action at all (23502)", async () => {
    const unknown = await probeAs(db, alice, (tx) =>
      tx.query("update decks set leech_action = 'delete' where id = $1", [verbs]),
    );
    expect(unknown).toMatchObject({ ok: false, error: { code: "22P02" } });
    const missing = await probeAs(db, alice, (tx) =>
      tx.query("update decks set leech_threshold = null where id = $1", [verbs]),
    );
    expect(missing).toMatchObject({ ok: false, error: { code: "23502" } });
  });

  test("a copy of a deck keeps them", async () => {
    const deck = await deckWith(5, "tag_only");
    await actAs(db, alice, (tx) => tx.query("update decks set is_public = true where id = $1", [deck]));
    const [cloned] = await actAs(db, bob, (tx) => tx.query<{ id: string }>("select clone_deck($1) as id", [deck]));
    expect(await settingsOf(cloned?.id ?? "")).toEqual({ leech_threshold: 5, leech_action: "tag_only" });
  });
});
