import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addMember,
  addNote,
  addNotes,
  basic,
  type CardStateRow,
  cloze,
  createDeck,
  failure,
  logsOf,
  recordReview,
  type User,
} from "./support/study-fixtures.js";

// Recently deleted notes (docs/product.md §3): a deleted note is kept 30 days
// with its cards, every member's schedule and the answers, and restore_notes
// brings them back as they were, for the deck's owner and editors.

let db: Database;
let olga: User; // owns the deck
let ed: User; // edits it
let vera: User; // views it
let deck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed, vera] = await Promise.all([
    createUser(db, { displayName: "Olga" }),
    createUser(db, { displayName: "Ed" }),
    createUser(db, { displayName: "Vera" }),
  ]);
  deck = await createDeck(db, olga, { name: "Deletions" });
  await addMember(db, olga, deck, ed, "editor");
  await addMember(db, olga, deck, vera, "viewer");
});
afterAll(() => db.close());

interface Listed {
  note_id: string;
  kind: string;
  sort_field: string;
  card_count: number;
  deleted_by: string | null;
  deleted_by_name: string | null;
  deleted_at: Date;
  days_left: number;
}

const listAs = (user: User, deckId = deck) =>
  actAs(db, user, (tx) => tx.query<Listed>("select * from deleted_notes($1)", [deckId]));
const restoreAs = (user: User, noteIds: string[]) =>
  actAs(db, user, async (tx) => {
    const rows = await tx.query<{ restored: number }>("select restore_notes($1) as restored", [noteIds]);
    return rows[0]?.restored;
  });
const deleteAs = async (user: User, noteIds: string[]) => {
  const versions = await db.query<{ id: string; version: number }>(
    "select id, version from notes where id = any($1) order by array_position($1, id)",
    [noteIds],
  );
  return actAs(db, user, (tx) =>
    tx.query("select delete_notes($1, $2)", [noteIds, versions.map((note) => note.version)]),
  );
};

/** Everything restore must bring back, read as the table owner, ordered. */
async function snapshot(noteId: string) {
  const [note] = await db.query<Record<string, unknown>>(
    "select id, deck_id, kind, fields, tags, created_by, created_at, updated_at, note_type_id, sort_field from notes where id = $1",
    [noteId],
  );
  const cards = await db.query("select * from cards where note_id = $1 order by ordinal", [noteId]);
  const states = await db.query<CardStateRow>(
    "select s.* from card_states s join cards c on c.id = s.card_id where c.note_id = $1 order by s.card_id, s.user_id",
    [noteId],
  );
  const logs = await db.query(
    "select l.* from review_logs l join cards c on c.id = l.card_id where c.note_id = $1 order by l.id",
    [noteId],
  );
  return { note, cards, states, logs };
}

/** A studied cloze note: Olga and Ed answered its first card. */
async function studiedNote(text = "{{c1::Paris}} is in {{c2::France}}") {
  const { noteId, cardIds } = await addNote(db, olga, deck, cloze(text));
  const first = cardIds[0] as string;
  await actAs(db, olga, (tx) => recordReview(tx, { cardId: first, expectedVersion: 0 }));
  await actAs(db, ed, (tx) => recordReview(tx, { cardId: first, expectedVersion: 0, rating: 4 }));
  return { noteId, cardIds };
}

describe("deleting a note", () => {
  test("keeps it, its cards, every member's schedule and the answers in the recently deleted list", async () => {
    const { noteId, cardIds } = await studiedNote("{{c1::Rome}} is in {{c2::Italy}}");
    await deleteAs(ed, [noteId]);

    expect(await db.query("select 1 from cards where note_id = $1", [noteId])).toEqual([]);
    const [entry] = await db.query<{ cards: unknown[]; card_states: unknown[]; review_logs: unknown[] }>(
      "select cards, card_states, review_logs from private.deleted_notes where note_id = $1",
      [noteId],
    );
    expect(entry?.cards).toHaveLength(2);
    expect(entry?.card_states).toHaveLength(2 * 3);
    expect(entry?.review_logs).toHaveLength(2);

    const listed = (await listAs(vera)).find((row) => row.note_id === noteId);
    expect(listed).toMatchObject({
      kind: "cloze",
      sort_field: "Rome is in Italy",
      card_count: cardIds.length,
      deleted_by: ed.id,
      deleted_by_name: "Ed",
      days_left: 30,
    });
  });

  test("is listed newest first, and only to the deck's members", async () => {
    const [first, second] = await addNotes(db, olga, deck, [basic("Older", "B"), basic("Newer", "B")]);
    await deleteAs(olga, [first?.noteId as string]);
    await deleteAs(olga, [second?.noteId as string]);
    const ids = (await listAs(olga)).map((row) => row.note_id);
    expect(ids.indexOf(second?.noteId as string)).toBeLessThan(ids.indexOf(first?.noteId as string));

    const stranger = await createUser(db);
    expect((await failure(listAs(stranger))).code).toBe("PT404");
  });

  test("with its deck keeps nothing", async () => {
    const doomed = await createDeck(db, olga, { name: "Doomed" });
    const { noteId } = await addNote(db, olga, doomed, basic("Gone", "With the deck"));
    await actAs(db, olga, (tx) => tx.query("delete from decks where id = $1", [doomed]));
    expect(await db.query("select 1 from private.deleted_notes where note_id = $1", [noteId])).toEqual([]);
  });

  test("keeps deletions 30 days, then purges them on the next delete or list", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Old", "Deletion"));
    await deleteAs(olga, [noteId]);
    await db.query(
      "update private.deleted_notes set deleted_at = now() - interval '29 days 23 hours' where note_id = $1",
      [noteId],
    );
    expect((await listAs(olga)).find((row) => row.note_id === noteId)?.days_left).toBe(1);

    await db.query(
      "update private.deleted_notes set deleted_at = now() - interval '30 days 1 minute' where note_id = $1",
      [noteId],
    );
    expect((await listAs(olga)).map((row) => row.note_id)).not.toContain(noteId);
    expect(await db.query("select 1 from private.deleted_notes where note_id = $1", [noteId])).toEqual([]);
    expect((await failure(restoreAs(olga, [noteId]))).code).toBe("PT404");
  });

  test("of 500 notes at once keeps all 500 in one statement", async () => {
    const ids = (
      await actAs(db, olga, (tx) =>
        tx.query<{ id: string }>(
          `insert into notes (deck_id, kind, fields)
           select $1, 'basic', jsonb_build_object('front', 'Bulk ' || i, 'back', 'B') from generate_series(1, 500) as i
           returning id`,
          [deck],
        ),
      )
    ).map((note) => note.id);
    await deleteAs(olga, ids);
    const [kept] = await db.query<{ n: number }>(
      "select count(*)::int as n from private.deleted_notes where note_id = any($1) and jsonb_array_length(card_states) = 3",
      [ids],
    );
    expect(kept?.n).toBe(500);
    expect(await restoreAs(olga, ids)).toBe(500);
  });
});

describe("restoring notes", () => {
  test("brings back the note, its cards, each member's schedule and the answers as they were", async () => {
    const { noteId } = await studiedNote();
    const before = await snapshot(noteId);
    await deleteAs(olga, [noteId]);

    expect(await restoreAs(ed, [noteId])).toBe(1);
    const after = await snapshot(noteId);
    expect(after.note).toEqual(before.note);
    expect(after.cards).toEqual(before.cards);
    expect(after.states).toEqual(before.states);
    expect(after.logs).toEqual(before.logs);
    expect((await listAs(olga)).map((row) => row.note_id)).not.toContain(noteId);
  });

  test("brings back the schedules of a note deleted before they named their card's note and ordinal", async () => {
    const { noteId } = await studiedNote();
    const before = await snapshot(noteId);
    await deleteAs(olga, [noteId]);
    await db.query(
      `update private.deleted_notes set card_states = (
         select jsonb_agg(s - array['note_id', 'ordinal']) from jsonb_array_elements(card_states) s
       ) where note_id = $1`,
      [noteId],
    );

    expect(await restoreAs(olga, [noteId])).toBe(1);
    expect((await snapshot(noteId)).states).toEqual(before.states);
  });

  test("records the restore in the note's history, at the version after its deletion", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("History", "B"));
    await deleteAs(olga, [noteId]);
    await restoreAs(ed, [noteId]);
    const history = await db.query<{ version: number; action: string; author_id: string | null }>(
      "select version, action, author_id from note_history where note_id = $1 order by version",
      [noteId],
    );
    expect(history).toEqual([
      { version: 1, action: "create", author_id: olga.id },
      { version: 2, action: "delete", author_id: olga.id },
      { version: 3, action: "restore", author_id: ed.id },
    ]);
    expect((await db.query<{ version: number }>("select version from notes where id = $1", [noteId]))[0]?.version).toBe(
      3,
    );
  });

  test("drops the schedules of members who left and gives members who joined new cards", async () => {
    const { noteId, cardIds } = await studiedNote("{{c1::Oslo}} is in {{c2::Norway}}");
    const leaver = ed;
    await deleteAs(olga, [noteId]);
    await actAs(db, olga, (tx) =>
      tx.query("delete from deck_members where deck_id = $1 and user_id = $2", [deck, leaver.id]),
    );
    const newcomer = await createUser(db);
    await addMember(db, olga, deck, newcomer, "viewer");

    await restoreAs(olga, [noteId]);
    const states = await db.query<{ user_id: string; state: string }>(
      "select user_id, state from card_states where card_id = $1",
      [cardIds[0]],
    );
    expect(Object.fromEntries(states.map((row) => [row.user_id, row.state]))).toEqual({
      [olga.id]: "learning",
      [vera.id]: "new",
      [newcomer.id]: "new",
    });
    // Answers are the user's own history: kept while the user exists.
    expect(await logsOf(db, leaver.id, cardIds[0])).toHaveLength(1);
    await addMember(db, olga, deck, ed, "editor");
  });

  test("is refused to viewers and changes nothing", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Viewer", "B"));
    await deleteAs(olga, [noteId]);
    expect((await failure(restoreAs(vera, [noteId]))).code).toBe("42501");
    expect((await listAs(olga)).map((row) => row.note_id)).toContain(noteId);
    expect(await db.query("select 1 from notes where id = $1", [noteId])).toEqual([]);
  });

  test("is all or nothing: one unknown id restores none", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("All or nothing", "B"));
    await deleteAs(olga, [noteId]);
    const error = await failure(restoreAs(olga, [noteId, crypto.randomUUID()]));
    expect(error).toMatchObject({ code: "PT404", detail: "note_ids" });
    expect(await db.query("select 1 from notes where id = $1", [noteId])).toEqual([]);
    expect((await listAs(olga)).map((row) => row.note_id)).toContain(noteId);
  });

  test("again is a no-op that restores nothing twice", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Twice", "B"));
    await deleteAs(olga, [noteId]);
    expect(await restoreAs(olga, [noteId])).toBe(1);
    expect(await restoreAs(olga, [noteId])).toBe(0);
    expect(await db.query("select 1 from notes where id = $1", [noteId])).toHaveLength(1);
  });

  test("is refused when the note's type was deleted since", async () => {
    const [type] = await actAs(db, olga, (tx) =>
      tx.query<{ id: string }>(
        `insert into note_types (deck_id, name, kind, fields, templates, css)
         values ($1, 'Word', 'standard', '{Word,Meaning}', '[{"name":"Card 1","front":"{{Word}}","back":"{{Meaning}}"}]', '')
         returning id`,
        [deck],
      ),
    );
    const [note] = await actAs(db, olga, (tx) =>
      tx.query<{ id: string }>(
        "insert into notes (deck_id, kind, fields, note_type_id) values ($1, 'custom', $2, $3) returning id",
        [deck, JSON.stringify({ Word: "chat", Meaning: "cat" }), type?.id],
      ),
    );
    const noteId = note?.id as string;
    await deleteAs(olga, [noteId]);
    await actAs(db, olga, (tx) => tx.query("delete from note_types where id = $1", [type?.id]));
    expect(await failure(restoreAs(olga, [noteId]))).toMatchObject({ code: "PT404", detail: "note_type_id" });
  });
});
