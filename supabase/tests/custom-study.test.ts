import { parseSearch } from "@engram/core";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  addMember,
  addNotes,
  basic,
  createDeck,
  failure,
  insertLog,
  only,
  reversed,
  reviewDue,
  setState,
  type User,
} from "./support/study-fixtures.js";

// Custom study (docs/product.md, "Custom study"): custom_study_cards gives the
// caller's own cards due ahead, forgotten lately or found by a search;
// extend_study_day adds new cards to a deck's limit for today only.

let db: Database;
let ana: User;
let bob: User;
let stranger: User;
let deck: string;
let subdeck: string;
let other: string;
/** Card ids by name (each note's front). */
const card: Record<string, string> = {};
const nameOf = (id: string) => Object.entries(card).find(([, value]) => value === id)?.[0] ?? id;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();

type Row = { card_id: string; queue: string; position: number; matched: number; fields: unknown; tags: string[] };

function custom(
  user: User,
  args: { deckId?: string | null; mode: string; days?: number | null; query?: unknown; limit?: number },
): Promise<Row[]> {
  return actAs(db, user, (tx) =>
    tx.query<Row>(
      "select * from custom_study_cards(p_deck_id => $1, p_mode => $2, p_days => $3, p_query => $4, p_limit => $5)",
      [
        args.deckId === undefined ? deck : args.deckId,
        args.mode,
        args.days ?? null,
        args.query === undefined ? null : JSON.stringify(args.query),
        args.limit ?? 1000,
      ],
    ),
  );
}
const names = (rows: Row[]) => rows.map((row) => nameOf(row.card_id));

beforeAll(async () => {
  db = await openTestDatabase();
  ana = await createUser(db);
  bob = await createUser(db);
  stranger = await createUser(db);
  deck = await createDeck(db, ana, { name: "Biology", newPerDay: 2 });
  subdeck = await createDeck(db, ana, { name: "Cells" });
  await actAs(db, ana, (tx) => tx.query("select set_deck_parent($1, $2)", [subdeck, deck]));
  other = await createDeck(db, stranger, { name: "Private" });
  await addMember(db, ana, deck, bob);

  const main = await addNotes(db, ana, deck, [
    basic("overdue", "1", ["exam1"]),
    basic("soon", "2", ["exam1"]),
    basic("later", "3", ["exam2"]),
    basic("suspended", "4", ["exam1"]),
    basic("new1", "5", ["exam1"]),
    basic("new2", "6"),
    basic("new3", "7"),
    basic("new4", "8"),
    basic("new5", "9"),
  ]);
  const sub = await addNotes(db, ana, subdeck, [basic("inSub", "10", ["exam1"])]);
  const secret = await addNotes(db, stranger, other, [basic("secret", "11", ["exam1"])]);
  for (const note of [...main, ...sub, ...secret]) {
    const front = (
      await db.query<{ front: string }>("select fields ->> 'front' as front from notes where id = $1", [note.noteId])
    )[0]?.front;
    card[front as string] = only(note.cardIds);
  }

  // Ana's schedules: one overdue, one due in two days (in a subdeck another), one in ten days, one suspended.
  await setState(db, ana.id, card.overdue as string, reviewDue(at(-2 * DAY)));
  await setState(db, ana.id, card.soon as string, reviewDue(at(2 * DAY)));
  await setState(db, ana.id, card.inSub as string, reviewDue(at(DAY + HOUR)));
  await setState(db, ana.id, card.later as string, reviewDue(at(10 * DAY)));
  await setState(db, ana.id, card.suspended as string, { ...reviewDue(at(DAY)), suspended: true });
  // Bob studies the same deck on his own schedule: for him "later" is due tomorrow.
  await setState(db, bob.id, card.later as string, reviewDue(at(DAY)));

  // Answers: Again an hour ago (forgotten), Again five days ago (too long ago), Good an hour ago.
  await insertLog(db, {
    userId: ana.id,
    cardId: card.soon as string,
    rating: 1,
    state: "review",
    reviewedAt: at(-HOUR),
  });
  await insertLog(db, {
    userId: ana.id,
    cardId: card.later as string,
    rating: 1,
    state: "review",
    reviewedAt: at(-5 * DAY),
  });
  await insertLog(db, {
    userId: ana.id,
    cardId: card.overdue as string,
    rating: 3,
    state: "review",
    reviewedAt: at(-HOUR),
  });
  await insertLog(db, {
    userId: ana.id,
    cardId: card.suspended as string,
    rating: 1,
    state: "review",
    reviewedAt: at(-HOUR),
  });
  // Bob forgot "overdue": his answer is not Ana's.
  await insertLog(db, {
    userId: bob.id,
    cardId: card.overdue as string,
    rating: 1,
    state: "review",
    reviewedAt: at(-HOUR),
  });
});
afterAll(() => db.close());

describe("custom_study_cards", () => {
  test("ahead: the caller's studied cards due within the days, subdecks included, earliest first", async () => {
    const rows = await custom(ana, { mode: "ahead", days: 3 });
    expect(names(rows)).toEqual(["overdue", "inSub", "soon"]);
    expect(rows.map((row) => row.position)).toEqual([1, 2, 3]);
    expect(rows.every((row) => row.queue === "review" && row.matched === 3)).toBe(true);
    expect(names(await custom(ana, { mode: "ahead", days: 30 }))).toEqual(["overdue", "inSub", "soon", "later"]);
    // The subdeck alone gives only its own.
    expect(names(await custom(ana, { deckId: subdeck, mode: "ahead", days: 3 }))).toEqual(["inSub"]);
  });

  test("another user's schedules and answers never appear", async () => {
    expect(names(await custom(bob, { mode: "ahead", days: 3 }))).toEqual(["later"]);
    expect(names(await custom(bob, { mode: "forgotten", days: 7 }))).toEqual(["overdue"]);
    expect(names(await custom(ana, { deckId: null, mode: "search", query: parseSearch("tag:exam1") }))).not.toContain(
      "secret",
    );
  });

  test("forgotten: cards answered Again within the last days", async () => {
    expect(names(await custom(ana, { mode: "forgotten", days: 2 }))).toEqual(["soon"]);
    expect(names(await custom(ana, { mode: "forgotten", days: 7 }))).toEqual(["soon", "later"]);
  });

  test("search: the cards of the notes a search finds, new ones included, suspended ones not", async () => {
    const exam = await custom(ana, { mode: "search", query: parseSearch("tag:exam1") });
    expect(new Set(names(exam))).toEqual(new Set(["overdue", "soon", "inSub", "new1"]));
    expect(exam.find((row) => nameOf(row.card_id) === "new1")?.queue).toBe("new");
    expect(exam[0]?.fields).toMatchObject({ front: "overdue" });
    expect(names(await custom(ana, { mode: "search", query: parseSearch("tag:exam1 is:due") }))).toEqual(["overdue"]);
  });

  test("search: card-level parts hold for each card, so a due card is crammed without its sibling", async () => {
    // A deck of its own, so the other modes' cards stay as they are.
    const geography = await createDeck(db, ana, { name: "Geography" });
    const [note] = await addNotes(db, ana, geography, [reversed("capital", "Paris", ["exam3"])]);
    const [due, sibling] = note?.cardIds ?? [];
    await setState(db, ana.id, due as string, reviewDue(at(-DAY)));
    await insertLog(db, {
      userId: ana.id,
      cardId: sibling as string,
      rating: 1,
      state: "learning",
      // Now, not an hour ago: `rated:1` is today since the 4 a.m. rollover, which an hour ago misses before 5.
      reviewedAt: at(0),
    });
    const cram = async (query: string) =>
      (await custom(ana, { deckId: geography, mode: "search", query: parseSearch(query) })).map((row) => row.card_id);
    expect(await cram("tag:exam3")).toEqual([due, sibling]);
    expect(await cram("tag:exam3 is:due")).toEqual([due]);
    expect(await cram("tag:exam3 -is:due")).toEqual([sibling]);
    expect(await cram("tag:exam3 is:new")).toEqual([sibling]);
    expect(await cram("tag:exam3 rated:1:1")).toEqual([sibling]);
    expect(await cram("tag:exam3 card:2")).toEqual([sibling]);
    expect(await cram(`cid:${due}`)).toEqual([due]);
  });

  test("a limit keeps the first cards and tells how many matched", async () => {
    const rows = await custom(ana, { mode: "ahead", days: 30, limit: 2 });
    expect(names(rows)).toEqual(["overdue", "inSub"]);
    expect(rows.map((row) => row.matched)).toEqual([4, 4]);
  });

  test("refuses bad input with a clear error", async () => {
    const cases: [Parameters<typeof custom>[1], string, string][] = [
      [{ mode: "cram", days: 3 }, "22023", "mode must be ahead, forgotten or search"],
      [{ mode: "ahead" }, "22023", "days must be a whole number from 1 to 365"],
      [{ mode: "ahead", days: 366 }, "22023", "days must be a whole number from 1 to 365"],
      [{ mode: "forgotten", days: 0 }, "22023", "days must be a whole number from 1 to 365"],
      [{ mode: "ahead", days: 3, limit: 0 }, "22023", "limit must be a whole number from 1 to 1000"],
      [{ mode: "ahead", days: 3, limit: 1001 }, "22023", "limit must be a whole number from 1 to 1000"],
      [{ mode: "search" }, "22023", "mode search needs a search"],
      [{ mode: "search", query: { op: "nope" } }, "22023", "nope is not a search op"],
      [{ mode: "ahead", days: 3, query: parseSearch("a") }, "22023", "a search is only for mode search, not ahead"],
      [{ deckId: other, mode: "ahead", days: 3 }, "PT404", "deck not found"],
    ];
    for (const [args, code, message] of cases) {
      const error = await failure(custom(ana, args));
      expect({ code: error.code, message: error.message }).toEqual({ code, message });
    }
  });

  test("the signed-out may not call it", async () => {
    const outcome = await probeAs(db, anon, (tx) =>
      tx.query("select * from custom_study_cards($1, 'ahead', 3)", [deck]),
    );
    expect(outcome.ok ? "ok" : outcome.error.code).toBe("42501");
  });
});

describe("extend_study_day", () => {
  const newInQueue = async (user: User, now: string | null = null) =>
    (
      await actAs(db, user, (tx) =>
        tx.query<{ queue: string }>("select queue from study_queue(p_deck_id => $1, p_now => $2)", [deck, now]),
      )
    ).filter((row) => row.queue === "new").length;
  const newToday = async (user: User) =>
    (
      await actAs(db, user, (tx) =>
        tx.query<{ tree_new_today: number }>("select tree_new_today from deck_stats() where deck_id = $1", [deck]),
      )
    )[0]?.tree_new_today;
  const extend = (user: User, deckId: string | null, extra: number | null) =>
    actAs(db, user, (tx) =>
      tx.query<{ total: number }>("select extend_study_day($1, $2) as total", [deckId, extra]),
    ).then((rows) => rows[0]?.total);

  test("more new cards today in the queue and the deck's figures, not tomorrow, for the caller only", async () => {
    // Five new cards, two a day.
    expect(await newInQueue(ana)).toBe(2);
    expect(await newToday(ana)).toBe(2);
    expect(await extend(ana, deck, 2)).toBe(2);
    expect(await newInQueue(ana)).toBe(4);
    expect(await newToday(ana)).toBe(4);
    expect(await extend(ana, deck, 10)).toBe(12);
    expect(await newInQueue(ana)).toBe(5);
    expect(await newInQueue(ana, at(DAY))).toBe(2);
    expect(await newInQueue(bob)).toBe(2);
    const rows = await actAs(db, bob, (tx) => tx.query("select * from study_day_extras"));
    expect(rows).toEqual([]);
  });

  test("refuses bad input and changes nothing", async () => {
    const before = await db.query("select * from study_day_extras order by user_id, deck_id");
    const cases: [User, string | null, number | null, string, string][] = [
      [bob, deck, 0, "22023", "extra new cards must be a whole number from 1 to 9999"],
      [bob, deck, 10_000, "22023", "extra new cards must be a whole number from 1 to 9999"],
      [bob, deck, null, "22023", "extra new cards must be a whole number from 1 to 9999"],
      [ana, deck, 9990, "22023", "at most 9999 extra new cards a day; 12 already added today"],
      [bob, null, 5, "PT404", "deck not found"],
      [bob, other, 5, "PT404", "deck not found"],
    ];
    for (const [user, deckId, extra, code, message] of cases) {
      const error = await failure(extend(user, deckId, extra));
      expect({ code: error.code, message: error.message }).toEqual({ code, message });
    }
    expect(await db.query("select * from study_day_extras order by user_id, deck_id")).toEqual(before);
    // Writes go through the call only.
    const insert = await probeAs(db, bob, (tx) =>
      tx.query("insert into study_day_extras (deck_id, study_date, extra_new) values ($1, current_date, 5)", [deck]),
    );
    expect(insert.ok ? "ok" : insert.error.code).toBe("42501");
  });
});
