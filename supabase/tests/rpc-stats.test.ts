import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  addMember,
  addNamedCards,
  type CardState,
  createDeck,
  insertLog,
  reviewDue,
  setState,
  type User,
  updateProfile,
} from "./support/study-fixtures.js";

// user_stats and deck_stats (docs/product.md §2 dashboard and /stats, §4 "today")
// on a small known history. Stella studies in New York (UTC-5 in February)
// and her day starts at 04:00, so "today" at NOW is Friday 2026-02-20,
// from 2026-02-20T09:00Z to 2026-02-21T09:00Z.

const NOW = "2026-02-20T17:00:00Z"; // 12:00 in New York

let db: Database;
let stella: User;
let biology: string; // hers, 3 new cards a day of its own
let chemistry: string; // hers, no limits of its own
let physics: string; // Olga's, Stella is a viewer

beforeAll(async () => {
  db = await openTestDatabase();
  const olga = await createUser(db, { displayName: "Olga" });
  stella = await createUser(db, { displayName: "Stella", timezone: "America/New_York" });
  await updateProfile(db, stella, { day_starts_at: 4, new_per_day: 2 });
  biology = await createDeck(db, stella, { name: "Biology", newPerDay: 3 });
  chemistry = await createDeck(db, stella, { name: "Chemistry" });
  physics = await createDeck(db, olga, { name: "Physics" });
  await addMember(db, olga, physics, stella, "viewer");

  const bio = await addNamedCards(db, stella, biology, [
    "overdue",
    "due0330Tomorrow",
    "due0430Tomorrow",
    "learning",
    "relearning",
    "lastForecastDay",
    "beyondForecast",
    "suspended",
    "new1",
    "new2",
    "new3",
    "new4",
  ]);
  const chem = await addNamedCards(db, stella, chemistry, ["chemA", "chemB"]);
  await addNamedCards(db, olga, physics, ["force"]);

  // Her schedules now (forecast day in New York study days in the comments).
  await setState(db, stella.id, bio.overdue, reviewDue("2026-02-15T12:00:00Z")); // overdue → today
  await setState(db, stella.id, bio.due0330Tomorrow, reviewDue("2026-02-21T08:30:00Z")); // 03:30 tomorrow → today
  await setState(db, stella.id, bio.due0430Tomorrow, reviewDue("2026-02-21T09:30:00Z")); // 04:30 tomorrow → Feb 21
  await setState(db, stella.id, bio.learning, { state: "learning", due: "2026-02-20T17:10:00Z", reps: 1 }); // today
  await setState(db, stella.id, bio.relearning, { state: "relearning", due: "2026-02-23T15:00:00Z", lapses: 1 }); // Feb 23
  await setState(db, stella.id, bio.lastForecastDay, reviewDue("2026-03-21T15:00:00Z")); // today + 29
  await setState(db, stella.id, bio.beyondForecast, reviewDue("2026-03-22T15:00:00Z")); // today + 30
  await setState(db, stella.id, bio.suspended, reviewDue("2026-02-19T15:00:00Z", { suspended: true }));

  // Her answers (New York study day in the comments).
  const log = (card: string, rating: number, state: CardState, reviewedAt: string) =>
    insertLog(db, { userId: stella.id, cardId: card, rating, state, reviewedAt });
  await log(bio.due0430Tomorrow, 3, "review", "2026-02-20T14:00:00Z"); // Feb 20, 09:00
  await log(bio.learning, 1, "new", "2026-02-20T15:00:00Z"); // Feb 20, her one new card today
  await log(bio.relearning, 3, "relearning", "2026-02-20T08:30:00Z"); // Feb 19: 03:30 is before the day start
  await log(bio.lastForecastDay, 4, "review", "2026-02-19T20:00:00Z"); // Feb 19
  await log(chem.chemA, 3, "new", "2026-02-19T16:00:00Z"); // Feb 19, Chemistry
  await log(bio.overdue, 2, "review", "2026-02-18T12:00:00Z"); // Feb 18
  // (nothing on Feb 17: the streak stops there)
  await log(bio.overdue, 1, "review", "2026-02-16T15:00:00Z"); // Feb 16
  await log(bio.beyondForecast, 3, "learning", "2026-01-01T15:00:00Z"); // Jan 1: heatmap only
  await log(bio.beyondForecast, 3, "review", "2025-02-21T15:00:00Z"); // today - 364: oldest heatmap day
  await log(bio.beyondForecast, 3, "review", "2025-02-20T15:00:00Z"); // today - 365: out of the heatmap
});
afterAll(() => db.close());

type Stats = Record<string, unknown>;
const userStats = (tx: Queryable, options: { deckId?: string; now?: string } = {}) =>
  tx
    .query<{ stats: Stats }>("select user_stats(p_deck_id => $1, p_now => $2) as stats", [
      options.deckId ?? null,
      options.now ?? NOW,
    ])
    .then((rows) => rows[0]?.stats);
const statsOf = (options: { deckId?: string; now?: string } = {}) => actAs(db, stella, (tx) => userStats(tx, options));

/** The 30 forecast days from 2026-02-20 with the given non-zero counts. */
function forecast(due: Record<string, number>) {
  return Array.from({ length: 30 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 1, 20 + i)).toISOString().slice(0, 10);
    return { date, due: due[date] ?? 0 };
  });
}

describe("user_stats", () => {
  test("sums up all her decks on known data", async () => {
    expect(await statsOf()).toEqual({
      today: "2026-02-20",
      streak: 3,
      reviewed_today: 2,
      new_today: 1,
      due_today: 3,
      heatmap: [
        { date: "2025-02-21", reviews: 1 },
        { date: "2026-01-01", reviews: 1 },
        { date: "2026-02-16", reviews: 1 },
        { date: "2026-02-18", reviews: 1 },
        { date: "2026-02-19", reviews: 3 },
        { date: "2026-02-20", reviews: 2 },
      ],
      answers_per_day: [
        { date: "2026-02-16", again: 1, hard: 0, good: 0, easy: 0 },
        { date: "2026-02-18", again: 0, hard: 1, good: 0, easy: 0 },
        { date: "2026-02-19", again: 0, hard: 0, good: 2, easy: 1 },
        { date: "2026-02-20", again: 1, hard: 0, good: 1, easy: 0 },
      ],
      // Answers to cards that were in review: Feb 20 good, Feb 19 easy, Feb 18 hard, Feb 16 again.
      retention: { reviews: 4, passed: 3, rate: 0.75 },
      forecast: forecast({ "2026-02-20": 3, "2026-02-21": 1, "2026-02-23": 1, "2026-03-21": 1 }),
      card_counts: { new: 7, learning: 1, review: 5, relearning: 1, suspended: 1 },
    });
  });

  test("counts an answer at 03:30 for the previous study day", async () => {
    const stats = await statsOf();
    // Feb 19 has the 15:00 and 11:00 answers plus the one at 03:30 on Feb 20.
    expect(stats?.heatmap).toContainEqual({ date: "2026-02-19", reviews: 3 });
  });

  test("keeps the streak through the morning before she studies, and loses it after a day off", async () => {
    const tomorrowMorning = await statsOf({ now: "2026-02-21T14:00:00Z" }); // 09:00 on Feb 21, nothing yet
    expect(tomorrowMorning).toMatchObject({ today: "2026-02-21", streak: 3, reviewed_today: 0 });
    const dayAfter = await statsOf({ now: "2026-02-22T14:00:00Z" }); // Feb 21 had no answers
    expect(dayAfter).toMatchObject({ today: "2026-02-22", streak: 0 });
  });

  test("at 03:59 it is still the previous study day", async () => {
    expect(await statsOf({ now: "2026-02-21T08:59:00Z" })).toMatchObject({
      today: "2026-02-20",
      streak: 3,
      reviewed_today: 2,
    });
  });

  test("for one deck, counts only that deck's answers and cards", async () => {
    expect(await statsOf({ deckId: chemistry })).toEqual({
      today: "2026-02-20",
      streak: 1, // Feb 19, and nothing yet today
      reviewed_today: 0,
      new_today: 0,
      due_today: 0,
      heatmap: [{ date: "2026-02-19", reviews: 1 }],
      answers_per_day: [{ date: "2026-02-19", again: 0, hard: 0, good: 1, easy: 0 }],
      retention: { reviews: 0, passed: 0, rate: null },
      forecast: forecast({}),
      card_counts: { new: 2, learning: 0, review: 0, relearning: 0, suspended: 0 },
    });
    expect(await statsOf({ deckId: biology })).toMatchObject({
      heatmap: [
        { date: "2025-02-21", reviews: 1 },
        { date: "2026-01-01", reviews: 1 },
        { date: "2026-02-16", reviews: 1 },
        { date: "2026-02-18", reviews: 1 },
        { date: "2026-02-19", reviews: 2 },
        { date: "2026-02-20", reviews: 2 },
      ],
      card_counts: { new: 4, learning: 1, review: 5, relearning: 1, suspended: 1 },
    });
  });

  test("leaves out archived decks, as the study queue does", async () => {
    const counts = (stats: Stats | undefined) => stats?.card_counts as Record<string, number>;
    const all = counts(await statsOf());
    const chem = counts(await statsOf({ deckId: chemistry }));
    const result = await probeAs(db, stella, async (tx) => {
      await tx.query("update decks set archived_at = now() where id = $1", [chemistry]);
      return userStats(tx);
    });
    expect(chem.new).toBeGreaterThan(0);
    expect(result.ok && counts(result.value)).toEqual({ ...all, new: (all.new ?? 0) - (chem.new ?? 0) });
  });

  test("does not find a deck she does not belong to (PT404 deck_id)", async () => {
    const result = await probeAs(db, stella, (tx) => userStats(tx, { deckId: randomUUID() }));
    expect(result).toMatchObject({ ok: false, error: { code: "PT404", detail: "deck_id" } });
  });

  test("shows another user nothing of hers", async () => {
    const other = await createUser(db);
    const stats = await actAs(db, other, (tx) => userStats(tx));
    expect(stats).toMatchObject({ streak: 0, reviewed_today: 0, heatmap: [], card_counts: { new: 0, review: 0 } });
  });

  test("cannot be called anonymously", async () => {
    const result = await probeAs(db, anon, (tx) => userStats(tx));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("deck_stats", () => {
  const deckStats = (tx: Queryable, now = NOW) => tx.query("select * from deck_stats(p_now => $1)", [now]);

  test("lists each of her decks with its contents and her counts", async () => {
    expect(await actAs(db, stella, (tx) => deckStats(tx))).toEqual([
      {
        deck_id: biology,
        name: "Biology",
        role: "owner",
        is_public: false,
        note_count: 12,
        card_count: 12,
        new_count: 4,
        learning_count: 2,
        review_count: 5,
        suspended_count: 1,
        due_count: 3,
        // Biology allows 3 a day of its own and one was studied today.
        new_today: 2,
        learning_today: 1,
        review_today: 2,
        parent_id: null,
        // a deck without subdecks: its tree is itself
        tree_due_count: 3,
        tree_new_today: 2,
        tree_learning_today: 1,
        tree_review_today: 2,
      },
      {
        deck_id: chemistry,
        name: "Chemistry",
        role: "owner",
        is_public: false,
        note_count: 2,
        card_count: 2,
        new_count: 2,
        learning_count: 0,
        review_count: 0,
        suspended_count: 0,
        due_count: 0,
        // her profile's 2 a day, as every deck without its own limit has
        new_today: 2,
        learning_today: 0,
        review_today: 0,
        parent_id: null,
        // a deck without subdecks: its tree is itself
        tree_due_count: 0,
        tree_new_today: 2,
        tree_learning_today: 0,
        tree_review_today: 0,
      },
      {
        deck_id: physics,
        name: "Physics",
        role: "viewer",
        is_public: false,
        note_count: 1,
        card_count: 1,
        new_count: 1,
        learning_count: 0,
        review_count: 0,
        suspended_count: 0,
        due_count: 0,
        new_today: 1,
        learning_today: 0,
        review_today: 0,
        parent_id: null,
        // a deck without subdecks: its tree is itself
        tree_due_count: 0,
        tree_new_today: 1,
        tree_learning_today: 0,
        tree_review_today: 0,
      },
    ]);
  });

  test("new_today is what the study queue offers for each deck", async () => {
    const offered = await actAs(db, stella, async (tx) => {
      const counts: Record<string, number> = {};
      for (const deck of [biology, chemistry, physics]) {
        const rows = await tx.query("select 1 from study_queue(p_deck_id => $1, p_now => $2) where queue = 'new'", [
          deck,
          NOW,
        ]);
        counts[deck] = rows.length;
      }
      return counts;
    });
    const listed = await actAs(db, stella, (tx) => deckStats(tx));
    expect(Object.fromEntries(listed.map((row) => [row.deck_id, row.new_today]))).toEqual(offered);
  });

  test("a new study day gives the limits back", async () => {
    const rows = await actAs(db, stella, (tx) => deckStats(tx, "2026-02-21T09:00:00Z")); // 04:00 on Feb 21
    expect(rows.map((row) => [row.name, row.new_today])).toEqual([
      ["Biology", 3],
      ["Chemistry", 2],
      ["Physics", 1],
    ]);
  });

  test("leaves out archived decks", async () => {
    const result = await probeAs(db, stella, async (tx) => {
      await tx.query("update decks set archived_at = now() where id = $1", [chemistry]);
      return (await deckStats(tx)).map((row) => row.name);
    });
    expect(result).toEqual({ ok: true, value: ["Biology", "Physics"] });
  });

  test("cannot be called anonymously", async () => {
    const result = await probeAs(db, anon, (tx) => deckStats(tx));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});
