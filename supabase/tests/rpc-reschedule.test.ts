import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  addBasicCards,
  addMember,
  type CardStateRow,
  createDeck,
  failure,
  recordReview,
  reviewDue,
  setState,
  stateOf,
  type User,
} from "./support/study-fixtures.js";

// reschedule_cards: the device sends the schedules it recomputed with new FSRS
// parameters, and they land on the caller's own card_states rows together, or
// not at all; answer_times and workload_cards: what the workload simulator
// starts from.

type Row = [cardId: string, version: number, stability: number, difficulty: number, scheduledDays: number | null];
type Counts = { earlier: number; later: number; unchanged: number; skipped: number };

const hour = 3_600_000;
const lastReview = "2026-03-01T10:00:00Z";
const due = "2026-03-13T10:00:00Z"; // 12 days after the last review

let db: Database;
let alice: User; // owns "Spanish"
let bob: User; // studies Spanish too
let spanish: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [alice, bob] = await Promise.all([createUser(db), createUser(db)]);
  spanish = await createDeck(db, alice, { name: "Spanish" });
  await addMember(db, alice, spanish, bob, "viewer");
});
afterAll(() => db.close());

function reschedule(tx: Queryable, rows: unknown): Promise<Counts> {
  return tx
    .query<{ counts: Counts }>("select reschedule_cards($1::jsonb) as counts", [JSON.stringify(rows)])
    .then((result) => result[0]?.counts as Counts);
}

/** Cards of their own for each test, studied by Alice: reviews due 12 days after their last answer. */
async function reviewCards(count: number, user: User = alice): Promise<string[]> {
  const cards = await addBasicCards(db, alice, spanish, count, "Palabra");
  for (const card of cards) await setState(db, user.id, card, reviewDue(due, { last_review: lastReview, version: 3 }));
  return cards;
}

async function states(userId: string, cards: string[]): Promise<CardStateRow[]> {
  return Promise.all(cards.map(async (card) => (await stateOf(db, userId, card)) as CardStateRow));
}

const daysAfterLastReview = (days: number) => new Date(Date.parse(lastReview) + days * 24 * hour);

describe("reschedule_cards", () => {
  test("moves review cards to their new interval after the last answer, updates memory states, and counts the moves", async () => {
    const [sooner, later, same, memoryOnly, identical] = (await reviewCards(5)) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const counts = await actAs(db, alice, (tx) =>
      reschedule(tx, [
        [sooner, 3, 6.5, 5.1, 7],
        [later, 3, 30.25, 3.9, 31],
        [same, 3, 13, 4, 12],
        [memoryOnly, 3, 11, 4.5, null],
        [identical, 3, 12.5, 4.2, 12],
      ]),
    );
    expect(counts).toEqual({ earlier: 1, later: 1, unchanged: 3, skipped: 0 });

    const [a, b, c, d, e] = await states(alice.id, [sooner, later, same, memoryOnly, identical]);
    expect(a).toMatchObject({ due: daysAfterLastReview(7), scheduled_days: 7, stability: 6.5, difficulty: 5.1 });
    expect(b).toMatchObject({ due: daysAfterLastReview(31), scheduled_days: 31, stability: 30.25, difficulty: 3.9 });
    expect(c).toMatchObject({ due: new Date(due), scheduled_days: 12, stability: 13, difficulty: 4 });
    expect(d).toMatchObject({ due: new Date(due), scheduled_days: 12, stability: 11, difficulty: 4.5 });
    // Changed rows are a new version, so a device holding the old one is refused; an identical one is left alone.
    expect([a, b, c, d, e].map((row) => row?.version)).toEqual([4, 4, 4, 4, 3]);
    expect(e).toMatchObject({ stability: 12.5, difficulty: 4.2, state: "review", last_review: new Date(lastReview) });
    expect(a).toMatchObject({ state: "review", reps: 4, suspended: false, last_review: new Date(lastReview) });
  });

  test("is idempotent: the same batch again changes nothing and reports every card unchanged", async () => {
    const cards = await reviewCards(2);
    const batch: Row[] = [
      [cards[0] as string, 3, 3, 6, 3],
      [cards[1] as string, 3, 40, 2, 41],
    ];
    expect(await actAs(db, alice, (tx) => reschedule(tx, batch))).toEqual({
      earlier: 1,
      later: 1,
      unchanged: 0,
      skipped: 0,
    });
    const after = await states(alice.id, cards);
    expect(await actAs(db, alice, (tx) => reschedule(tx, batch))).toEqual({
      earlier: 0,
      later: 0,
      unchanged: 2,
      skipped: 0,
    });
    expect(await states(alice.id, cards)).toEqual(after);
  });

  test("skips a card answered since the batch was computed, and applies the rest", async () => {
    const [answered, other] = (await reviewCards(2)) as [string, string];
    const answeredNow = await actAs(db, alice, (tx) =>
      recordReview(tx, {
        cardId: answered,
        expectedVersion: 3,
        state: "review",
        due: new Date(Date.now() + 20 * 24 * hour),
        stability: 20,
        difficulty: 4,
        scheduledDays: 20,
        reps: 5,
      }),
    );
    const counts = await actAs(db, alice, (tx) =>
      reschedule(tx, [
        [answered, 3, 2, 7, 2],
        [other, 3, 2, 7, 2],
      ]),
    );
    expect(counts).toEqual({ earlier: 1, later: 0, unchanged: 0, skipped: 1 });
    expect(await stateOf(db, alice.id, answered)).toEqual(answeredNow);
  });

  test("changes only the caller's own schedules of a shared card", async () => {
    const [card] = (await reviewCards(1)) as [string];
    await setState(db, bob.id, card, reviewDue(due, { last_review: lastReview, version: 3 }));
    const alicesBefore = await stateOf(db, alice.id, card);
    expect(await actAs(db, bob, (tx) => reschedule(tx, [[card, 3, 50, 3, 50]]))).toMatchObject({ later: 1 });
    expect(await stateOf(db, bob.id, card)).toMatchObject({ stability: 50, scheduled_days: 50 });
    expect(await stateOf(db, alice.id, card)).toEqual(alicesBefore);
  });

  test("refuses a batch naming a card the caller has no schedule for, and changes nothing", async () => {
    const carol = await createUser(db);
    const carols = await createDeck(db, carol, { name: "Carol's" });
    const [foreign] = (await addBasicCards(db, carol, carols, 1)) as [string];
    await setState(db, carol.id, foreign, reviewDue(due, { last_review: lastReview, version: 3 }));
    const [mine] = (await reviewCards(1)) as [string];
    const before = await states(alice.id, [mine]);
    const carolsBefore = await stateOf(db, carol.id, foreign);

    const error = await failure(
      actAs(db, alice, (tx) =>
        reschedule(tx, [
          [mine, 3, 1, 9, 1],
          [foreign, 3, 1, 9, 1],
        ]),
      ),
    );
    expect(error).toMatchObject({ code: "PT404", detail: "card_id" });
    expect(error.message).toContain(foreign);
    expect(await states(alice.id, [mine])).toEqual(before);
    expect(await stateOf(db, carol.id, foreign)).toEqual(carolsBefore);
  });

  test.each([
    ["stability over 36500", (card: string) => [card, 3, 36_500.5, 5, 10], "stability"],
    ["negative stability", (card: string) => [card, 3, -1, 5, 10], "stability"],
    ["stability as text", (card: string) => [card, 3, "12", 5, 10], "stability"],
    ["difficulty over 10", (card: string) => [card, 3, 12, 10.01, 10], "difficulty"],
    ["a missing difficulty", (card: string) => [card, 3, 12, null, 10], "difficulty"],
    ["scheduled_days over 36500", (card: string) => [card, 3, 12, 5, 36_501], "scheduled_days"],
    ["fractional scheduled_days", (card: string) => [card, 3, 12, 5, 1.5], "scheduled_days"],
    ["a negative version", (card: string) => [card, -1, 12, 5, 10], "version"],
    ["a card id that is not a uuid", () => ["not-a-card", 3, 12, 5, 10], "card_id"],
    ["a row of the wrong length", (card: string) => [card, 3, 12, 5], "schedules"],
    ["an object instead of a row", (card: string) => ({ card_id: card }), "schedules"],
  ])("refuses %s with the field named, and changes nothing", async (_, bad, field) => {
    const [good, other] = (await reviewCards(2)) as [string, string];
    const before = await states(alice.id, [good, other]);
    const error = await failure(actAs(db, alice, (tx) => reschedule(tx, [[good, 3, 1, 9, 1], bad(other)])));
    expect(error).toMatchObject({ code: "22023", detail: field });
    expect(error.message).toMatch(/^schedule 2: /);
    expect(await states(alice.id, [good, other])).toEqual(before);
  });

  test("refuses a batch that is not an array, names a card twice or a card never studied", async () => {
    const [card] = (await reviewCards(1)) as [string];
    const [fresh] = (await addBasicCards(db, alice, spanish, 1, "Nueva")) as [string];
    const before = await states(alice.id, [card, fresh]);

    expect(await failure(actAs(db, alice, (tx) => reschedule(tx, { card })))).toMatchObject({
      code: "22023",
      detail: "schedules",
    });
    const twice = await failure(
      actAs(db, alice, (tx) =>
        reschedule(tx, [
          [card, 3, 1, 9, 1],
          [card, 3, 2, 9, 2],
        ]),
      ),
    );
    expect(twice).toMatchObject({ code: "22023", detail: "card_id" });
    expect(twice.message).toContain("twice");
    const unstudied = await failure(actAs(db, alice, (tx) => reschedule(tx, [[fresh, 0, 1, 9, 1]])));
    expect(unstudied).toMatchObject({ code: "22023", detail: "card_id" });
    expect(await states(alice.id, [card, fresh])).toEqual(before);
  });

  test("asks who is calling: nobody signed in is refused", async () => {
    const [card] = (await reviewCards(1)) as [string];
    const result = await probeAs(db, anon, (tx) => reschedule(tx, [[card, 3, 1, 9, 1]]));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });

  test("an empty batch changes nothing", async () => {
    expect(await actAs(db, alice, (tx) => reschedule(tx, []))).toEqual({
      earlier: 0,
      later: 0,
      unchanged: 0,
      skipped: 0,
    });
  });
});

describe("answer_times", () => {
  test("sums the caller's own answers and seconds by state and rating", async () => {
    const dana = await createUser(db);
    const deck = await createDeck(db, dana, { name: "Dana's" });
    const [first, second] = (await addBasicCards(db, dana, deck, 2)) as [string, string];
    await actAs(db, dana, async (tx) => {
      await recordReview(tx, { cardId: first, expectedVersion: 0, rating: 3, durationMs: 4000 });
      await recordReview(tx, { cardId: second, expectedVersion: 0, rating: 3, durationMs: 6000 });
      await recordReview(tx, { cardId: first, expectedVersion: 1, rating: 1, durationMs: 9000 });
    });
    const rows = await actAs(db, dana, (tx) =>
      tx.query<{ state: string; rating: number; answers: string | number; seconds: number }>(
        "select * from answer_times()",
      ),
    );
    expect(rows.map((row) => ({ ...row, answers: Number(row.answers) }))).toEqual([
      { state: "new", rating: 3, answers: 2, seconds: 10 },
      { state: "learning", rating: 1, answers: 1, seconds: 9 },
    ]);
    // Nobody else's answers count.
    expect(await actAs(db, bob, (tx) => tx.query("select * from answer_times()"))).toEqual([]);
  });
});

describe("workload_cards", () => {
  test("lists the caller's studied cards in study days from today, and counts the new ones", async () => {
    const erin = await createUser(db);
    const deck = await createDeck(db, erin, { name: "Erin's" });
    const [studied, overdue, suspended, fresh] = (await addBasicCards(db, erin, deck, 4)) as string[];
    const now = new Date("2026-03-10T12:00:00Z"); // a study day from 04:00 UTC
    await setState(db, erin.id, studied as string, {
      ...reviewDue("2026-03-15T09:00:00Z", { last_review: "2026-03-08T03:00:00Z" }),
      stability: 7.123456,
      difficulty: 3.5,
    });
    await setState(db, erin.id, overdue as string, reviewDue("2026-03-01T12:00:00Z"));
    await setState(db, erin.id, suspended as string, reviewDue("2026-03-12T12:00:00Z", { suspended: true }));
    const result = await actAs(db, erin, (tx) =>
      tx.query<{ w: { new: number; cards: number[][] } }>("select workload_cards($1) as w", [now.toISOString()]),
    );
    const workload = result[0]?.w;
    expect(workload?.new).toBe(1);
    expect(fresh).toBeDefined();
    // 03:00 on the 8th belongs to the study day of the 7th: three days ago.
    expect(workload?.cards).toContainEqual([7.1235, 3.5, 5, -3]);
    expect(workload?.cards).toContainEqual([12.5, 4.2, -9, -21]);
    expect(workload?.cards).toHaveLength(2);
    // Only the caller's own.
    const bobs = await actAs(db, bob, (tx) => tx.query<{ w: { cards: unknown[] } }>("select workload_cards() as w"));
    expect(bobs[0]?.w.cards).not.toContainEqual([7.1235, 3.5, 5, -3]);
  });
});
