import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database, Queryable } from "@engram/local-stack";
import { applyMigrations, applyPlatform } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase, probeAs } from "./support/database.js";
import { openNewDatabase } from "./support/fresh-database.js";
import { supabaseDir } from "./support/paths.js";
import {
  addMember,
  addNote,
  basic,
  cloze,
  createDeck,
  only,
  reversed,
  typeIn,
  type User,
} from "./support/study-fixtures.js";

// Every note's sort field (docs/product.md §3): its first field as one line of
// plain text, kept by the database and sorted by, ignoring case, in the browser.

let db: Database;
let olga: User; // owns the deck
let ed: User; // edits it
let deck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed] = await Promise.all([createUser(db, { displayName: "Olga" }), createUser(db, { displayName: "Ed" })]);
  deck = await createDeck(db, olga, { name: "Sorting" });
  await addMember(db, olga, deck, ed, "editor");
});
afterAll(() => db.close());

const sortFieldOf = async (noteId: string) =>
  only(await db.query<{ sort_field: string }>("select sort_field from notes where id = $1", [noteId])).sort_field;

const occlusions = "{{c1::image-occlusion:rect:left=.1:top=.1:width=.2:height=.2:oi=1}}<br>";
const ioFields = (image: string, header = "") => ({ image, occlusions, header, back_extra: "", comments: "" });

function insertRaw(tx: Queryable, deckId: string, kind: string, fields: unknown, noteTypeId: string | null = null) {
  return tx
    .query<{ id: string }>(
      "insert into notes (deck_id, kind, fields, note_type_id) values ($1, $2, $3, $4) returning id",
      [deckId, kind, JSON.stringify(fields), noteTypeId],
    )
    .then((rows) => only(rows, "note").id);
}

function insertType(tx: Queryable, deckId: string, name: string, fields: string[]) {
  const front = fields.map((field) => `{{${field}}}`).join("<br>");
  return tx
    .query<{ id: string; version: number }>(
      "insert into note_types (deck_id, name, kind, fields, templates) values ($1, $2, 'standard', $3, $4) returning id, version",
      [deckId, name, fields, JSON.stringify([{ name: "Card 1", front, back: "{{FrontSide}}" }])],
    )
    .then((rows) => only(rows, "note type"));
}

describe("a note's sort field", () => {
  test("is the plain text of every kind's first field", async () => {
    const ids = await actAs(db, ed, async (tx) => {
      const type = await insertType(tx, deck, "Vocabulary", ["Word", "Meaning"]);
      return {
        basic: await insertRaw(tx, deck, "basic", basic("<b>Bonjour</b>", "Hello").fields),
        reversed: await insertRaw(tx, deck, "basic_reversed", reversed("Chat", "Cat").fields),
        typeIn: await insertRaw(tx, deck, "type_in", typeIn("Chien", "Dog").fields),
        cloze: await insertRaw(tx, deck, "cloze", cloze("{{c1::Paris::city}} is in {{c2::France}}").fields),
        custom: await insertRaw(tx, deck, "custom", { Word: "<i>maison</i>", Meaning: "house" }, type.id),
        header: await insertRaw(
          tx,
          deck,
          "image_occlusion",
          ioFields('<img src="heart.png" alt="A heart">', "The heart"),
        ),
        alt: await insertRaw(tx, deck, "image_occlusion", ioFields('<img src="heart.png" alt="A heart">')),
        file: await insertRaw(tx, deck, "image_occlusion", ioFields('<img src="lungs%20front.png">')),
      };
    });
    expect(await sortFieldOf(ids.basic)).toBe("Bonjour");
    expect(await sortFieldOf(ids.reversed)).toBe("Chat");
    expect(await sortFieldOf(ids.typeIn)).toBe("Chien");
    expect(await sortFieldOf(ids.cloze)).toBe("Paris is in France");
    expect(await sortFieldOf(ids.custom)).toBe("maison");
    expect(await sortFieldOf(ids.header)).toBe("The heart");
    expect(await sortFieldOf(ids.alt)).toBe("A heart");
    expect(await sortFieldOf(ids.file)).toBe("lungs%20front.png");
  });

  test("drops markup, decodes entities, collapses white space and keeps 200 characters", async () => {
    const front =
      "<div>Café &amp; cr&#232;me&nbsp;<br>br&#xE9;l&#xE9;e</div><div>  &lt;b&gt;   &amp;lt; </div><!-- note -->";
    const { noteId } = await addNote(db, ed, deck, basic(front, "Back"));
    expect(await sortFieldOf(noteId)).toBe("Café & crème brélée <b> &lt;");
    const nested = await addNote(db, ed, deck, cloze("{{c1::outer {{c2::inner::hint}} end}}"));
    expect(await sortFieldOf(nested.noteId)).toBe("outer inner end");
    const long = await addNote(db, ed, deck, basic(`<p>${"word ".repeat(100)}</p>`, "Back"));
    const text = await sortFieldOf(long.noteId);
    expect(text).toHaveLength(200);
    expect(text.startsWith("word word")).toBe(true);
  });

  test("follows an edit of the note", async () => {
    const { noteId } = await addNote(db, ed, deck, basic("Before", "Back"));
    await actAs(db, ed, (tx) =>
      tx.query("update notes set fields = $2, version = 1 where id = $1", [
        noteId,
        JSON.stringify({ front: "After", back: "Back" }),
      ]),
    );
    expect(await sortFieldOf(noteId)).toBe("After");
  });

  test("follows the note type's first field when update_note_type reorders or renames its fields", async () => {
    const { type, noteId } = await actAs(db, olga, async (tx) => {
      const type = await insertType(tx, deck, "Reordered", ["Word", "Meaning"]);
      return { type, noteId: await insertRaw(tx, deck, "custom", { Word: "maison", Meaning: "house" }, type.id) };
    });
    expect(await sortFieldOf(noteId)).toBe("maison");
    await actAs(db, olga, (tx) =>
      tx.query("select update_note_type($1, $2, $3, $4, $5, $6)", [
        type.id,
        type.version,
        "Reordered",
        ["Meaning", "Word"],
        JSON.stringify([{ name: "Card 1", front: "{{Meaning}}<br>{{Word}}", back: "{{FrontSide}}" }]),
        "",
      ]),
    );
    expect(await sortFieldOf(noteId)).toBe("house");
    // Renamed, the first field keeps its text and the sort field stays.
    await actAs(db, olga, (tx) =>
      tx.query("select update_note_type($1, $2, $3, $4, $5, $6, p_field_map => $7)", [
        type.id,
        type.version + 1,
        "Reordered",
        ["Sense", "Word"],
        JSON.stringify([{ name: "Card 1", front: "{{Sense}}<br>{{Word}}", back: "{{FrontSide}}" }]),
        "",
        [0, 1],
      ]),
    );
    expect(await sortFieldOf(noteId)).toBe("house");
    // And a field moved to the front brings its text.
    await actAs(db, olga, (tx) =>
      tx.query("select update_note_type($1, $2, $3, $4, $5, $6, p_field_map => $7)", [
        type.id,
        type.version + 2,
        "Reordered",
        ["Word", "Sense"],
        JSON.stringify([{ name: "Card 1", front: "{{Sense}}<br>{{Word}}", back: "{{FrontSide}}" }]),
        "",
        [1, 0],
      ]),
    );
    expect(await sortFieldOf(noteId)).toBe("maison");
  });

  test("cannot be written by a client, and the database's own value stands", async () => {
    const { noteId } = await addNote(db, ed, deck, basic("Mine", "Back"));
    const update = await probeAs(db, ed, (tx) =>
      tx.query("update notes set sort_field = 'zzz' where id = $1", [noteId]),
    );
    expect(update).toMatchObject({ ok: false, error: { code: "42501" } });
    const insert = await probeAs(db, ed, (tx) =>
      tx.query("insert into notes (deck_id, kind, fields, sort_field) values ($1, 'basic', $2, 'zzz')", [
        deck,
        JSON.stringify({ front: "Theirs", back: "" }),
      ]),
    );
    expect(insert).toMatchObject({ ok: false, error: { code: "42501" } });
    // Even the service role's value is replaced by the note's own.
    await db.query("update notes set sort_field = 'zzz' where id = $1", [noteId]);
    expect(await sortFieldOf(noteId)).toBe("Mine");
  });

  test("orders a deck's notes ignoring case through sort_key, custom notes among basic ones", async () => {
    const other = await createDeck(db, olga, { name: "Order" });
    await actAs(db, olga, async (tx) => {
      const type = await insertType(tx, other, "Words", ["Word"]);
      await insertRaw(tx, other, "basic", basic("banana", "").fields);
      await insertRaw(tx, other, "custom", { Word: "Cherry" }, type.id);
      await insertRaw(tx, other, "cloze", cloze("{{c1::apple}}").fields);
      await insertRaw(tx, other, "basic", basic("Date", "").fields);
    });
    const rows = await actAs(db, olga, (tx) =>
      tx.query<{ sort_field: string }>("select n.sort_field from notes n where deck_id = $1 order by sort_key(n), id", [
        other,
      ]),
    );
    expect(rows.map((row) => row.sort_field)).toEqual(["apple", "banana", "Cherry", "Date"]);
  });
});

describe("the migration", () => {
  const migration = "20261127211000_note_sort_field.sql";
  let dir: string;
  let old: Database;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "engram-sort-field-"));
    const source = join(supabaseDir, "migrations");
    for (const file of await readdir(source)) {
      if (file.endsWith(".sql") && file < migration) await copyFile(join(source, file), join(dir, file));
    }
    old = await openNewDatabase(async (fresh) => {
      await applyPlatform(fresh, { exposeNewTables: false });
      await applyMigrations(fresh, dir);
    });
  });
  afterAll(async () => {
    await old?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("gives existing notes their sort field without editing them", async () => {
    const owner = await createUser(old, { displayName: "Owner" });
    const deckId = await createDeck(old, owner, { name: "Before" });
    const notes = await actAs(old, owner, async (tx) => {
      const type = await insertType(tx, deckId, "Vocabulary", ["Word", "Meaning"]);
      return [
        await insertRaw(tx, deckId, "basic", basic("<b>Front</b>", "Back").fields),
        await insertRaw(tx, deckId, "cloze", cloze("{{c1::Gap}} text").fields),
        await insertRaw(tx, deckId, "custom", { Word: "Mot", Meaning: "Word" }, type.id),
        await insertRaw(tx, deckId, "image_occlusion", ioFields('<img src="a.png">', "Header")),
      ];
    });
    const before = await old.query("select id, version, updated_at from notes order by id");
    await copyFile(join(supabaseDir, "migrations", migration), join(dir, migration));
    await applyMigrations(old, dir);
    const rows = await old.query<{ id: string; sort_field: string }>("select id, sort_field from notes");
    const byId = new Map(rows.map((row) => [row.id, row.sort_field]));
    expect(notes.map((id) => byId.get(id))).toEqual(["Front", "Gap text", "Mot", "Header"]);
    expect(await old.query("select id, version, updated_at from notes order by id")).toEqual(before);
  });
});
