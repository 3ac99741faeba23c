import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  type AddedNote,
  addMember,
  addNote,
  basic,
  cloze,
  createDeck,
  recordReview,
  reversed,
  reviewDue,
  setState,
  type User,
  undoReview,
} from "./support/study-fixtures.js";

// Burying siblings, as Anki's deck options do: cards of one note are not
// studied the same day. Today's queue takes one card of a note from each
// buried category (new, review; learning on day-long steps only when the
// deck asks), and once a card is answered its siblings wait for the next
// study day. Learning cards due within the day are never buried.

// 10:00 UTC; with the default day start (04:00 UTC) today runs from
// 2026-04-02T04:00Z to 2026-04-03T04:00Z.
const NOW = "2026-04-02T10:00:00Z";
const TOMORROW = "2026-04-03T04:00:00Z";

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

function queueOf(tx: Queryable, deckId: string, now = NOW): Promise<string[]> {
  return tx
    .query<{ queue: string; card_id: string }>("select queue, card_id from study_queue(p_deck_id => $1, p_now => $2)", [
      deckId,
      now,
    ])
    .then((rows) => rows.map((row) => `${row.queue} ${names.get(row.card_id) ?? row.card_id}`));
}

/** Card names, so a queue reads as ["review pair1", "new pair2"]. */
const names = new Map<string, string>();
function nameCards(note: AddedNote, prefix: string): string[] {
  const ids = note.cardIds;
  ids.forEach((id, i) => {
    names.set(id, `${prefix}${i + 1}`);
  });
  return ids;
}

async function setBury(user: User, deckId: string, settings: Record<string, boolean>) {
  const columns = Object.keys(settings);
  await actAs(db, user, (tx) =>
    tx.query(`update decks set ${columns.map((c, i) => `${c} = $${i + 2}`).join(", ")} where id = $1`, [
      deckId,
      ...Object.values(settings),
    ]),
  );
}

describe("the queue", () => {
  let ana: User;
  let deck: string;
  let pair: string[];
  let clozeCards: string[];
  let single: string[];
  let reviews: string[];
  let mixed: string[];

  beforeAll(async () => {
    ana = await createUser(db, { displayName: "Ana" });
    deck = await createDeck(db, ana, { name: "Spanish", newPerDay: 20 });
    pair = nameCards(await addNote(db, ana, deck, reversed("perro", "dog")), "pair");
    clozeCards = nameCards(
      await addNote(db, ana, deck, cloze("{{c1::Madrid}} is the capital of {{c2::Spain}}, {{c3::Europe}}")),
      "cloze",
    );
    single = nameCards(await addNote(db, ana, deck, basic("gato", "cat")), "single");
    reviews = nameCards(await addNote(db, ana, deck, reversed("casa", "house")), "rev");
    mixed = nameCards(await addNote(db, ana, deck, reversed("libro", "book")), "mixed");
    // New cards in a known order: the note's first card first.
    for (const [i, id] of [...pair, ...clozeCards, ...single].entries())
      await setState(db, ana.id, id, { due: `2026-03-01T00:0${i}:00Z` });
    // Both cards of "casa" due today; "libro" has one review due and one new card.
    await setState(db, ana.id, reviews[0] as string, reviewDue("2026-04-01T12:00:00Z"));
    await setState(db, ana.id, reviews[1] as string, reviewDue("2026-04-02T08:00:00Z"));
    await setState(db, ana.id, mixed[1] as string, reviewDue("2026-04-01T13:00:00Z"));
    await setState(db, ana.id, mixed[0] as string, { due: "2026-02-01T00:00:00Z" });
  });

  test("takes one new card and one review card of a note, the first in study order", async () => {
    expect(await actAs(db, ana, (tx) => queueOf(tx, deck))).toEqual([
      "review rev1",
      "review mixed2",
      "new pair1",
      "new cloze1",
      "new single1",
    ]);
  });

  test("a new card waits while a sibling is due for review today", async () => {
    // mixed1 is the oldest new card, yet its sibling mixed2 is a review due today.
    expect(await actAs(db, ana, (tx) => queueOf(tx, deck))).not.toContain("new mixed1");
  });

  test("gives every card when the deck buries nothing", async () => {
    const result = await probeAs(db, ana, async (tx) => {
      await tx.query("update decks set bury_new = false, bury_reviews = false where id = $1", [deck]);
      return queueOf(tx, deck);
    });
    expect(result).toEqual({
      ok: true,
      value: [
        "review rev1",
        "review mixed2",
        "review rev2",
        "new mixed1",
        "new pair1",
        "new pair2",
        "new cloze1",
        "new cloze2",
        "new cloze3",
        "new single1",
      ],
    });
  });

  test("buries new and review siblings each by its own setting", async () => {
    const result = await probeAs(db, ana, async (tx) => {
      await tx.query("update decks set bury_new = false where id = $1", [deck]);
      const newOff = await queueOf(tx, deck);
      await tx.query("update decks set bury_new = true, bury_reviews = false where id = $1", [deck]);
      return { newOff, reviewsOff: await queueOf(tx, deck) };
    });
    expect(result).toEqual({
      ok: true,
      value: {
        newOff: [
          "review rev1",
          "review mixed2",
          "new mixed1",
          "new pair1",
          "new pair2",
          "new cloze1",
          "new cloze2",
          "new cloze3",
          "new single1",
        ],
        reviewsOff: ["review rev1", "review mixed2", "review rev2", "new pair1", "new cloze1", "new single1"],
      },
    });
  });

  test("a buried sibling leaves room for another card within the day's limit", async () => {
    const result = await probeAs(db, ana, async (tx) => {
      await tx.query("update decks set new_per_day = 2 where id = $1", [deck]);
      return queueOf(tx, deck);
    });
    expect(result).toEqual({ ok: true, value: ["review rev1", "review mixed2", "new pair1", "new cloze1"] });
  });
});

describe("answering a card", () => {
  let ben: User;
  let deck: string;
  let pair: string[];
  let reviews: string[];

  beforeAll(async () => {
    ben = await createUser(db, { displayName: "Ben" });
    deck = await createDeck(db, ben, { name: "German" });
    pair = nameCards(await addNote(db, ben, deck, reversed("Hund", "dog")), "hund");
    reviews = nameCards(await addNote(db, ben, deck, reversed("Haus", "house")), "haus");
    await setState(db, ben.id, pair[0] as string, { due: "2026-03-01T00:00:00Z" });
    await setState(db, ben.id, pair[1] as string, { due: "2026-03-01T00:01:00Z" });
    await setState(db, ben.id, reviews[0] as string, reviewDue("2026-04-01T12:00:00Z"));
    // Due tonight, after haus1: it waits behind it.
    await setState(db, ben.id, reviews[1] as string, reviewDue("2026-04-02T20:00:00Z"));
  });

  const answerGood = (tx: Queryable, cardId: string, clientReviewId?: string) =>
    recordReview(tx, {
      cardId,
      expectedVersion: 0,
      reviewedAt: "2026-04-02T09:00:00Z",
      state: "review",
      due: "2026-04-06T09:00:00Z",
      ...(clientReviewId ? { clientReviewId } : {}),
    });

  test("buries its new sibling for the rest of the day; the next day it is back", async () => {
    const result = await probeAs(db, ben, async (tx) => {
      const before = await queueOf(tx, deck);
      await answerGood(tx, pair[0] as string);
      return { before, today: await queueOf(tx, deck), tomorrow: await queueOf(tx, deck, TOMORROW) };
    });
    expect(result).toEqual({
      ok: true,
      value: {
        before: ["review haus1", "new hund1"],
        today: ["review haus1"],
        tomorrow: ["review haus1", "new hund2"],
      },
    });
  });

  test("buries a review sibling that comes due later the same day", async () => {
    const result = await probeAs(db, ben, async (tx) => {
      const before = await queueOf(tx, deck);
      await recordReview(tx, {
        cardId: reviews[0] as string,
        expectedVersion: 0,
        reviewedAt: "2026-04-02T09:00:00Z",
        state: "review",
        due: "2026-04-20T09:00:00Z",
      });
      return { before, after: await queueOf(tx, deck) };
    });
    // Before: haus2 waits behind haus1. After: haus1 is done and haus2 still waits, for tomorrow.
    expect(result).toEqual({
      ok: true,
      value: { before: ["review haus1", "new hund1"], after: ["new hund1"] },
    });
  });

  test("undoing the answer brings its siblings back", async () => {
    const clientReviewId = randomUUID();
    const result = await probeAs(db, ben, async (tx) => {
      await answerGood(tx, pair[0] as string, clientReviewId);
      const answered = await queueOf(tx, deck);
      await undoReview(tx, clientReviewId);
      return { answered, undone: await queueOf(tx, deck) };
    });
    expect(result).toEqual({
      ok: true,
      value: { answered: ["review haus1"], undone: ["review haus1", "new hund1"] },
    });
  });

  test("another member's answer buries nothing of hers", async () => {
    const cleo = await createUser(db, { displayName: "Cleo" });
    await addMember(db, ben, deck, cleo, "viewer");
    await setState(db, cleo.id, pair[0] as string, { due: "2026-03-01T00:00:00Z" });
    await setState(db, cleo.id, pair[1] as string, { due: "2026-03-01T00:01:00Z" });
    const after = await actAs(db, ben, async (tx) => {
      await answerGood(tx, pair[1] as string);
      return queueOf(tx, deck);
    });
    expect(after).toEqual(["review haus1"]);
    // Hers: both Hund cards new, the first one offered.
    const hers = await actAs(db, cleo, (tx) => queueOf(tx, deck));
    expect(hers.filter((card) => card.includes("hund"))).toEqual(["new hund1"]);
  });
});

describe("learning siblings", () => {
  let cara: User;
  let deck: string;
  let interday: string[];
  let intraday: string[];

  beforeAll(async () => {
    cara = await createUser(db, { displayName: "Cara" });
    deck = await createDeck(db, cara, { name: "Japanese" });
    interday = nameCards(await addNote(db, cara, deck, reversed("犬", "dog")), "day");
    intraday = nameCards(await addNote(db, cara, deck, reversed("猫", "cat")), "minute");
    // Learning steps of a day (as imported from Anki), both due this morning.
    for (const [i, id] of interday.entries())
      await setState(db, cara.id, id, {
        state: "learning",
        due: `2026-04-02T0${5 + i}:00:00Z`,
        scheduled_days: 1,
        reps: 2,
      });
    // Steps of minutes, both due within the day: answered today, they come back today.
    for (const [i, id] of intraday.entries())
      await setState(db, cara.id, id, { state: "learning", due: `2026-04-02T0${7 + i}:00:00Z`, reps: 1 });
  });

  test("are not buried unless the deck says so", async () => {
    expect(await actAs(db, cara, (tx) => queueOf(tx, deck))).toEqual([
      "learning day1",
      "learning day2",
      "learning minute1",
      "learning minute2",
    ]);
  });

  test("on steps of a day or more are buried when the deck buries interday learning", async () => {
    const result = await probeAs(db, cara, async (tx) => {
      await tx.query("update decks set bury_interday_learning = true where id = $1", [deck]);
      return queueOf(tx, deck);
    });
    expect(result).toEqual({ ok: true, value: ["learning day1", "learning minute1", "learning minute2"] });
  });

  test("due within the day are never buried, even after a sibling's answer", async () => {
    const result = await probeAs(db, cara, async (tx) => {
      await tx.query("update decks set bury_interday_learning = true where id = $1", [deck]);
      await recordReview(tx, {
        cardId: intraday[0] as string,
        expectedVersion: 0,
        reviewedAt: "2026-04-02T09:00:00Z",
        state: "learning",
        due: "2026-04-02T09:10:00Z",
      });
      return queueOf(tx, deck);
    });
    expect(result).toEqual({
      ok: true,
      value: ["learning day1", "learning minute2", "learning minute1"],
    });
  });
});

describe("the settings", () => {
  let owner: User;
  let editor: User;
  let viewer: User;
  let deck: string;

  beforeAll(async () => {
    [owner, editor, viewer] = await Promise.all([
      createUser(db, { displayName: "Owner" }),
      createUser(db, { displayName: "Editor" }),
      createUser(db, { displayName: "Viewer" }),
    ]);
    deck = await createDeck(db, owner, { name: "Shared" });
    await addMember(db, owner, deck, editor, "editor");
    await addMember(db, owner, deck, viewer, "viewer");
  });

  const settingsOf = async (user: User) =>
    (
      await actAs(db, user, (tx) =>
        tx.query("select bury_new, bury_reviews, bury_interday_learning from decks where id = $1", [deck]),
      )
    )[0];

  test("bury new and review siblings by default, not interday learning ones", async () => {
    expect(await settingsOf(owner)).toEqual({ bury_new: true, bury_reviews: true, bury_interday_learning: false });
  });

  test("are changed by the owner", async () => {
    await setBury(owner, deck, { bury_new: false, bury_interday_learning: true });
    expect(await settingsOf(viewer)).toEqual({ bury_new: false, bury_reviews: true, bury_interday_learning: true });
    await setBury(owner, deck, { bury_new: true, bury_interday_learning: false });
  });

  test("are not changed by an editor or a viewer", async () => {
    for (const member of [editor, viewer]) {
      const result = await probeAs(db, member, (tx) =>
        tx.query("update decks set bury_new = false, bury_reviews = false where id = $1 returning id", [deck]),
      );
      expect(result).toEqual({ ok: true, value: [] });
    }
    expect(await settingsOf(owner)).toEqual({ bury_new: true, bury_reviews: true, bury_interday_learning: false });
  });

  test("must be true or false", async () => {
    const result = await probeAs(db, owner, (tx) =>
      tx.query("update decks set bury_reviews = null where id = $1", [deck]),
    );
    expect(result).toMatchObject({ ok: false, error: { code: "23502" } });
    expect(await settingsOf(owner)).toMatchObject({ bury_reviews: true });
  });
});
