import { randomUUID } from "node:crypto";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  addBasicCards,
  addMember,
  createDeck,
  failure,
  logsOf,
  type ReviewInput,
  recordReview,
  reviewDue,
  setState,
  stateJson,
  stateOf,
  type User,
  undoReview,
} from "./support/study-fixtures.js";

// record_review and undo_review (docs/product.md §2 study screen, §5, §7): answers are
// stored atomically and idempotently, a device that missed another device's
// answer is refused, and undo puts back exactly what was there.

let db: Database;
let alice: User; // owns "Spanish" (private) and "Capitals" (public)
let bob: User; // studies Spanish as a viewer
let carol: User; // belongs to no deck
let spanish: string;
let capitalsCard: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [alice, bob, carol] = await Promise.all([
    createUser(db, { displayName: "Alice" }),
    createUser(db, { displayName: "Bob" }),
    createUser(db, { displayName: "Carol" }),
  ]);
  spanish = await createDeck(db, alice, { name: "Spanish" });
  await addMember(db, alice, spanish, bob, "viewer");
  const capitals = await createDeck(db, alice, { name: "Capitals", isPublic: true });
  [capitalsCard] = (await addBasicCards(db, alice, capitals, 1, "Capital")) as [string];
});
afterAll(() => db.close());

/** A card of its own for each test, so tests do not depend on each other's answers. */
async function newCard(): Promise<string> {
  const [card] = await addBasicCards(db, alice, spanish, 1, "Palabra");
  return card as string;
}

describe("record_review", () => {
  test("stores the answer's log and the card's new schedule together, and bumps the version", async () => {
    const card = await newCard();
    const before = await stateOf(db, alice.id, card);
    // The answer keeps the schedule it found, without the card's note and ordinal.
    const { note_id, ordinal, ...beforeJson } = (await stateJson(db, alice.id, card)) as Record<string, unknown>;
    const clientReviewId = randomUUID();

    const returned = await actAs(db, alice, (tx) =>
      recordReview(tx, {
        cardId: card,
        clientReviewId,
        expectedVersion: 0,
        rating: 3,
        reviewedAt: "2026-03-02T10:00:00Z",
        durationMs: 4200,
        state: "learning",
        due: "2026-03-02T10:10:00Z",
        stability: 2.3065,
        difficulty: 2.118104,
        learningSteps: 1,
        reps: 1,
      }),
    );

    expect(returned).toEqual({
      ...before,
      state: "learning",
      due: new Date("2026-03-02T10:10:00Z"),
      stability: 2.3065,
      difficulty: 2.118104,
      elapsed_days: 0,
      scheduled_days: 0,
      learning_steps: 1,
      reps: 1,
      lapses: 0,
      last_review: new Date("2026-03-02T10:00:00Z"),
      version: 1,
      updated_at: expect.any(Date),
    });
    expect(await stateOf(db, alice.id, card)).toEqual(returned);
    expect(await logsOf(db, alice.id, card)).toEqual([
      {
        id: expect.any(String),
        user_id: alice.id,
        card_id: card,
        client_review_id: clientReviewId,
        rating: 3,
        // the schedule before the answer ...
        state: "new",
        due: before?.due,
        // ... and after it
        stability: 2.3065,
        difficulty: 2.118104,
        elapsed_days: 0,
        last_elapsed_days: 0,
        scheduled_days: 0,
        learning_steps: 1,
        reviewed_at: new Date("2026-03-02T10:00:00Z"),
        duration_ms: 4200,
        previous: beforeJson,
        created_at: expect.any(Date),
      },
    ]);
  });

  test("leaves the other members' schedules of the card alone", async () => {
    const card = await newCard();
    const bobBefore = await stateOf(db, bob.id, card);
    await actAs(db, alice, (tx) => recordReview(tx, { cardId: card, expectedVersion: 0 }));
    expect(await stateOf(db, bob.id, card)).toEqual(bobBefore);
  });

  test("stores no log when the new schedule cannot be stored (one transaction)", async () => {
    const card = await newCard();
    const before = await stateOf(db, alice.id, card);
    // reps is kept only in card_states, whose constraint refuses a negative
    // count; the log is written first and must disappear with the failed update.
    const error = await failure(
      actAs(db, alice, (tx) => recordReview(tx, { cardId: card, expectedVersion: 0, reps: -1 })),
    );
    expect(error).toMatchObject({ code: "23514", constraint: "card_states_reps_range" });
    expect(await logsOf(db, alice.id, card)).toEqual([]);
    expect(await stateOf(db, alice.id, card)).toEqual(before);
  });

  test("a retry with the same client_review_id returns the stored schedule and stores nothing more", async () => {
    const card = await newCard();
    // An offline queue re-sends the exact same answer after a lost response.
    const answer: ReviewInput = {
      cardId: card,
      clientReviewId: randomUUID(),
      expectedVersion: 0,
      reviewedAt: "2026-03-02T10:00:00Z",
    };
    const first = await actAs(db, alice, (tx) => recordReview(tx, answer));
    const retry = await actAs(db, alice, (tx) => recordReview(tx, answer));

    expect(retry).toEqual(first);
    expect(retry.version).toBe(1);
    expect(await stateOf(db, alice.id, card)).toEqual(first);
    expect(await logsOf(db, alice.id, card)).toHaveLength(1);
  });

  test("a retry returns the schedule of the card it answered, whatever card it names", async () => {
    const [answered, other] = [await newCard(), await newCard()];
    const clientReviewId = randomUUID();
    const first = await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: answered, clientReviewId, expectedVersion: 0, reviewedAt: "2026-03-02T10:00:00Z" }),
    );
    const retry = await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: other, clientReviewId, expectedVersion: 0 }),
    );

    expect(retry).toEqual(first);
    expect(await logsOf(db, alice.id, other)).toHaveLength(0);
  });

  test("refuses an answer computed from an older schedule (another device answered first) with PT409 and the current schedule", async () => {
    const card = await newCard();
    // Phone and laptop both loaded version 0; the phone's answer lands first.
    const phone = await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: card, expectedVersion: 0, rating: 3, reviewedAt: "2026-03-02T10:00:00Z" }),
    );
    const error = await failure(
      actAs(db, alice, (tx) =>
        recordReview(tx, { cardId: card, expectedVersion: 0, rating: 1, reviewedAt: "2026-03-02T10:00:05Z" }),
      ),
    );

    expect(error.code).toBe("PT409");
    expect(JSON.parse(error.detail ?? "null")).toEqual(await stateJson(db, alice.id, card));
    expect(JSON.parse(error.detail ?? "null")).toMatchObject({ card_id: card, version: 1, state: "learning" });
    expect(await stateOf(db, alice.id, card)).toEqual(phone);
    expect(await logsOf(db, alice.id, card)).toHaveLength(1);
  });

  test("accepts the refused device's answer once recomputed from the version in the conflict", async () => {
    const card = await newCard();
    await actAs(db, alice, (tx) => recordReview(tx, { cardId: card, expectedVersion: 0 }));
    const conflict = await failure(actAs(db, alice, (tx) => recordReview(tx, { cardId: card, expectedVersion: 0 })));
    const current = JSON.parse(conflict.detail ?? "null") as { version: number };

    const recomputed = await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: card, expectedVersion: current.version, reps: 2 }),
    );
    expect(recomputed).toMatchObject({ version: 2, reps: 2 });
    expect(await logsOf(db, alice.id, card)).toHaveLength(2);
  });

  const soon = () => new Date(Date.now() + 10 * 60_000);
  const maxIntervalMs = 36_500 * 86_400_000;
  test.each<{ what: string; input: Partial<ReviewInput>; detail: string }>([
    { what: "a rating of 0", input: { rating: 0 }, detail: "rating" },
    { what: "a rating of 5", input: { rating: 5 }, detail: "rating" },
    { what: "a negative duration", input: { durationMs: -1 }, detail: "duration_ms" },
    { what: "a duration over an hour", input: { durationMs: 3_600_001 }, detail: "duration_ms" },
    { what: "reviewed_at 10 minutes in the future", input: { reviewedAt: soon() }, detail: "reviewed_at" },
    { what: "no expected_version", input: { expectedVersion: null }, detail: "expected_version" },
    { what: "'new' as the next state", input: { state: "new" }, detail: "schedule" },
    {
      what: "a next due before the answer",
      input: { reviewedAt: "2026-03-02T10:00:00Z", due: "2026-03-02T09:00:00Z" },
      detail: "schedule",
    },
    // Values FSRS never produces: non-finite, out of range, or due past the maximum interval.
    { what: "a stability of NaN", input: { stability: Number.NaN }, detail: "stability" },
    { what: "an infinite stability", input: { stability: Number.POSITIVE_INFINITY }, detail: "stability" },
    { what: "a stability of 1e308", input: { stability: 1e308 }, detail: "stability" },
    { what: "a negative stability", input: { stability: -1 }, detail: "stability" },
    { what: "a difficulty of NaN", input: { difficulty: Number.NaN }, detail: "difficulty" },
    { what: "a difficulty over 10", input: { difficulty: 10.5 }, detail: "difficulty" },
    { what: "scheduled_days over 36,500", input: { scheduledDays: 36_501 }, detail: "scheduled_days" },
    { what: "negative elapsed_days", input: { elapsedDays: -1 }, detail: "elapsed_days" },
    { what: "negative learning_steps", input: { learningSteps: -1 }, detail: "learning_steps" },
    {
      what: "a due date in year 9999",
      input: { reviewedAt: "2026-03-02T10:00:00Z", due: "9999-12-31T00:00:00Z" },
      detail: "due",
    },
    {
      what: "a due date one second past 36,500 days after the answer",
      input: {
        reviewedAt: "2026-03-02T10:00:00Z",
        due: new Date(Date.parse("2026-03-02T10:00:00Z") + maxIntervalMs + 1000),
      },
      detail: "due",
    },
  ])("refuses $what with 22023 naming the argument, storing nothing", async ({ input, detail }) => {
    const card = await newCard();
    const before = await stateOf(db, alice.id, card);
    const error = await failure(
      actAs(db, alice, (tx) => recordReview(tx, { cardId: card, expectedVersion: 0, ...input })),
    );
    expect(error).toMatchObject({ code: "22023", detail });
    expect(await logsOf(db, alice.id, card)).toEqual([]);
    expect(await stateOf(db, alice.id, card)).toEqual(before);
  });

  test("accepts the limits themselves: ratings 1 and 4, 0 ms and one hour, reviewed_at 4 minutes ahead", async () => {
    const card = await newCard();
    const fourMinutesAhead = new Date(Date.now() + 4 * 60_000);
    await actAs(db, alice, async (tx) => {
      await recordReview(tx, {
        cardId: card,
        expectedVersion: 0,
        rating: 1,
        durationMs: 0,
        reviewedAt: "2026-03-02T10:00:00Z",
      });
      await recordReview(tx, {
        cardId: card,
        expectedVersion: 1,
        rating: 4,
        durationMs: 3_600_000,
        reviewedAt: fourMinutesAhead,
      });
    });
    expect((await logsOf(db, alice.id, card)).map((log) => [log.rating, log.duration_ms])).toEqual([
      [1, 0],
      [4, 3_600_000],
    ]);
  });

  test("refuses someone who has not added a public deck to their decks (42501), creating no schedule", async () => {
    const error = await failure(
      actAs(db, carol, (tx) => recordReview(tx, { cardId: capitalsCard, expectedVersion: 0 })),
    );
    expect(error.code).toBe("42501");
    expect(await stateOf(db, carol.id, capitalsCard)).toBeUndefined();
    expect(await logsOf(db, carol.id)).toEqual([]);
  });

  test("does not find a card of a private deck the caller cannot see (PT404 card_id)", async () => {
    const card = await newCard();
    const error = await failure(actAs(db, carol, (tx) => recordReview(tx, { cardId: card, expectedVersion: 0 })));
    expect(error).toMatchObject({ code: "PT404", detail: "card_id" });
    expect(await stateOf(db, carol.id, card)).toBeUndefined();
  });

  test("does not find a card that does not exist (PT404 card_id)", async () => {
    const error = await failure(
      actAs(db, alice, (tx) => recordReview(tx, { cardId: randomUUID(), expectedVersion: 0 })),
    );
    expect(error).toMatchObject({ code: "PT404", detail: "card_id" });
  });

  test("does not find a card of a private deck the caller has left (PT404 card_id)", async () => {
    const card = await newCard();
    // Bob keeps his card_states rows after leaving, but the deck is private again for him.
    const result = await probeAs(db, bob, async (tx) => {
      await tx.query("delete from deck_members where deck_id = $1 and user_id = auth.uid()", [spanish]);
      return recordReview(tx, { cardId: card, expectedVersion: 0 });
    });
    expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "card_id" } });
  });

  test("cannot be called anonymously", async () => {
    const card = await newCard();
    const result = await probeAs(db, anon, (tx) => recordReview(tx, { cardId: card, expectedVersion: 0 }));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("schedules FSRS cannot produce", () => {
  test("record_review accepts the bounds themselves: stability 36,500, difficulty 10, due 36,500 days after the answer", async () => {
    const card = await newCard();
    const reviewedAt = "2026-03-02T10:00:00Z";
    const due = new Date(Date.parse(reviewedAt) + 36_500 * 86_400_000);
    const stored = await actAs(db, alice, (tx) =>
      recordReview(tx, {
        cardId: card,
        expectedVersion: 0,
        reviewedAt,
        state: "review",
        due,
        stability: 36_500,
        difficulty: 10,
        scheduledDays: 36_500,
      }),
    );
    expect(stored).toMatchObject({ stability: 36_500, difficulty: 10, scheduled_days: 36_500, due });
  });

  test.each([
    ["card_states_stability_range", "update card_states set stability = 'NaN' where user_id = $1 and card_id = $2"],
    [
      "card_states_stability_range",
      "update card_states set stability = 'Infinity' where user_id = $1 and card_id = $2",
    ],
    [
      "card_states_due_range",
      "update card_states set last_review = now(), due = '9999-01-01' where user_id = $1 and card_id = $2",
    ],
    ["card_states_dates_range", "update card_states set due = 'infinity' where user_id = $1 and card_id = $2"],
  ])("the table itself refuses what no RPC may store (%s)", async (constraint, sql) => {
    const card = await newCard();
    const error = await failure(db.query(sql, [alice.id, card]));
    expect(error).toMatchObject({ code: "23514", constraint });
  });

  test.each([
    ["review_logs_stability_range", "'NaN'::float8", "5"],
    ["review_logs_stability_range", "1e308", "5"],
    ["review_logs_difficulty_range", "3", "'NaN'::float8"],
  ])("review_logs refuses an impossible schedule (%s)", async (constraint, stability, difficulty) => {
    const card = await newCard();
    const error = await failure(
      db.query(
        `insert into review_logs (user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
           elapsed_days, scheduled_days, reviewed_at, duration_ms, previous)
         values ($1, $2, gen_random_uuid(), 3, 'new', now(), ${stability}, ${difficulty}, 0, 1, now(), 1000, '{}')`,
        [alice.id, card],
      ),
    );
    expect(error).toMatchObject({ code: "23514", constraint });
  });

  test("undo_review refuses to restore an impossible schedule (23514), changing nothing", async () => {
    const card = await newCard();
    const clientReviewId = randomUUID();
    await actAs(db, alice, (tx) => recordReview(tx, { cardId: card, clientReviewId, expectedVersion: 0 }));
    // A log whose saved schedule was tampered with (say, by an import) must not put it back.
    await db.query(
      `update review_logs set previous = previous || '{"stability": 1e308}' where user_id = $1 and client_review_id = $2`,
      [alice.id, clientReviewId],
    );
    const before = await stateOf(db, alice.id, card);
    const error = await failure(actAs(db, alice, (tx) => undoReview(tx, clientReviewId)));
    expect(error).toMatchObject({ code: "23514", constraint: "card_states_stability_range" });
    expect(await stateOf(db, alice.id, card)).toEqual(before);
    expect(await logsOf(db, alice.id, card)).toHaveLength(1);
  });
});

describe("undo_review", () => {
  test("restores exactly the schedule from before the answer (every column), bumps the version and deletes the log", async () => {
    const card = await newCard();
    // A well-studied, flagged card buried until tomorrow: answering clears the
    // bury, so undoing must put it back along with the FSRS fields.
    await setState(
      db,
      alice.id,
      card,
      reviewDue("2026-03-01T09:00:00Z", { flag: 2, buried_until: "2099-01-01T04:00:00Z", version: 7 }),
    );
    const before = await stateOf(db, alice.id, card);
    const clientReviewId = randomUUID();
    await actAs(db, alice, (tx) =>
      recordReview(tx, {
        cardId: card,
        clientReviewId,
        expectedVersion: 7,
        rating: 1,
        state: "relearning",
        stability: 1.1,
        difficulty: 6.3,
        lapses: 1,
        reps: 5,
      }),
    );

    const returned = await actAs(db, alice, (tx) => undoReview(tx, clientReviewId));

    expect(returned).toEqual({ ...before, version: 9, updated_at: expect.any(Date) });
    expect(await stateOf(db, alice.id, card)).toEqual(returned);
    expect(await logsOf(db, alice.id, card)).toEqual([]);
  });

  test("steps back through successive answers, latest first", async () => {
    const card = await newCard();
    const original = await stateOf(db, alice.id, card);
    const [first, second] = [randomUUID(), randomUUID()];
    const afterFirst = await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: card, clientReviewId: first, expectedVersion: 0, reviewedAt: "2026-03-02T10:00:00Z" }),
    );
    await actAs(db, alice, (tx) =>
      recordReview(tx, {
        cardId: card,
        clientReviewId: second,
        expectedVersion: 1,
        reviewedAt: "2026-03-02T10:10:00Z",
        state: "review",
        due: "2026-03-05T10:10:00Z",
        scheduledDays: 3,
        reps: 2,
      }),
    );

    expect(await actAs(db, alice, (tx) => undoReview(tx, second))).toEqual({
      ...afterFirst,
      version: 3,
      updated_at: expect.any(Date),
    });
    expect(await actAs(db, alice, (tx) => undoReview(tx, first))).toEqual({
      ...original,
      version: 4,
      updated_at: expect.any(Date),
    });
    expect(await logsOf(db, alice.id, card)).toEqual([]);
  });

  test("refuses to undo an answer that is not the card's latest (PT409 with the current schedule), changing nothing", async () => {
    const card = await newCard();
    const first = randomUUID();
    await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: card, clientReviewId: first, expectedVersion: 0, reviewedAt: "2026-03-02T10:00:00Z" }),
    );
    const latest = await actAs(db, alice, (tx) =>
      recordReview(tx, { cardId: card, expectedVersion: 1, reviewedAt: "2026-03-02T10:10:00Z", reps: 2 }),
    );

    const error = await failure(actAs(db, alice, (tx) => undoReview(tx, first)));

    expect(error.code).toBe("PT409");
    expect(JSON.parse(error.detail ?? "null")).toEqual(await stateJson(db, alice.id, card));
    expect(await stateOf(db, alice.id, card)).toEqual(latest);
    expect(await logsOf(db, alice.id, card)).toHaveLength(2);
  });

  test("refuses a device that computed an answer from the undone schedule (the version moved on)", async () => {
    const card = await newCard();
    const answer = randomUUID();
    await actAs(db, alice, (tx) => recordReview(tx, { cardId: card, clientReviewId: answer, expectedVersion: 0 }));
    await actAs(db, alice, (tx) => undoReview(tx, answer));
    // Another device saw version 1 (the undone answer) and answers from it.
    const error = await failure(actAs(db, alice, (tx) => recordReview(tx, { cardId: card, expectedVersion: 1 })));
    expect(error).toMatchObject({ code: "PT409" });
  });

  test("does not find an unknown review (PT404 client_review_id)", async () => {
    const error = await failure(actAs(db, alice, (tx) => undoReview(tx, randomUUID())));
    expect(error).toMatchObject({ code: "PT404", detail: "client_review_id" });
  });

  test("does not find another user's review (PT404), which stays as it was", async () => {
    const card = await newCard();
    const bobsAnswer = randomUUID();
    const bobsState = await actAs(db, bob, (tx) =>
      recordReview(tx, { cardId: card, clientReviewId: bobsAnswer, expectedVersion: 0 }),
    );

    const error = await failure(actAs(db, alice, (tx) => undoReview(tx, bobsAnswer)));

    expect(error).toMatchObject({ code: "PT404", detail: "client_review_id" });
    expect(await stateOf(db, bob.id, card)).toEqual(bobsState);
    expect(await logsOf(db, bob.id, card)).toHaveLength(1);
  });

  test("cannot be called anonymously", async () => {
    const result = await probeAs(db, anon, (tx) => undoReview(tx, randomUUID()));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});
