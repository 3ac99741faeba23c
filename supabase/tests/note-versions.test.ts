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

// Bulk actions state each note's version as the caller loaded it; one note
// changed since refuses the whole action with the stale notes' current versions.
describe("bulk actions with versions", () => {
  const countOf = async (noteIds: string[]) =>
    (await db.query<{ count: number }>("select count(*)::int as count from notes where id = any($1)", [noteIds]))[0]
      ?.count;
  const deckOf = async (noteId: string) =>
    (await db.query<{ deck_id: string }>("select deck_id from notes where id = $1", [noteId]))[0]?.deck_id;

  /** Two notes, the second edited by Ed after both were loaded at version 1. */
  async function oneStale() {
    const [a, b] = await Promise.all([
      addNote(db, olga, deck, basic("A", "Back")),
      addNote(db, olga, deck, basic("B", "Back")),
    ]);
    await save(ed, b.noteId, "Ed's B", 1);
    return { ids: [a.noteId, b.noteId], stale: b.noteId };
  }
  const staleDetail = (error: { detail?: string }) => JSON.parse(error.detail ?? "");

  test("delete_notes deletes notes at their current versions", async () => {
    const [a, b] = await Promise.all([
      addNote(db, olga, deck, basic("A", "Back")),
      addNote(db, olga, deck, basic("B", "Back")),
    ]);
    const rows = await actAs(db, ed, (tx) =>
      tx.query<{ deleted: number }>("select delete_notes($1, $2) as deleted", [
        [a.noteId, b.noteId],
        [1, 1],
      ]),
    );
    expect(rows).toEqual([{ deleted: 2 }]);
    expect(await countOf([a.noteId, b.noteId])).toBe(0);
  });

  test("delete_notes with one stale version is refused and deletes nothing", async () => {
    const { ids, stale } = await oneStale();
    const error = await failure(actAs(db, olga, (tx) => tx.query("select delete_notes($1, $2)", [ids, [1, 1]])));
    expect(error).toMatchObject({ code: "PT412" });
    expect(staleDetail(error)).toEqual({ notes: [{ id: stale, version: 2 }] });
    expect(await countOf(ids)).toBe(2);
  });

  test("delete_notes needs one version per note", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("A", "Back"));
    for (const versions of [null, [1, 1]]) {
      const error = await failure(
        actAs(db, olga, (tx) => tx.query("select delete_notes($1, $2)", [[noteId], versions])),
      );
      expect(error).toMatchObject({ code: "22023" });
    }
    expect(await countOf([noteId])).toBe(1);
  });

  test("delete_notes refuses a viewer's call", async () => {
    const viewer = await createUser(db, { displayName: "Vera" });
    await addMember(db, olga, deck, viewer, "viewer");
    const { noteId } = await addNote(db, olga, deck, basic("A", "Back"));
    const error = await failure(actAs(db, viewer, (tx) => tx.query("select delete_notes($1, $2)", [[noteId], [1]])));
    expect(error).toMatchObject({ code: "42501" });
    expect(await countOf([noteId])).toBe(1);
  });

  test("move_notes moves notes at their current versions", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("A", "Back"));
    const rows = await actAs(db, olga, (tx) =>
      tx.query<{ moved: number }>("select move_notes(p_note_ids => $1, p_deck_id => $2, p_versions => $3) as moved", [
        [noteId],
        otherDeck,
        [1],
      ]),
    );
    expect(rows).toEqual([{ moved: 1 }]);
    expect(await deckOf(noteId)).toBe(otherDeck);
  });

  test("move_notes with one stale version is refused and moves nothing", async () => {
    const { ids, stale } = await oneStale();
    const error = await failure(
      actAs(db, olga, (tx) =>
        tx.query("select move_notes(p_note_ids => $1, p_deck_id => $2, p_versions => $3)", [ids, otherDeck, [1, 1]]),
      ),
    );
    expect(error).toMatchObject({ code: "PT412" });
    expect(staleDetail(error)).toEqual({ notes: [{ id: stale, version: 2 }] });
    expect(await Promise.all(ids.map(deckOf))).toEqual([deck, deck]);
  });

  test("tag_notes tags notes at their current versions", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("A", "Back"));
    const rows = await actAs(db, ed, (tx) =>
      tx.query<{ version: number; tags: string[] }>(
        "select version, tags from tag_notes(p_note_ids => $1, p_add => $2, p_versions => $3)",
        [[noteId], ["verb"], [1]],
      ),
    );
    expect(rows).toEqual([{ version: 2, tags: ["verb"] }]);
  });

  test("tag_notes with one stale version is refused and tags nothing", async () => {
    const { ids, stale } = await oneStale();
    const error = await failure(
      actAs(db, olga, (tx) =>
        tx.query("select id from tag_notes(p_note_ids => $1, p_add => $2, p_versions => $3)", [ids, ["verb"], [1, 1]]),
      ),
    );
    expect(error).toMatchObject({ code: "PT412" });
    expect(staleDetail(error)).toEqual({ notes: [{ id: stale, version: 2 }] });
    for (const id of ids) expect((await noteOf(id))?.tags).toEqual([]);
  });
});
