import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import { addMember, addNote, basic, createDeck, failure, type User } from "./support/study-fixtures.js";

// A note's version: every change bumps it, and an update stating an older
// one is refused with PT412, so a stale editor never overwrites another's edit.

let db: Database;
let olga: User; // owns the deck
let ed: User; // edits it
let deck: string;
let otherDeck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed] = await Promise.all([createUser(db, { displayName: "Olga" }), createUser(db, { displayName: "Ed" })]);
  [deck, otherDeck] = await Promise.all([
    createDeck(db, olga, { name: "Versions" }),
    createDeck(db, olga, { name: "Elsewhere" }),
  ]);
  await addMember(db, olga, deck, ed, "editor");
});
afterAll(() => db.close());

interface NoteRow {
  version: number;
  fields: Record<string, string>;
  tags: string[];
}
const noteOf = async (noteId: string) =>
  (await db.query<NoteRow>("select version, fields, tags from notes where id = $1", [noteId]))[0];

/** An edit as the note editor saves it: the fields and the version it was loaded at. */
function save(user: User, noteId: string, front: string, version: number) {
  return actAs(db, user, (tx) =>
    tx.query<{ version: number }>("update notes set fields = $2, version = $3 where id = $1 returning version", [
      noteId,
      JSON.stringify({ front, back: "Back" }),
      version,
    ]),
  );
}

describe("note versions", () => {
  test("a new note starts at version 1", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Front", "Back"));
    expect((await noteOf(noteId))?.version).toBe(1);
  });

  test("a save from the current version is stored and bumps the version", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Front", "Back"));
    expect(await save(ed, noteId, "Ed's front", 1)).toEqual([{ version: 2 }]);
    expect(await noteOf(noteId)).toMatchObject({ version: 2, fields: { front: "Ed's front" } });
  });

  test("a save from an older version is refused with the current version and changes nothing", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Front", "Back"));
    await save(ed, noteId, "Ed's front", 1);
    const error = await failure(save(olga, noteId, "Olga's front", 1));
    expect(error).toMatchObject({ code: "PT412" });
    expect(JSON.parse(error.detail ?? "")).toEqual({ version: 2 });
    expect(await noteOf(noteId)).toMatchObject({ version: 2, fields: { front: "Ed's front" } });
  });

  test("a save that changes nothing keeps the version", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Front", "Back"));
    expect(await save(ed, noteId, "Front", 1)).toEqual([{ version: 1 }]);
  });

  test("tagging and moving notes bump their versions, so an editor open on them meanwhile is refused", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Front", "Back"));
    await actAs(db, olga, (tx) =>
      tx.query("select id from tag_notes(p_note_ids => $1, p_add => $2)", [[noteId], ["verb"]]),
    );
    expect(await noteOf(noteId)).toMatchObject({ version: 2, tags: ["verb"] });
    await actAs(db, olga, (tx) =>
      tx.query("select move_notes(p_note_ids => $1, p_deck_id => $2)", [[noteId], otherDeck]),
    );
    expect((await noteOf(noteId))?.version).toBe(3);
    expect(await failure(save(olga, noteId, "Stale", 2))).toMatchObject({ code: "PT412" });
  });
});
