import type { CardSchedule } from "@engram/core";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, probeAs } from "./support/database.js";
import {
  addMember,
  addNamedCards,
  createDeck,
  recordReview,
  reviewDue,
  setState,
  type User,
  updateProfile,
} from "./support/study-fixtures.js";

// study_queue (docs/product.md §2 study screen, §4 "today", §7): learning, then
// reviews, then new cards; each deck's daily limits, all decks giving their
// sum; the day
// follows the profile's timezone and day-start hour; suspended, buried,
// archived and left cards stay out.

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

// 10:00 in New York, 15:00 UTC. With the default day start (04:00 UTC),
// "today" runs from 2026-01-15T04:00Z to 2026-01-16T04:00Z.
const NOW = "2026-01-15T15:00:00Z";

interface QueueRow extends CardSchedule {
  position: number;
  queue: "learning" | "review" | "new";
  card_id: string;
  note_id: string;
  deck_id: string;
  ordinal: number;
  note_kind: string;
  fields: unknown;
  tags: string[];
  version: number;
}

function studyQueue(tx: Queryable, options: { deckId?: string; now?: string } = {}): Promise<QueueRow[]> {
  return tx.query<QueueRow>("select * from study_queue(p_deck_id => $1, p_now => $2)", [
    options.deckId ?? null,
    options.now ?? NOW,
  ]);
}

/** Card names (unique in this file), so a queue reads as ["review Pr1", "new Pn1", ...]. */
const names = new Map<string, string>();
const ids = new Map<string, string>();
async function named<Name extends string>(owner: User, deck: string, list: readonly Name[]) {
  const cards = await addNamedCards(db, owner, deck, list);
  for (const name of list) {
    names.set(cards[name], name);
    ids.set(name, cards[name]);
  }
  return cards;
}
/** The id of the card with that name. */
function card(name: string): string {
  const id = ids.get(name);
  if (!id) throw new Error(`no card named ${name}`);
  return id;
}
const describeQueue = (rows: QueueRow[]) => rows.map((row) => `${row.queue} ${names.get(row.card_id) ?? row.card_id}`);

async function queueOf(user: User, options: { deckId?: string; now?: string } = {}): Promise<string[]> {
  return describeQueue(await actAs(db, user, (tx) => studyQueue(tx, options)));
}

describe("order", () => {
  let ana: User;
  let deck: string;
  // Eight cards created in this order: random ids land in the same order only
  // once in 40,320 runs, so sorting by id is really tested.
  const ties = ["tieA", "tieB", "tieC", "tieD", "tieE", "tieF", "tieG", "tieH"] as const;

  beforeAll(async () => {
    ana = await createUser(db, { displayName: "Ana" });
    deck = await createDeck(db, ana, { name: "Order" });
    await named(ana, deck, [
      "learnEarly",
      "learnLate",
      "learnTomorrow",
      "revOverdue",
      "revToday",
      "revLastSecond",
      "revAtDayEnd",
      "newFirst",
      ...ties,
    ]);
    await setState(db, ana.id, card("learnEarly"), {
      state: "learning",
      due: "2026-01-15T14:50:00Z",
      learning_steps: 1,
      reps: 1,
    });
    await setState(db, ana.id, card("learnLate"), {
      state: "relearning",
      due: "2026-01-15T16:00:00Z",
      lapses: 1,
      reps: 6,
    });
    await setState(db, ana.id, card("learnTomorrow"), { state: "learning", due: "2026-01-16T05:00:00Z", reps: 1 });
    await setState(db, ana.id, card("revOverdue"), reviewDue("2026-01-10T12:00:00Z"));
    await setState(db, ana.id, card("revToday"), reviewDue("2026-01-15T12:00:00Z"));
    await setState(db, ana.id, card("revLastSecond"), reviewDue("2026-01-16T03:59:59Z"));
    await setState(db, ana.id, card("revAtDayEnd"), reviewDue("2026-01-16T04:00:00Z"));
    // New cards come in due order (their creation time); equal dues fall back to card id.
    await setState(db, ana.id, card("newFirst"), { due: "2025-12-01T00:00:00Z" });
    for (const tie of ties) await setState(db, ana.id, card(tie), { due: "2026-01-01T00:00:00Z" });
  });

  test("offers learning cards due today, then reviews due today, then new cards", async () => {
    const tiesById = ties.map((tie) => card(tie)).sort();
    expect(await queueOf(ana)).toEqual([
      "learning learnEarly",
      "learning learnLate",
      "review revOverdue",
      "review revToday",
      "review revLastSecond",
      "new newFirst",
      ...tiesById.map((id) => `new ${names.get(id)}`),
    ]);
  });

  test("returns the same queue on every call, equal dues ordered by card id", async () => {
    const first = await actAs(db, ana, (tx) => studyQueue(tx));
    const second = await actAs(db, ana, (tx) => studyQueue(tx));
    expect(second).toEqual(first);
    expect(first.map((row) => row.position)).toEqual(first.map((_, i) => i + 1));
    const tieIds = first.filter((row) => ties.some((tie) => card(tie) === row.card_id)).map((row) => row.card_id);
    expect(tieIds).toEqual([...tieIds].sort());
    expect(tieIds).toHaveLength(8);
  });

  test("leaves cards due at or after the next day start for tomorrow's queue", async () => {
    expect(await queueOf(ana)).not.toContain("learning learnTomorrow");
    expect(await queueOf(ana)).not.toContain("review revAtDayEnd");
    const tomorrow = await queueOf(ana, { now: "2026-01-16T04:00:00Z" });
    expect(tomorrow).toContain("learning learnTomorrow");
    expect(tomorrow).toContain("review revAtDayEnd");
  });

  test("returns each card with its note and the caller's schedule", async () => {
    const rows = await actAs(db, ana, (tx) => studyQueue(tx));
    const row = rows.find((r) => r.card_id === card("revToday"));
    const noteId = await db.query<{ note_id: string }>("select note_id from cards where id = $1", [card("revToday")]);
    expect(row).toEqual({
      position: 4,
      queue: "review",
      card_id: card("revToday"),
      note_id: noteId[0]?.note_id,
      deck_id: deck,
      ordinal: 1,
      note_kind: "basic",
      fields: { front: "revToday", back: "Back of revToday" },
      tags: [],
      state: "review",
      due: new Date("2026-01-15T12:00:00Z"),
      stability: 12.5,
      difficulty: 4.2,
      elapsed_days: 5,
      scheduled_days: 12,
      learning_steps: 0,
      reps: 4,
      lapses: 0,
      last_review: new Date("2026-01-03T12:00:00Z"),
      version: 0,
    });
  });

  test("cannot be called anonymously", async () => {
    const result = await probeAs(db, anon, (tx) => studyQueue(tx));
    expect(result).toMatchObject({ ok: false, error: { code: "42501" } });
  });
});

describe("learning cards", () => {
  // docs/product.md §7: a session gives learning cards due before the day
  // ends, with no daily limit; only reviews and new cards have one.
  let gil: User;
  let deck: string;

  beforeAll(async () => {
    gil = await createUser(db, { displayName: "Gil" });
    deck = await createDeck(db, gil, { name: "Steps", newPerDay: 0, reviewsPerDay: 1 });
    await named(gil, deck, ["Ln1", "Ln2", "Ln3", "Lr1", "Lr2", "Lnew"]);
    await setState(db, gil.id, card("Ln1"), { state: "learning", due: "2026-01-15T14:00:00Z", reps: 1 });
    await setState(db, gil.id, card("Ln2"), { state: "relearning", due: "2026-01-15T15:30:00Z", lapses: 1, reps: 4 });
    await setState(db, gil.id, card("Ln3"), { state: "learning", due: "2026-01-16T03:00:00Z", reps: 1 });
    await setState(db, gil.id, card("Lr1"), reviewDue("2026-01-14T12:00:00Z"));
    await setState(db, gil.id, card("Lr2"), reviewDue("2026-01-15T12:00:00Z"));
  });

  test("are all offered, however low the deck's daily limits", async () => {
    const expected = ["learning Ln1", "learning Ln2", "learning Ln3", "review Lr1"];
    expect(await queueOf(gil, { deckId: deck })).toEqual(expected);
    expect(await queueOf(gil)).toEqual(expected);
  });
});

describe("daily limits", () => {
  // Profile: 3 new and 4 reviews a day. Deck P uses them; deck Q has its own
  // (1 new, 2 reviews). Dues are spread so the merged order is easy to follow.
  let ben: User;
  let deckP: string;
  let deckQ: string;

  beforeAll(async () => {
    ben = await createUser(db, { displayName: "Ben" });
    await updateProfile(db, ben, { new_per_day: 3, reviews_per_day: 4 });
    deckP = await createDeck(db, ben, { name: "P" });
    deckQ = await createDeck(db, ben, { name: "Q", newPerDay: 1, reviewsPerDay: 2 });
    await named(ben, deckP, ["Pn1", "Pn2", "Pn3", "Pn4", "Pr1", "Pr2", "Pr3", "Pr4", "Pr5"]);
    await named(ben, deckQ, ["Qn1", "Qn2", "Qn3", "Qr1", "Qr2", "Qr3"]);
    const newDues = { Pn1: "01", Qn1: "02", Pn2: "03", Pn3: "04", Pn4: "05", Qn2: "06", Qn3: "07" };
    for (const [name, day] of Object.entries(newDues))
      await setState(db, ben.id, card(name), { due: `2026-01-${day}T00:00:00Z` });
    const reviewDues = { Pr1: "08", Pr2: "09", Pr3: "10", Qr1: "11", Pr4: "12", Qr2: "13", Pr5: "14", Qr3: "14" };
    for (const [name, day] of Object.entries(reviewDues))
      await setState(db, ben.id, card(name), reviewDue(`2026-01-${day}T12:00:00Z`));
  });

  test("a deck without its own limits uses the profile's", async () => {
    expect(await queueOf(ben, { deckId: deckP })).toEqual([
      "review Pr1",
      "review Pr2",
      "review Pr3",
      "review Pr4",
      "new Pn1",
      "new Pn2",
      "new Pn3",
    ]);
  });

  test("a deck's own limits replace the profile's", async () => {
    expect(await queueOf(ben, { deckId: deckQ })).toEqual(["review Qr1", "review Qr2", "new Qn1"]);
  });

  test("all decks give each deck's own allowance, merged earliest due first", async () => {
    // P's 4 reviews and 3 new (the profile's limits, as its default) and Q's 2 and 1.
    expect(await queueOf(ben)).toEqual([
      "review Pr1",
      "review Pr2",
      "review Pr3",
      "review Qr1",
      "review Pr4",
      "review Qr2",
      "new Pn1",
      "new Qn1",
      "new Pn2",
      "new Pn3",
    ]);
  });

  test("answers given today use up the day's limits", async () => {
    const result = await probeAs(db, ben, async (tx) => {
      // One new card and one review of deck P answered this morning.
      await recordReview(tx, {
        cardId: card("Pn1"),
        expectedVersion: 0,
        reviewedAt: "2026-01-15T10:00:00Z",
        state: "review",
        due: "2026-01-20T10:00:00Z",
      });
      await recordReview(tx, {
        cardId: card("Pr1"),
        expectedVersion: 0,
        reviewedAt: "2026-01-15T10:01:00Z",
        state: "review",
        due: "2026-02-01T10:00:00Z",
      });
      return {
        all: describeQueue(await studyQueue(tx)),
        p: describeQueue(await studyQueue(tx, { deckId: deckP })),
      };
    });
    expect(result).toEqual({
      ok: true,
      value: {
        // deck P: 2 new and 3 reviews left; deck Q untouched
        all: ["review Pr2", "review Pr3", "review Qr1", "review Pr4", "review Qr2", "new Qn1", "new Pn2", "new Pn3"],
        // deck P: 2 new and 3 reviews left of its own
        p: ["review Pr2", "review Pr3", "review Pr4", "new Pn2", "new Pn3"],
      },
    });
  });

  test("answers given before today's day start count for yesterday, not today", async () => {
    const result = await probeAs(db, ben, async (tx) => {
      // 03:59 UTC is still yesterday's study day with the default 04:00 start.
      await recordReview(tx, {
        cardId: card("Pn1"),
        expectedVersion: 0,
        reviewedAt: "2026-01-15T03:59:00Z",
        state: "review",
        due: "2026-01-20T10:00:00Z",
      });
      return describeQueue(await studyQueue(tx));
    });
    expect(result).toEqual({
      ok: true,
      value: [
        "review Pr1",
        "review Pr2",
        "review Pr3",
        "review Qr1",
        "review Pr4",
        "review Qr2",
        "new Qn1",
        "new Pn2",
        "new Pn3",
        "new Pn4",
      ],
    });
  });
});

describe("the study day in the profile's timezone", () => {
  // Nora studies in New York (UTC-5 in January) with the day starting at 04:00,
  // so her study day of January 14 ends at 2026-01-15T09:00Z.
  const JUST_BEFORE = "2026-01-15T08:59:00Z"; // 03:59 in New York
  const JUST_AFTER = "2026-01-15T09:01:00Z"; // 04:01 in New York
  let nora: User;

  beforeAll(async () => {
    nora = await createUser(db, { displayName: "Nora", timezone: "America/New_York" });
    await updateProfile(db, nora, { day_starts_at: 4, new_per_day: 1 });
    const deck = await createDeck(db, nora, { name: "Boundary" });
    await named(nora, deck, ["due0330Today", "due0430Today", "due0330Tomorrow", "newX", "newY"]);
    await setState(db, nora.id, card("due0330Today"), reviewDue("2026-01-15T08:30:00Z"));
    await setState(db, nora.id, card("due0430Today"), reviewDue("2026-01-15T09:30:00Z"));
    await setState(db, nora.id, card("due0330Tomorrow"), reviewDue("2026-01-16T08:30:00Z"));
    await setState(db, nora.id, card("newX"), { due: "2026-01-01T00:00:00Z" });
    await setState(db, nora.id, card("newY"), { due: "2026-01-02T00:00:00Z" });
    // Her one new card for January 14, answered at 03:00 New York time on the 15th.
    await actAs(db, nora, (tx) =>
      recordReview(tx, {
        cardId: card("newX"),
        expectedVersion: 0,
        reviewedAt: "2026-01-15T08:00:00Z",
        state: "review",
        due: "2026-02-01T08:00:00Z",
      }),
    );
  });

  test("private.study_day runs from the day-start hour in the timezone to the same hour the next day", async () => {
    const day = (at: string) =>
      db.query<{ day_start: Date; day_end: Date }>("select * from private.study_day('America/New_York', 4, $1)", [at]);
    expect(await day(JUST_BEFORE)).toEqual([
      { day_start: new Date("2026-01-14T09:00:00Z"), day_end: new Date("2026-01-15T09:00:00Z") },
    ]);
    expect(await day(JUST_AFTER)).toEqual([
      { day_start: new Date("2026-01-15T09:00:00Z"), day_end: new Date("2026-01-16T09:00:00Z") },
    ]);
    // The day clocks spring forward (2026-03-08) is 23 hours long: 04:00 EST to 04:00 EDT.
    expect(await day("2026-03-08T07:30:00Z")).toEqual([
      { day_start: new Date("2026-03-07T09:00:00Z"), day_end: new Date("2026-03-08T08:00:00Z") },
    ]);
  });

  test("just before 04:00 it is still yesterday: a review due at 03:30 is offered, the new-card limit is spent", async () => {
    expect(await queueOf(nora, { now: JUST_BEFORE })).toEqual(["review due0330Today"]);
  });

  test("from 04:00 a new day: reviews due until 04:00 tomorrow (so 03:30 tomorrow too), and a fresh new-card limit", async () => {
    expect(await queueOf(nora, { now: JUST_AFTER })).toEqual([
      "review due0330Today",
      "review due0430Today",
      "review due0330Tomorrow",
      "new newY",
    ]);
  });
});

describe("suspended and buried cards", () => {
  let sam: User;

  beforeAll(async () => {
    sam = await createUser(db, { displayName: "Sam" });
    const deck = await createDeck(db, sam, { name: "Hidden" });
    await named(sam, deck, [
      "suspendedReview",
      "suspendedNew",
      "buriedReview",
      "buriedLearning",
      "unburiedReview",
      "plainNew",
    ]);
    await setState(db, sam.id, card("suspendedReview"), reviewDue("2026-01-14T12:00:00Z", { suspended: true }));
    await setState(db, sam.id, card("suspendedNew"), { suspended: true, due: "2026-01-01T00:00:00Z" });
    await setState(
      db,
      sam.id,
      card("buriedReview"),
      reviewDue("2026-01-14T13:00:00Z", { buried_until: "2026-01-15T20:00:00Z" }),
    );
    await setState(db, sam.id, card("buriedLearning"), {
      state: "learning",
      due: "2026-01-15T14:00:00Z",
      buried_until: "2026-01-15T20:00:00Z",
    });
    await setState(
      db,
      sam.id,
      card("unburiedReview"),
      reviewDue("2026-01-14T14:00:00Z", { buried_until: "2026-01-15T14:00:00Z" }),
    );
    await setState(db, sam.id, card("plainNew"), { due: "2026-01-02T00:00:00Z" });
  });

  test("leaves out suspended cards and cards buried until later; a bury that has passed no longer hides", async () => {
    expect(await queueOf(sam)).toEqual(["review unburiedReview", "new plainNew"]);
  });

  test("offers suspended cards again once unsuspended", async () => {
    const result = await probeAs(db, sam, async (tx) => {
      await tx.query("select set_suspended(p_card_ids => $1, p_suspended => false)", [
        [card("suspendedReview"), card("suspendedNew")],
      ]);
      return describeQueue(await studyQueue(tx));
    });
    expect(result).toEqual({
      ok: true,
      value: ["review suspendedReview", "review unburiedReview", "new suspendedNew", "new plainNew"],
    });
  });

  test("offers buried cards again once their bury has passed", async () => {
    expect(await queueOf(sam, { now: "2026-01-15T20:00:00Z" })).toEqual([
      "learning buriedLearning",
      "review buriedReview",
      "review unburiedReview",
      "new plainNew",
    ]);
  });
});

describe("which decks", () => {
  let lee: User;
  let olga: User;
  let mine: string;
  let archived: string;
  let shared: string;

  beforeAll(async () => {
    [lee, olga] = await Promise.all([createUser(db, { displayName: "Lee" }), createUser(db, { displayName: "Olga" })]);
    mine = await createDeck(db, lee, { name: "Mine" });
    archived = await createDeck(db, lee, { name: "Old" });
    shared = await createDeck(db, olga, { name: "Shared" });
    const publicDeck = await createDeck(db, olga, { name: "Public", isPublic: true });
    await addMember(db, olga, shared, lee, "viewer");
    const own = await named(lee, mine, ["mineReview", "mineNew"]);
    const old = await named(lee, archived, ["oldReview", "oldNew"]);
    const theirs = await named(olga, shared, ["sharedReview", "sharedNew"]);
    await named(olga, publicDeck, ["publicNew"]);
    await setState(db, lee.id, own.mineReview, reviewDue("2026-01-14T12:00:00Z"));
    await setState(db, lee.id, old.oldReview, reviewDue("2026-01-14T13:00:00Z"));
    await setState(db, lee.id, theirs.sharedReview, reviewDue("2026-01-14T14:00:00Z"));
    await setState(db, lee.id, own.mineNew, { due: "2026-01-01T00:00:00Z" });
    await setState(db, lee.id, old.oldNew, { due: "2026-01-02T00:00:00Z" });
    await setState(db, lee.id, theirs.sharedNew, { due: "2026-01-03T00:00:00Z" });
    await actAs(db, lee, (tx) => tx.query("update decks set archived_at = now() where id = $1", [archived]));
  });

  test("offers the decks the user belongs to, except archived ones, and no public deck they have not added", async () => {
    expect(await queueOf(lee)).toEqual(["review mineReview", "review sharedReview", "new mineNew", "new sharedNew"]);
  });

  test("with a deck filter, offers only that deck's cards", async () => {
    expect(await queueOf(lee, { deckId: mine })).toEqual(["review mineReview", "new mineNew"]);
    expect(await queueOf(lee, { deckId: shared })).toEqual(["review sharedReview", "new sharedNew"]);
  });

  test("offers nothing for an archived deck even when asked for it", async () => {
    expect(await queueOf(lee, { deckId: archived })).toEqual([]);
  });

  test("stops offering the cards of a deck the user left, though their schedules stay", async () => {
    const result = await probeAs(db, lee, async (tx) => {
      await tx.query("delete from deck_members where deck_id = $1 and user_id = auth.uid()", [shared]);
      const [kept] = await tx.query<{ n: number }>("select count(*)::int as n from card_states where deck_id = $1", [
        shared,
      ]);
      return { queue: describeQueue(await studyQueue(tx)), keptSchedules: kept?.n };
    });
    expect(result).toEqual({ ok: true, value: { queue: ["review mineReview", "new mineNew"], keptSchedules: 2 } });
  });
});
