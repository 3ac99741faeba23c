import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase, service } from "./support/database.js";
import { addMember, addNote, basic, createDeck, failure, insertLog, type User } from "./support/study-fixtures.js";

// A note's history (docs/product.md §3, "Note history"): one row per version,
// written by statement triggers, readable with the deck; revert_note brings a
// version back as a new one; deck_changes counts what others changed.

let db: Database;
let olga: User; // owns the deck
let ed: User; // edits it
let vera: User; // views it
let lee: User; // leaves it
let stranger: User;
let deck: string;
let otherDeck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed, vera, lee, stranger] = await Promise.all([
    createUser(db, { displayName: "Olga" }),
    createUser(db, { displayName: "Ed" }),
    createUser(db, { displayName: "Vera" }),
    createUser(db, { displayName: "Lee" }),
    createUser(db, { displayName: "Stranger" }),
  ]);
  [deck, otherDeck] = await Promise.all([
    createDeck(db, olga, { name: "History" }),
    createDeck(db, olga, { name: "Elsewhere" }),
  ]);
  await addMember(db, olga, deck, ed, "editor");
  await addMember(db, olga, deck, vera, "viewer");
  await addMember(db, olga, deck, lee, "viewer");
  await addMember(db, olga, otherDeck, ed, "editor");
});
afterAll(() => db.close());

interface HistoryRow {
  version: number;
  action: string;
  deck_id: string;
  fields: Record<string, string>;
  tags: string[];
  author_id: string | null;
  co_author_id: string | null;
  reverted_from: number | null;
}
const historyOf = (noteId: string) =>
  db.query<HistoryRow>(
    `select version, action, deck_id, fields, tags, author_id, co_author_id, reverted_from
     from note_history where note_id = $1 order by version`,
    [noteId],
  );

function save(user: User, noteId: string, front: string, version: number, tags?: string[]) {
  return actAs(db, user, (tx) =>
    tx.query<{ version: number }>(
      "update notes set fields = $2, version = $3, tags = coalesce($4, tags) where id = $1 returning version",
      [noteId, JSON.stringify({ front, back: "Back" }), version, tags ?? null],
    ),
  );
}

const revert = (user: User, noteId: string, version: number, base: number) =>
  actAs(db, user, (tx) =>
    tx.query<{ version: number; fields: Record<string, string> }>(
      "select version, fields from revert_note($1, $2, $3)",
      [noteId, version, base],
    ),
  );

describe("note history rows", () => {
  test("adding, editing, moving and deleting a note each write one row, with the version and its author", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("One", "Back", ["a"]));
    await save(ed, noteId, "Two", 1, ["a", "b"]);
    await actAs(db, ed, (tx) => tx.query("select move_notes($1, $2, $3)", [[noteId], otherDeck, [2]]));
    await actAs(db, ed, (tx) => tx.query("select delete_notes($1, $2)", [[noteId], [3]]));
    expect(await historyOf(noteId)).toEqual([
      expect.objectContaining({ version: 1, action: "create", deck_id: deck, author_id: olga.id, tags: ["a"] }),
      expect.objectContaining({
        version: 2,
        action: "edit",
        deck_id: deck,
        author_id: ed.id,
        fields: { front: "Two", back: "Back" },
      }),
      expect.objectContaining({ version: 3, action: "move", deck_id: otherDeck, author_id: ed.id }),
      expect.objectContaining({
        version: 4,
        action: "delete",
        deck_id: otherDeck,
        author_id: ed.id,
        fields: { front: "Two", back: "Back" },
      }),
    ]);
  });

  test("notes.updated_by follows each version's author and is not writable by clients", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Who", "Back"));
    await save(ed, noteId, "Who now", 1);
    const [note] = await db.query<{ updated_by: string }>("select updated_by from notes where id = $1", [noteId]);
    expect(note?.updated_by).toBe(ed.id);
    const error = await failure(
      actAs(db, ed, (tx) => tx.query("update notes set updated_by = $2 where id = $1", [noteId, olga.id])),
    );
    expect(error.code).toBe("42501");
  });

  test("a co-author set with a change is recorded, and the next change without one has none", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Co", "Back"));
    // As a function of the database does it (clients cannot write co_author_id);
    // without a caller, the version keeps its last author.
    await db.query(`update notes set fields = '{"front":"Co 2","back":"Back"}', co_author_id = $2 where id = $1`, [
      noteId,
      vera.id,
    ]);
    expect(
      (
        await failure(
          actAs(db, olga, (tx) => tx.query("update notes set co_author_id = $2 where id = $1", [noteId, vera.id])),
        )
      ).code,
    ).toBe("42501");
    await save(olga, noteId, "Co 3", 2);
    const rows = await historyOf(noteId);
    expect(rows.map((row) => [row.version, row.author_id, row.co_author_id])).toEqual([
      [1, olga.id, null],
      [2, olga.id, vera.id],
      [3, olga.id, null],
    ]);
  });

  test("an update that makes no new version writes no row", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Same", "Back"));
    await save(olga, noteId, "Same", 1);
    expect(await historyOf(noteId)).toHaveLength(1);
  });

  test("a bulk insert adds its rows in one statement-level pass", async () => {
    const before = await db.query<{ calls: number }>(
      "select count(*)::int as calls from note_history where deck_id = $1",
      [deck],
    );
    await actAs(db, ed, (tx) =>
      tx.query(
        `insert into notes (deck_id, kind, fields, tags)
         select $1, 'basic', jsonb_build_object('front', 'Bulk ' || i, 'back', 'B'), '{}'
         from generate_series(1, 300) as i`,
        [deck],
      ),
    );
    const after = await db.query<{ calls: number }>(
      "select count(*)::int as calls from note_history where deck_id = $1",
      [deck],
    );
    expect((after[0]?.calls ?? 0) - (before[0]?.calls ?? 0)).toBe(300);
    const triggers = await db.query<{ tgname: string; row_level: boolean }>(
      `select tgname, (tgtype & 1) = 1 as row_level from pg_trigger
       where tgrelid = 'public.notes'::regclass and tgname like 'notes_record_%' order by tgname`,
    );
    expect(triggers).toEqual([
      { tgname: "notes_record_deletes", row_level: false },
      { tgname: "notes_record_inserts", row_level: false },
      { tgname: "notes_record_updates", row_level: false },
    ]);
  });

  test("a deck's deletion takes its history along", async () => {
    const doomed = await createDeck(db, olga, { name: "Doomed" });
    const { noteId } = await addNote(db, olga, doomed, basic("Gone", "Back"));
    await actAs(db, olga, (tx) => tx.query("delete from decks where id = $1", [doomed]));
    expect(await historyOf(noteId)).toEqual([]);
  });

  test("clients cannot write history", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Locked", "Back"));
    for (const sql of [
      "update note_history set fields = '{}' where note_id = $1",
      "delete from note_history where note_id = $1",
      `insert into note_history (note_id, deck_id, version, action, kind, fields)
       select note_id, deck_id, 99, 'edit', kind, fields from note_history where note_id = $1`,
    ]) {
      expect((await failure(actAs(db, olga, (tx) => tx.query(sql, [noteId])))).code).toBe("42501");
    }
  });
});

describe("who reads history", () => {
  test("members read it, with names, and strangers, anon and a member who left do not", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Read", "Back"));
    await save(ed, noteId, "Read 2", 1);
    const list = (user: typeof olga | typeof anon) =>
      actAs(db, user, (tx) =>
        tx.query<{ version: number; author_name: string | null; previous_fields: unknown }>(
          "select version, author_name, previous_fields from note_history_of($1)",
          [noteId],
        ),
      );
    expect(await list(vera)).toEqual([
      { version: 2, author_name: "Ed", previous_fields: { front: "Read", back: "Back" } },
      { version: 1, author_name: "Olga", previous_fields: null },
    ]);
    expect(await list(lee)).toHaveLength(2);
    await actAs(db, lee, (tx) =>
      tx.query("delete from deck_members where deck_id = $1 and user_id = $2", [deck, lee.id]),
    );
    expect(await list(lee)).toEqual([]);
    expect(await list(stranger)).toEqual([]);
    expect(await list(anon)).toEqual([]);
    const direct = await actAs(db, stranger, (tx) =>
      tx.query("select * from note_history where note_id = $1", [noteId]),
    );
    expect(direct).toEqual([]);
    expect(
      await actAs(db, service, (tx) => tx.query("select * from note_history where note_id = $1", [noteId])),
    ).toHaveLength(2);
  });

  test("deck_history pages through a deck's changes newest first and refuses non-readers", async () => {
    const pageDeck = await createDeck(db, olga, { name: "Paged" });
    const { noteId } = await addNote(db, olga, pageDeck, basic("P", "Back"));
    for (let version = 1; version <= 4; version += 1) await save(olga, noteId, `P ${version}`, version);
    const page = (after: { created_at: string; note_id: string; version: number } | null) =>
      actAs(db, olga, (tx) =>
        tx.query<{ version: number; created_at: string; note_id: string }>(
          "select version, created_at, note_id from deck_history($1, null, null, 2, $2, $3, $4)",
          [pageDeck, after?.created_at ?? null, after?.note_id ?? null, after?.version ?? null],
        ),
      );
    const first = await page(null);
    expect(first.map((row) => row.version)).toEqual([5, 4]);
    const second = await page(first[1] ?? null);
    expect(second.map((row) => row.version)).toEqual([3, 2]);
    expect(
      (await failure(actAs(db, stranger, (tx) => tx.query("select * from deck_history($1)", [pageDeck])))).code,
    ).toBe("PT404");
    expect(
      (await failure(actAs(db, olga, (tx) => tx.query("select * from deck_history($1, null, null, 0)", [pageDeck]))))
        .code,
    ).toBe("22023");
  });
});

describe("revert_note", () => {
  test("an editor brings back an old version as a new one, recorded as a revert", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Original", "Back", ["x"]));
    await save(olga, noteId, "Changed", 1, ["y"]);
    expect(await revert(ed, noteId, 1, 2)).toEqual([{ version: 3, fields: { front: "Original", back: "Back" } }]);
    const rows = await historyOf(noteId);
    expect(rows.at(-1)).toMatchObject({
      version: 3,
      action: "revert",
      reverted_from: 1,
      author_id: ed.id,
      tags: ["x"],
    });
    // The setting is gone with the revert: the next edit is an edit.
    await save(ed, noteId, "Again", 3);
    expect((await historyOf(noteId)).at(-1)).toMatchObject({ version: 4, action: "edit", reverted_from: null });
  });

  test("a viewer is refused, a stale base is refused, an unknown version is not found; nothing changes", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Keep", "Back"));
    await save(olga, noteId, "Kept", 1);
    expect((await failure(revert(vera, noteId, 1, 2))).code).toBe("42501");
    const stale = await failure(revert(ed, noteId, 1, 1));
    expect(stale.code).toBe("PT412");
    expect(JSON.parse(stale.detail ?? "{}")).toEqual({ version: 2 });
    expect((await failure(revert(ed, noteId, 9, 2))).code).toBe("PT404");
    expect((await failure(revert(stranger, noteId, 1, 2))).code).toBe("PT404");
    expect(await historyOf(noteId)).toHaveLength(2);
  });

  test("a version whose note type's fields changed since is refused with a typed error", async () => {
    const [type] = await actAs(db, olga, (tx) =>
      tx.query<{ id: string }>(
        `insert into note_types (deck_id, name, fields, templates)
         values ($1, 'Vocab', '{Word,Meaning}', '[{"name":"Card 1","front":"{{Word}}","back":"{{Meaning}}"}]') returning id`,
        [deck],
      ),
    );
    const [note] = await actAs(db, olga, (tx) =>
      tx.query<{ id: string }>(
        `insert into notes (deck_id, kind, note_type_id, fields) values ($1, 'custom', $2, '{"Word":"a","Meaning":"b"}') returning id`,
        [deck, type?.id],
      ),
    );
    await actAs(db, olga, (tx) =>
      tx.query(
        `select update_note_type($1, 1, 'Vocab', '{Term,Meaning}',
           '[{"name":"Card 1","front":"{{Term}}","back":"{{Meaning}}"}]', '', false, '{0,1}')`,
        [type?.id],
      ),
    );
    const error = await failure(revert(olga, note?.id ?? "", 1, 2));
    expect(error.code).toBe("PT409");
    expect(JSON.parse(error.detail ?? "{}")).toEqual({ reason: "note_type_changed" });
  });
});

describe("deck_changes", () => {
  test("counts notes others added, edited and deleted since the caller last studied, with their names", async () => {
    const studied = await createDeck(db, olga, { name: "Studied" });
    await addMember(db, olga, studied, ed, "editor");
    await addMember(db, olga, studied, vera, "viewer");
    const changes = (user: User, since?: string) =>
      actAs(db, user, async (tx) => {
        const [row] = await tx.query<{ changes: Record<string, unknown> }>("select deck_changes($1, $2) as changes", [
          studied,
          since ?? null,
        ]);
        return row?.changes;
      });
    const [edited, deleted, mine] = [
      await addNote(db, olga, studied, basic("E", "B")),
      await addNote(db, olga, studied, basic("D", "B")),
      await addNote(db, olga, studied, basic("M", "B")),
    ];
    expect(await changes(vera)).toEqual({ since: null, edited: 0, added: 0, deleted: 0, authors: [] });
    await db.query("update note_history set created_at = now() - interval '2 hours' where deck_id = $1", [studied]);
    await insertLog(db, {
      userId: vera.id,
      cardId: edited.cardIds[0] ?? "",
      rating: 3,
      state: "new",
      reviewedAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(await changes(vera)).toMatchObject({ edited: 0, added: 0, deleted: 0, authors: [] });
    await save(ed, edited.noteId, "E 2", 1);
    await save(ed, edited.noteId, "E 3", 2);
    await actAs(db, olga, (tx) => tx.query("select delete_notes($1, $2)", [[deleted.noteId], [1]]));
    await addNote(db, ed, studied, basic("New", "B"));
    await save(olga, mine.noteId, "M 2", 1);
    const seen = await changes(vera);
    expect(seen).toMatchObject({
      edited: 2,
      added: 1,
      deleted: 1,
      authors: [
        { id: ed.id, name: "Ed" },
        { id: olga.id, name: "Olga" },
      ],
    });
    // Olga's own changes are not news to her.
    expect(await changes(olga, new Date(Date.now() - 3_600_000).toISOString())).toMatchObject({
      edited: 1,
      added: 1,
      deleted: 0,
      authors: [{ id: ed.id, name: "Ed" }],
    });
    expect((await failure(changes(stranger))).code).toBe("PT404");
  });
});
