import { randomUUID } from "node:crypto";
import type { Database } from "@engram/local-stack";
import { beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addBasicCards,
  addMember,
  addNotes,
  basic,
  createDeck,
  recordReview,
  reversed,
  stateOf,
  type User,
  undoReview,
} from "./support/study-fixtures.js";

// private.card_state_counts, kept by statement triggers on card_states, must
// always equal counting card_states itself: user_stats and deck_stats read it.

interface CountRow {
  user_id: string;
  deck_id: string;
  state: string;
  suspended: boolean;
  cards: number;
}

const byKey = (a: CountRow, b: CountRow) =>
  `${a.user_id}${a.deck_id}${a.state}${a.suspended}`.localeCompare(`${b.user_id}${b.deck_id}${b.state}${b.suspended}`);

async function keptCounts(db: Database): Promise<CountRow[]> {
  const rows = await db.query<CountRow>(
    "select user_id, deck_id, state::text as state, suspended, cards from private.card_state_counts",
  );
  return rows.map((row) => ({ ...row, cards: Number(row.cards) })).sort(byKey);
}

async function actualCounts(db: Database): Promise<CountRow[]> {
  const rows = await db.query<CountRow>(
    `select user_id, deck_id, state::text as state, suspended, count(*)::integer as cards
     from public.card_states group by 1, 2, 3, 4`,
  );
  return rows.map((row) => ({ ...row, cards: Number(row.cards) })).sort(byKey);
}

async function expectCountsInStep(db: Database): Promise<void> {
  const actual = await actualCounts(db);
  expect(await keptCounts(db)).toEqual(actual);
}

/** Answers a card through record_review, returning the answer's id for undo. */
async function answer(
  db: Database,
  user: User,
  cardId: string,
  next: { state: "learning" | "review" | "relearning"; rating?: number },
): Promise<string> {
  const current = await stateOf(db, user.id, cardId);
  const clientReviewId = randomUUID();
  await actAs(db, user, (tx) =>
    recordReview(tx, {
      cardId,
      clientReviewId,
      expectedVersion: current?.version ?? null,
      state: next.state,
      rating: next.rating ?? 3,
      scheduledDays: next.state === "review" ? 3 : 0,
      due: new Date(Date.now() + (next.state === "review" ? 3 * 86_400_000 : 600_000)),
    }),
  );
  return clientReviewId;
}

function setSuspended(db: Database, user: User, cardIds: string[], suspended: boolean) {
  return actAs(db, user, (tx) =>
    tx.query("select set_suspended(p_card_ids => $1, p_suspended => $2)", [cardIds, suspended]),
  );
}

describe("card_state_counts", () => {
  let db: Database;
  let olga: User;
  let pavel: User;
  let rita: User;
  let biology: string;
  let chemistry: string;

  beforeAll(async () => {
    db = await openTestDatabase();
    olga = await createUser(db, { displayName: "Olga" });
    pavel = await createUser(db, { displayName: "Pavel" });
    rita = await createUser(db, { displayName: "Rita" });
    biology = await createDeck(db, olga, { name: "Biology" });
    chemistry = await createDeck(db, olga, { name: "Chemistry" });
    await addMember(db, olga, biology, pavel, "editor");
  });

  test("a mixed workload leaves the counts equal to counting card_states", async () => {
    // Notes give every member a new schedule per card.
    const cells = await addBasicCards(db, olga, biology, 6, "Cell");
    const [pair] = await addNotes(db, pavel, biology, [reversed("Mitosis", "Division")]);
    await addBasicCards(db, olga, chemistry, 3, "Atom");
    await expectCountsInStep(db);
    const [c0, c1, c2, c3, c4, c5] = cells as [string, string, string, string, string, string];

    // Answers move cards new → learning → review → relearning.
    await answer(db, olga, c0, { state: "learning" });
    await answer(db, olga, c0, { state: "review" });
    await answer(db, olga, c1, { state: "learning" });
    const lapse = await answer(db, olga, c0, { state: "relearning", rating: 1 });
    await answer(db, pavel, c0, { state: "learning" });
    await expectCountsInStep(db);

    // Undo puts the schedule back as it was.
    await actAs(db, olga, (tx) => undoReview(tx, lapse));
    expect((await stateOf(db, olga.id, c0))?.state).toBe("review");
    await expectCountsInStep(db);

    // Suspending and unsuspending, in one statement for several cards.
    await setSuspended(db, olga, [c2, c3, c0], true);
    await expectCountsInStep(db);
    await setSuspended(db, olga, [c3], false);
    await expectCountsInStep(db);

    // Notes moved to another deck take their schedules' counts along.
    const moved = await db.query<{ note_id: string }>("select note_id from cards where id = any($1)", [[c4, c5]]);
    await actAs(db, olga, (tx) =>
      tx.query("select move_notes(p_note_ids => $1, p_deck_id => $2)", [moved.map((row) => row.note_id), chemistry]),
    );
    await expectCountsInStep(db);

    // A member joining gets schedules for every card, then leaves.
    await addMember(db, olga, chemistry, rita, "viewer");
    await answer(db, rita, c4, { state: "learning" });
    await expectCountsInStep(db);
    expect((await keptCounts(db)).some((row) => row.user_id === rita.id)).toBe(true);
    await actAs(db, rita, (tx) =>
      tx.query("delete from deck_members where deck_id = $1 and user_id = $2", [chemistry, rita.id]),
    );
    await expectCountsInStep(db);

    // Deleting a note, then a whole deck (its counts are gone, not kept at zero).
    await actAs(db, pavel, (tx) => tx.query("delete from notes where id = $1", [pair?.noteId]));
    await expectCountsInStep(db);
    const cloneId = await actAs(db, pavel, async (tx) => {
      const rows = await tx.query<{ id: string }>("select clone_deck(p_deck_id => $1, p_name => 'Copy') as id", [
        biology,
      ]);
      return rows[0]?.id;
    });
    await expectCountsInStep(db);
    expect((await keptCounts(db)).some((row) => row.deck_id === cloneId)).toBe(true);
    await actAs(db, olga, (tx) => tx.query("delete from decks where id = $1", [chemistry]));
    await expectCountsInStep(db);
    expect((await keptCounts(db)).some((row) => row.deck_id === chemistry)).toBe(false);
    expect((await keptCounts(db)).every((row) => row.cards > 0)).toBe(true);
  });

  test("an update that changes nothing counted leaves the counts alone, and a bulk update moves them", async () => {
    const deck = await createDeck(db, olga, { name: "Physics" });
    await addNotes(db, olga, deck, [basic("Force", "Mass times acceleration"), basic("Work", "Force times distance")]);
    const before = await keptCounts(db);
    await db.query("update card_states set flag = 3, due = due + interval '1 day' where deck_id = $1", [deck]);
    expect(await keptCounts(db)).toEqual(before);
    await db.query("update card_states set state = 'review', suspended = true where deck_id = $1", [deck]);
    const physics = (await keptCounts(db)).filter((row) => row.deck_id === deck);
    expect(physics).toEqual([{ user_id: olga.id, deck_id: deck, state: "review", suspended: true, cards: 2 }]);
    await expectCountsInStep(db);
  });

  test("the API roles cannot read the counts", async () => {
    const error = await actAs(db, olga, (tx) => tx.query("select * from private.card_state_counts")).then(
      () => null,
      (caught: Error) => caught,
    );
    expect(error?.message).toMatch(/permission denied/);
  });
});
