import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addNamedCards,
  addNotes,
  createDeck,
  only,
  recordReview,
  reversed,
  reviewDue,
  setState,
  type User,
  updateProfile,
} from "./support/study-fixtures.js";

// The deck list and the dashboard show, per deck, the new / learning / review
// counts deck_stats gives for today; they must be what a study session of
// that deck gets from study_queue, and their sum what "Study all" gets: daily
// limits (the deck's own or the profile's, less what was studied in the deck
// today), suspended and buried cards, and buried siblings alike.

// 10:00 UTC; with the default day start (04:00 UTC) today runs from
// 2026-03-10T04:00Z to 2026-03-11T04:00Z.
const NOW = "2026-03-10T10:00:00Z";

type Counts = { new: number; learning: number; review: number };
const none: Counts = { new: 0, learning: 0, review: 0 };

let db: Database;
let uma: User;
let plain: string; // the profile's limits
let own: string; // limits of its own
let imported: string; // imported today

/** What a session of one deck (or all decks) gets, by queue and by deck. */
async function sessionCounts(tx: Queryable, deckId: string | null) {
  const rows = await tx.query<{ queue: keyof Counts; deck_id: string }>(
    "select queue, deck_id from study_queue(p_deck_id => $1, p_now => $2)",
    [deckId, NOW],
  );
  const total: Counts = { ...none };
  const byDeck: Record<string, Counts> = {};
  for (const row of rows) {
    total[row.queue]++;
    byDeck[row.deck_id] ??= { ...none };
    (byDeck[row.deck_id] as Counts)[row.queue]++;
  }
  return { total, byDeck };
}

/** What the deck list shows for each deck today. */
async function listedCounts(tx: Queryable): Promise<Record<string, Counts>> {
  const rows = await tx.query<{ deck_id: string; new_today: number; learning_today: number; review_today: number }>(
    "select * from deck_stats(p_now => $1)",
    [NOW],
  );
  return Object.fromEntries(
    rows.map((row) => [row.deck_id, { new: row.new_today, learning: row.learning_today, review: row.review_today }]),
  );
}

const sum = (counts: Counts[]) =>
  counts.reduce((a, b) => ({ new: a.new + b.new, learning: a.learning + b.learning, review: a.review + b.review }), {
    ...none,
  });

/** A new deck made by an import, holding `count` basic notes, as the import screen makes one. */
async function importDeck(user: User, name: string, count: number): Promise<string> {
  const jobId = randomUUID();
  return actAs(db, user, async (tx) => {
    await tx.query(
      `select start_import(p_job_id => $1, p_source => 'apkg', p_total => $2, p_deck_name => $3, p_options => '{}')`,
      [jobId, count, name],
    );
    const notes = Array.from({ length: count }, (_, i) => ({
      guid: `${name}-${i}`,
      kind: "basic",
      fields: { front: `${name} ${i}`, back: "back" },
      tags: [],
    }));
    await tx.query("select stage_import(p_job_id => $1, p_batch => 0, p_payload => $2, p_processed => $3)", [
      jobId,
      JSON.stringify({ notes }),
      count,
    ]);
    const job = only(await tx.query<{ deck_id: string }>("select deck_id from finish_import(p_job_id => $1)", [jobId]));
    return job.deck_id;
  });
}

beforeAll(async () => {
  db = await openTestDatabase();
  uma = await createUser(db, { displayName: "Uma" });
  await updateProfile(db, uma, { new_per_day: 3, reviews_per_day: 4 });
  plain = await createDeck(db, uma, { name: "Plain" });
  own = await createDeck(db, uma, { name: "Own", newPerDay: 2, reviewsPerDay: 2 });

  // Plain: 6 reviews due today (more than the 4 a day), one buried until
  // tonight, one suspended; 2 learning cards today and one tomorrow; 5 new.
  const p = await addNamedCards(db, uma, plain, [
    "r1",
    "r2",
    "r3",
    "r4",
    "r5",
    "r6",
    "buried",
    "suspended",
    "l1",
    "l2",
    "lTomorrow",
    "n1",
    "n2",
    "n3",
    "n4",
    "n5",
  ]);
  for (const [i, name] of (["r1", "r2", "r3", "r4", "r5", "r6"] as const).entries())
    await setState(db, uma.id, p[name], reviewDue(`2026-03-0${i + 1}T12:00:00Z`));
  await setState(db, uma.id, p.buried, reviewDue("2026-03-01T00:00:00Z", { buried_until: "2026-03-10T20:00:00Z" }));
  await setState(db, uma.id, p.suspended, reviewDue("2026-03-01T00:00:00Z", { suspended: true }));
  await setState(db, uma.id, p.l1, { state: "learning", due: "2026-03-10T09:50:00Z", reps: 1 });
  await setState(db, uma.id, p.l2, { state: "relearning", due: "2026-03-10T18:00:00Z", reps: 5, lapses: 1 });
  await setState(db, uma.id, p.lTomorrow, { state: "learning", due: "2026-03-11T05:00:00Z", reps: 1 });

  // Own: 3 reviews and 2 reversed notes whose cards are all new (siblings).
  const o = await addNamedCards(db, uma, own, ["or1", "or2", "or3", "on1"]);
  for (const [i, name] of (["or1", "or2", "or3"] as const).entries())
    await setState(db, uma.id, o[name], reviewDue(`2026-03-0${i + 1}T12:00:00Z`));
  await addNotes(db, uma, own, [reversed("hola", "hello"), reversed("adiós", "goodbye")]);

  // This morning: one new card and one review of Plain, one review of Own.
  await actAs(db, uma, async (tx) => {
    await recordReview(tx, {
      cardId: p.n1,
      expectedVersion: 0,
      reviewedAt: "2026-03-10T08:00:00Z",
      state: "review",
      due: "2026-03-14T08:00:00Z",
    });
    await recordReview(tx, {
      cardId: p.r1,
      expectedVersion: 0,
      reviewedAt: "2026-03-10T08:01:00Z",
      state: "review",
      due: "2026-03-30T08:00:00Z",
    });
    await recordReview(tx, {
      cardId: o.or1,
      expectedVersion: 0,
      reviewedAt: "2026-03-10T08:02:00Z",
      state: "review",
      due: "2026-03-30T08:00:00Z",
    });
  });

  // Then she used up the profile's 3 new cards in Plain, and imported a deck.
  await actAs(db, uma, async (tx) => {
    for (const [i, name] of (["n2", "n3"] as const).entries())
      await recordReview(tx, {
        cardId: p[name],
        expectedVersion: 0,
        reviewedAt: `2026-03-10T08:1${i}:00Z`,
        state: "review",
        due: "2026-03-14T08:00:00Z",
      });
  });
  imported = await importDeck(uma, "Imported", 5);
});
afterAll(() => db.close());

describe("each deck's counts", () => {
  test("are what a session of that deck gives", async () => {
    const result = await actAs(db, uma, async (tx) => {
      const listed = await listedCounts(tx);
      const sessions: Record<string, Counts> = {};
      for (const deck of [plain, own, imported]) sessions[deck] = (await sessionCounts(tx, deck)).total;
      return { listed, sessions };
    });
    expect(result.listed).toEqual(result.sessions);
  });

  test("keep within the day's limits, less what was studied in the deck today", async () => {
    const listed = await actAs(db, uma, listedCounts);
    expect(listed).toEqual({
      // 4 reviews a day, one answered: 3 of its 5 due ones; its 3 new ones used up
      [plain]: { new: 0, learning: 2, review: 3 },
      // 2 reviews a day of its own, one answered: 1; 2 new, one card of each reversed note
      [own]: { new: 2, learning: 0, review: 1 },
      // its own allowance, though other decks used the profile's 3 today
      [imported]: { new: 3, learning: 0, review: 0 },
    });
  });
});

describe("all decks", () => {
  test("give the sum of each deck's counts, deck by deck", async () => {
    const result = await actAs(db, uma, async (tx) => ({
      listed: await listedCounts(tx),
      all: await sessionCounts(tx, null),
    }));
    const total = (counts: Counts) => counts.new + counts.learning + counts.review;
    expect(result.all.byDeck).toEqual(
      Object.fromEntries(Object.entries(result.listed).filter(([, counts]) => total(counts) > 0)),
    );
    expect(result.all.total).toEqual(sum(Object.values(result.listed)));
    expect(result.all.total).toEqual({ new: 5, learning: 2, review: 4 });
  });

  test("the next study day gives every allowance back", async () => {
    const rows = await actAs(db, uma, (tx) =>
      tx.query<{ name: string; new_today: number; review_today: number }>(
        "select name, new_today, review_today from deck_stats(p_now => '2026-03-11T04:00:00Z')",
      ),
    );
    expect(rows.map((row) => [row.name, row.new_today, row.review_today])).toEqual([
      ["Imported", 3, 0],
      ["Own", 2, 2],
      ["Plain", 2, 4],
    ]);
  });
});
