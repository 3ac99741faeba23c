import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import { addBasicCards, createDeck, failure, type User } from "./support/study-fixtures.js";

// Every timestamp that reaches the database lies from 1970 to year 9999
// (docs/product.md §5): the RPCs refuse one outside with 22023 naming the
// argument, and the card_states and review_logs constraints refuse one
// however it is written. Day ranges over an infinite p_now once never ended.

let db: Database;
let alice: User;
let deckId: string;
let cardId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  alice = await createUser(db, { displayName: "Alice" });
  deckId = await createDeck(db, alice, { name: "Bounds" });
  [cardId] = (await addBasicCards(db, alice, deckId, 1)) as [string];
});
afterAll(() => db.close());

const outOfRange = [
  ["infinity", "infinity"],
  ["-infinity", "-infinity"],
  ["year 294276", "294276-12-31 23:59:59+00"],
  ["4713 BC", "4713-01-01 00:00:00+00 BC"],
] as const;

/**
 * The call's outcome, or a failure once it has not answered in 10 s, so that
 * a query that never ends fails the test instead of hanging it. (PGlite runs
 * on this thread, where such a query also stops the timer; on PostgreSQL the
 * deadline holds.)
 */
async function promptly<T>(call: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the call did not answer within 10 s")), 10_000);
  });
  try {
    return await Promise.race([call, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const minuteAgo = () => new Date(Date.now() - 60_000).toISOString();
const inTenMinutes = () => new Date(Date.now() + 10 * 60_000).toISOString();

const recordReview = (tx: Queryable, reviewedAt: string, due: string) =>
  tx.query(
    `select * from record_review(
       p_card_id => $1, p_client_review_id => $2, p_rating => 3::smallint, p_reviewed_at => $3, p_duration_ms => 4200,
       p_expected_version => 0, p_state => 'learning', p_due => $4, p_stability => 2.3, p_difficulty => 2.1,
       p_elapsed_days => 0, p_scheduled_days => 0, p_learning_steps => 1, p_reps => 1, p_lapses => 0)`,
    [cardId, randomUUID(), reviewedAt, due],
  );

const calls: [string, string, (tx: Queryable, at: string) => Promise<unknown>][] = [
  ["study_queue", "now", (tx, at) => tx.query("select * from study_queue(p_now => $1)", [at])],
  ["user_stats", "now", (tx, at) => tx.query("select user_stats(p_now => $1)", [at])],
  [
    "user_stats of one deck",
    "now",
    (tx, at) => tx.query("select user_stats(p_deck_id => $1, p_now => $2)", [deckId, at]),
  ],
  ["review_stats", "now", (tx, at) => tx.query("select review_stats(p_days => 365, p_now => $1)", [at])],
  ["deck_stats", "now", (tx, at) => tx.query("select * from deck_stats(p_now => $1)", [at])],
  ["workload_cards", "now", (tx, at) => tx.query("select workload_cards(p_now => $1)", [at])],
  ["record_review's reviewed_at", "reviewed_at", (tx, at) => recordReview(tx, at, inTenMinutes())],
  ["record_review's due", "due", (tx, at) => recordReview(tx, minuteAgo(), at)],
];

describe.each(calls)("%s", (_, argument, call) => {
  test.each(outOfRange)(`refuses %s promptly with 22023 ${argument}`, async (_, at) => {
    const error = await promptly(failure(actAs(db, alice, (tx) => call(tx, at))));
    expect(error).toMatchObject({ code: "22023", detail: argument });
  });
});

describe.each(calls.filter(([, argument]) => argument === "now"))("%s", (_, __, call) => {
  test.each(["1970-01-01 00:00:00+00", "9999-12-31 23:59:59+00"])("answers for %s", async (at) => {
    await promptly(actAs(db, alice, (tx) => call(tx, at)));
  });
});

describe("the tables", () => {
  test.each(["due", "last_review", "buried_until", "leech_at"])(
    "refuse a schedule whose %s is in year 294276 or 4713 BC",
    async (column) => {
      for (const at of ["294276-12-31 23:59:59+00", "4713-01-01 00:00:00+00 BC"]) {
        // due follows last_review so that only the range is at fault
        const patch = column === "last_review" ? "last_review = $3, due = $3" : `${column} = $3`;
        const error = await failure(
          db.query(`update card_states set ${patch} where user_id = $1 and card_id = $2`, [alice.id, cardId, at]),
        );
        expect(error).toMatchObject({ code: "23514", constraint: "card_states_dates_range" });
      }
    },
  );

  test.each([
    ["reviewed_at", "4713-01-01 00:00:00+00 BC", minuteAgo()],
    ["due", minuteAgo(), "294276-12-31 23:59:59+00"],
    ["due", minuteAgo(), "4713-01-01 00:00:00+00 BC"],
  ])("refuse a review log whose %s is out of range", async (_, reviewedAt, due) => {
    const error = await failure(
      db.query(
        `insert into review_logs (user_id, card_id, client_review_id, rating, state, due, stability, difficulty,
           elapsed_days, scheduled_days, reviewed_at, duration_ms, previous)
         values ($1, $2, gen_random_uuid(), 3, 'new', $3, 1, 5, 0, 0, $4, 1000, '{}')`,
        [alice.id, cardId, due, reviewedAt],
      ),
    );
    expect(error).toMatchObject({ code: "23514", constraint: "review_logs_times_range" });
  });
});
