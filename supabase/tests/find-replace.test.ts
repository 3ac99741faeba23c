import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  addMember,
  addNote,
  addNotes,
  basic,
  cloze,
  createDeck,
  failure,
  type User,
} from "./support/study-fixtures.js";

// replace_in_notes: a find and replace's new fields for many notes, applied
// all or none, each note at the version its fields were computed from.

let db: Database;
let olga: User; // owns the deck
let ed: User; // edits it
let vera: User; // only views it
let deck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed, vera] = await Promise.all([
    createUser(db, { displayName: "Olga" }),
    createUser(db, { displayName: "Ed" }),
    createUser(db, { displayName: "Vera" }),
  ]);
  deck = await createDeck(db, olga, { name: "Replace" });
  await addMember(db, olga, deck, ed, "editor");
  await addMember(db, olga, deck, vera, "viewer");
});
afterAll(() => db.close());

interface Change {
  id: string;
  version: number;
  fields: Record<string, string>;
}

function replaceAs(user: User, changes: unknown) {
  return actAs(db, user, (tx) =>
    tx.query<{ id: string; version: number; fields: Record<string, string> }>(
      "select id, version, fields from replace_in_notes($1::jsonb) order by id",
      [JSON.stringify(changes)],
    ),
  );
}

const noteOf = async (noteId: string) =>
  (
    await db.query<{ version: number; fields: Record<string, string> }>(
      "select version, fields from notes where id = $1",
      [noteId],
    )
  )[0];

describe("replace_in_notes", () => {
  test("an editor's replacement is applied to every note named, each at a new version", async () => {
    const [a, b] = await addNotes(db, olga, deck, [basic("velocity", "one"), basic("density", "two")]);
    const changes: Change[] = [
      { id: a?.noteId ?? "", version: 1, fields: { front: "velocITY", back: "one" } },
      { id: b?.noteId ?? "", version: 1, fields: { front: "densITY", back: "two" } },
    ];
    const rows = await replaceAs(ed, changes);
    expect(rows).toHaveLength(2);
    expect(await noteOf(a?.noteId ?? "")).toEqual({ version: 2, fields: { front: "velocITY", back: "one" } });
    expect(await noteOf(b?.noteId ?? "")).toEqual({ version: 2, fields: { front: "densITY", back: "two" } });
  });

  test("each replaced note's new version is recorded in its history as an edit by the caller", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("history", "back"));
    await replaceAs(ed, [{ id: noteId, version: 1, fields: { front: "HISTORY", back: "back" } }]);
    const history = await db.query<{ version: number; action: string; author_id: string; fields: unknown }>(
      "select version, action, author_id, fields from note_history where note_id = $1 order by version",
      [noteId],
    );
    expect(history.map(({ version, action }) => ({ version, action }))).toEqual([
      { version: 1, action: "create" },
      { version: 2, action: "edit" },
    ]);
    expect(history[1]).toMatchObject({ author_id: ed.id, fields: { front: "HISTORY", back: "back" } });
  });

  test("one note changed since it was loaded refuses the whole replacement and names it", async () => {
    const [a, b] = await addNotes(db, olga, deck, [basic("first", "x"), basic("second", "x")]);
    await actAs(db, olga, (tx) =>
      tx.query("update notes set fields = $2, version = 1 where id = $1", [
        b?.noteId,
        JSON.stringify({ front: "second, edited", back: "x" }),
      ]),
    );
    const error = await failure(
      replaceAs(ed, [
        { id: a?.noteId, version: 1, fields: { front: "FIRST", back: "x" } },
        { id: b?.noteId, version: 1, fields: { front: "SECOND", back: "x" } },
      ]),
    );
    expect(error).toMatchObject({ code: "PT412" });
    expect(JSON.parse(error.detail ?? "{}")).toEqual({ notes: [{ id: b?.noteId, version: 2 }] });
    expect(await noteOf(a?.noteId ?? "")).toEqual({ version: 1, fields: { front: "first", back: "x" } });
  });

  test("a viewer is refused and nothing changes", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("viewed", "x"));
    const error = await failure(replaceAs(vera, [{ id: noteId, version: 1, fields: { front: "VIEWED", back: "x" } }]));
    expect(error).toMatchObject({ code: "42501" });
    expect((await noteOf(noteId))?.fields.front).toBe("viewed");
  });

  test("a stranger's notes are not found", async () => {
    const stranger = await createUser(db, { displayName: "Stan" });
    const { noteId } = await addNote(db, olga, deck, basic("hidden", "x"));
    const error = await failure(
      replaceAs(stranger, [{ id: noteId, version: 1, fields: { front: "HIDDEN", back: "x" } }]),
    );
    expect(error).toMatchObject({ code: "PT404" });
  });

  test("new fields that break a note's rules refuse the whole replacement", async () => {
    const [a, b] = await addNotes(db, olga, deck, [basic("kept", "x"), cloze("{{c1::Paris}} is in France")]);
    const error = await failure(
      replaceAs(ed, [
        { id: a?.noteId, version: 1, fields: { front: "KEPT", back: "x" } },
        { id: b?.noteId, version: 1, fields: { text: "Paris is in France", extra: "" } },
      ]),
    );
    expect(error).toMatchObject({ code: "23514", constraint: "notes_cloze_required" });
    expect((await noteOf(a?.noteId ?? ""))?.fields.front).toBe("kept");
  });

  test("a replacement cannot add or drop a note's fields", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("shape", "x"));
    const error = await failure(replaceAs(ed, [{ id: noteId, version: 1, fields: { front: "SHAPE" } }]));
    expect(error).toMatchObject({ code: "22023", detail: "fields" });
    expect(await noteOf(noteId)).toEqual({ version: 1, fields: { front: "shape", back: "x" } });
  });

  test("malformed changes, none, a note named twice and more than 500 notes are refused", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("limits", "x"));
    const change = { id: noteId, version: 1, fields: { front: "LIMITS", back: "x" } };
    const tooMany = Array.from({ length: 501 }, () => change);
    for (const changes of [
      [],
      {},
      [{ id: "not-a-uuid", version: 1, fields: {} }],
      [{ ...change, fields: { front: 1, back: "x" } }],
      [change, change],
      tooMany,
    ]) {
      expect(await failure(replaceAs(ed, changes))).toMatchObject({ code: "22023" });
    }
    expect(await noteOf(noteId)).toEqual({ version: 1, fields: { front: "limits", back: "x" } });
  });
});
