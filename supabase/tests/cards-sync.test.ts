import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addMember,
  addNote,
  basic,
  cloze,
  createDeck,
  logsOf,
  type NoteInput,
  recordReview,
  reversed,
  stateOf,
  typeIn,
  type User,
} from "./support/study-fixtures.js";

/** A due date that many days after now: answers are at the real time, and a schedule falls due after them. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

// The triggers that keep cards in step with their note (docs/product.md §3 cards:
// "Editing a note adds/removes cards to match, keeping the schedule of cards
// that survive") and give every member a schedule row per card.

let db: Database;
let olga: User; // owns the deck
let vic: User; // studies it
let deck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, vic] = await Promise.all([createUser(db, { displayName: "Olga" }), createUser(db, { displayName: "Vic" })]);
  deck = await createDeck(db, olga, { name: "Sync" });
  await addMember(db, olga, deck, vic, "viewer");
});
afterAll(() => db.close());

interface CardRow {
  id: string;
  ordinal: number;
  deck_id: string;
}
const cardsOf = (noteId: string) =>
  db.query<CardRow>("select id, ordinal, deck_id from cards where note_id = $1 order by ordinal", [noteId]);
const ordinalsOf = async (noteId: string) => (await cardsOf(noteId)).map((card) => card.ordinal);

/** Olga edits a note's fields, as the note editor does. */
function editNote(noteId: string, fields: Record<string, string>, kind?: NoteInput["kind"]) {
  return actAs(db, olga, (tx) =>
    tx.query("update notes set fields = $2, kind = coalesce($3::note_kind, kind) where id = $1", [
      noteId,
      JSON.stringify(fields),
      kind ?? null,
    ]),
  );
}

describe("cards generated from a note", () => {
  test.each<{ what: string; note: NoteInput; ordinals: number[] }>([
    { what: "a basic note", note: basic("Front", "Back"), ordinals: [1] },
    { what: "a basic_reversed note", note: reversed("Front", "Back"), ordinals: [1, 2] },
    { what: "a type_in note", note: typeIn("Front", "Back"), ordinals: [1] },
    { what: "a cloze note", note: cloze("{{c1::Paris}} is in {{c3::France}}, on the {{c1::Seine}}"), ordinals: [1, 3] },
    {
      what: "a cloze note with nested deletions",
      note: cloze("{{c1::Mount {{c2::Everest}} in Nepal}}"),
      ordinals: [1, 2],
    },
  ])("$what makes cards $ordinals", async ({ note, ordinals }) => {
    const { noteId } = await addNote(db, olga, deck, note);
    expect(await ordinalsOf(noteId)).toEqual(ordinals);
    expect((await cardsOf(noteId)).map((card) => card.deck_id)).toEqual(ordinals.map(() => deck));
  });

  test("every member of the deck gets a 'new' schedule for each new card", async () => {
    const { cardIds } = await addNote(db, olga, deck, reversed("Hola", "Hello"));
    for (const user of [olga, vic]) {
      for (const card of cardIds) {
        expect(await stateOf(db, user.id, card)).toMatchObject({ deck_id: deck, state: "new", reps: 0, version: 0 });
      }
    }
  });
});

describe("editing a note", () => {
  test("from {c1, c2} to {c2, c3}: c1's card goes, c2's card and its schedule stay, c3 gets a new card", async () => {
    const { noteId, cardIds } = await addNote(db, olga, deck, cloze("{{c1::H}} and {{c2::O}} make water"));
    const [c1, c2] = cardIds as [string, string];
    // Vic has studied both cards.
    const vicC2 = await actAs(db, vic, async (tx) => {
      await recordReview(tx, { cardId: c1, expectedVersion: 0, state: "review", due: inDays(2), reps: 1 });
      return recordReview(tx, {
        cardId: c2,
        expectedVersion: 0,
        state: "review",
        due: inDays(3),
        reps: 1,
      });
    });

    await editNote(noteId, { text: "{{c2::O}} and {{c3::H2}} make water", extra: "" });

    const cards = await cardsOf(noteId);
    expect(cards.map((card) => card.ordinal)).toEqual([2, 3]);
    expect(cards[0]?.id).toBe(c2);
    expect(await stateOf(db, vic.id, c2)).toEqual(vicC2);
    expect(await logsOf(db, vic.id, c2)).toHaveLength(1);
    const c3 = cards[1]?.id as string;
    expect(await stateOf(db, vic.id, c3)).toMatchObject({ state: "new", version: 0 });
    expect(await stateOf(db, olga.id, c3)).toMatchObject({ state: "new", version: 0 });
    // c1's card is gone, with everyone's schedule and Vic's answer.
    expect(await db.query("select 1 from cards where id = $1", [c1])).toEqual([]);
    expect(await db.query("select 1 from card_states where card_id = $1", [c1])).toEqual([]);
    expect(await logsOf(db, vic.id, c1)).toEqual([]);
  });

  test("changing a basic note's text keeps its card and schedule", async () => {
    const { noteId, cardIds } = await addNote(db, olga, deck, basic("Capital of Peru", "Lima"));
    const card = cardIds[0] as string;
    const studied = await actAs(db, vic, (tx) => recordReview(tx, { cardId: card, expectedVersion: 0 }));

    await editNote(noteId, { front: "Capital of Peru?", back: "Lima (since 1535)" });

    expect((await cardsOf(noteId)).map((c) => c.id)).toEqual([card]);
    expect(await stateOf(db, vic.id, card)).toEqual(studied);
  });

  test("basic to basic_reversed adds the reverse card; back to basic removes it", async () => {
    const { noteId, cardIds } = await addNote(db, olga, deck, basic("Gato", "Cat"));
    await editNote(noteId, { front: "Gato", back: "Cat" }, "basic_reversed");
    const both = await cardsOf(noteId);
    expect(both.map((card) => card.ordinal)).toEqual([1, 2]);
    expect(both[0]?.id).toBe(cardIds[0]);

    await editNote(noteId, { front: "Gato", back: "Cat" }, "basic");
    expect((await cardsOf(noteId)).map((card) => card.id)).toEqual(cardIds);
  });
});

describe("deleting a note", () => {
  test("removes its cards, everyone's schedules of them and the answers", async () => {
    const { noteId, cardIds } = await addNote(db, olga, deck, reversed("Perro", "Dog"));
    await actAs(db, vic, (tx) => recordReview(tx, { cardId: cardIds[0] as string, expectedVersion: 0 }));
    await actAs(db, olga, (tx) => recordReview(tx, { cardId: cardIds[1] as string, expectedVersion: 0 }));

    await actAs(db, olga, (tx) => tx.query("delete from notes where id = $1", [noteId]));

    expect(await db.query("select 1 from cards where note_id = $1", [noteId])).toEqual([]);
    expect(await db.query("select 1 from card_states where card_id = any($1)", [cardIds])).toEqual([]);
    expect(await db.query("select 1 from review_logs where card_id = any($1)", [cardIds])).toEqual([]);
  });
});
