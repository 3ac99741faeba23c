import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Actor, actAs, anon, createUser, openTestDatabase } from "./support/database.js";
import { addMember, addNote, basic, createDeck, failure, type User } from "./support/study-fixtures.js";

// Personal notes (docs/product.md §3): each user's own tags and My notes on a
// note of a deck they can read, seen and changed by them alone, kept through
// others' edits and moves of the note, and carried into their copy of the deck.

let db: Database;
let olga: User; // owns the shared deck
let mia: User; // a viewer of it
let ed: User; // an editor of it
let deck: string;
let otherDeck: string;

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, mia, ed] = await Promise.all([createUser(db), createUser(db), createUser(db)]);
  [deck, otherDeck] = await Promise.all([
    createDeck(db, olga, { name: "Anatomy" }),
    createDeck(db, olga, { name: "Anatomy, later" }),
  ]);
  await addMember(db, olga, deck, mia, "viewer");
  await addMember(db, olga, deck, ed, "editor");
  await addMember(db, olga, otherDeck, mia, "viewer");
});
afterAll(() => db?.close());

interface PersonalRow {
  user_id: string;
  note_id: string;
  deck_id: string;
  tags: string[];
  text: string;
}

function save(user: User, noteId: string, tags: string[] | null, text: string | null) {
  return actAs(db, user, (tx) =>
    tx.query<PersonalRow>(
      "select user_id, note_id, deck_id, tags, text from save_personal_note(p_note_id => $1, p_tags => $2, p_text => $3)",
      [noteId, tags, text],
    ),
  );
}

const readAs = (user: User, noteId: string) =>
  actAs(db, user, (tx) =>
    tx.query<PersonalRow>("select user_id, note_id, deck_id, tags, text from personal_notes where note_id = $1", [
      noteId,
    ]),
  );

const stored = (noteId: string) =>
  db.query<PersonalRow>(
    "select user_id, note_id, deck_id, tags, text from personal_notes where note_id = $1 order by user_id",
    [noteId],
  );

describe("saving a personal note", () => {
  test("a viewer saves tags and My notes on a shared note and reads them back", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Femur", "Thigh bone"));
    const [saved] = await save(mia, noteId, ["hard", "page-12"], "Think: FEMur = FEMale thigh");
    expect(saved).toEqual({
      user_id: mia.id,
      note_id: noteId,
      deck_id: deck,
      tags: ["hard", "page-12"],
      text: "Think: FEMur = FEMale thigh",
    });
    expect(await readAs(mia, noteId)).toEqual([saved]);
  });

  test("saving again replaces the tags and text", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Tibia", "Shin bone"));
    await save(mia, noteId, ["hard"], "first");
    await save(mia, noteId, ["easy"], "second");
    expect(await readAs(mia, noteId)).toMatchObject([{ tags: ["easy"], text: "second" }]);
  });

  test("saving no tags and blank text removes the row", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Ulna", "Forearm bone"));
    await save(mia, noteId, ["hard"], "x");
    expect(await save(mia, noteId, [], "  \n ")).toEqual([]);
    expect(await stored(noteId)).toEqual([]);
  });

  test.each([
    [Array.from({ length: 51 }, (_, i) => `t${i}`), "x", "tags"],
    [["two words"], "x", "tags"],
    [["same", "same"], "x", "tags"],
    [["a".repeat(65)], "x", "tags"],
    [["ok"], "y".repeat(20_001), "text"],
  ])("bad input is refused with 22023 naming the argument, and nothing is stored (%#)", async (tags, text, field) => {
    const { noteId } = await addNote(db, olga, deck, basic("Radius", "Forearm bone"));
    const error = await failure(save(mia, noteId, tags, text));
    expect(error).toMatchObject({ code: "22023", detail: field });
    expect(await stored(noteId)).toEqual([]);
  });

  test("a note of a deck the caller cannot read is not found", async () => {
    const stranger = await createUser(db);
    const { noteId } = await addNote(db, olga, deck, basic("Patella", "Knee cap"));
    expect(await failure(save(stranger, noteId, ["mine"], "x"))).toMatchObject({ code: "PT404", detail: "note_id" });
    expect(
      await failure(
        actAs(db, stranger, (tx) =>
          tx.query("insert into personal_notes (note_id, tags) values ($1, $2)", [noteId, ["mine"]]),
        ),
      ),
    ).toMatchObject({ code: "42501" });
    expect(await stored(noteId)).toEqual([]);
  });
});

describe("a personal note is its user's alone", () => {
  test("another member can neither read, change nor delete it, nor write one in its user's name", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Scapula", "Shoulder blade"));
    await save(mia, noteId, ["mine"], "Mia's mnemonic");
    expect(await readAs(olga, noteId)).toEqual([]);
    expect(await readAs(ed, noteId)).toEqual([]);
    const changed = await actAs(db, olga, (tx) =>
      tx.query("update personal_notes set text = 'overwritten' where note_id = $1 returning note_id", [noteId]),
    );
    const deleted = await actAs(db, ed, (tx) =>
      tx.query("delete from personal_notes where note_id = $1 returning note_id", [noteId]),
    );
    expect([changed, deleted]).toEqual([[], []]);
    expect(
      await failure(
        actAs(db, ed, (tx) =>
          tx.query("insert into personal_notes (user_id, note_id, tags) values ($1, $2, $3)", [
            mia.id,
            noteId,
            ["forged"],
          ]),
        ),
      ),
    ).toMatchObject({ code: "42501" });
    expect(await stored(noteId)).toMatchObject([{ user_id: mia.id, tags: ["mine"], text: "Mia's mnemonic" }]);
  });

  test("each member keeps their own row on the same note", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Clavicle", "Collar bone"));
    await save(mia, noteId, ["mia"], "Mia's");
    await save(ed, noteId, ["ed"], "Ed's");
    expect(await readAs(mia, noteId)).toMatchObject([{ tags: ["mia"], text: "Mia's" }]);
    expect(await readAs(ed, noteId)).toMatchObject([{ tags: ["ed"], text: "Ed's" }]);
  });
});

describe("a personal note outlives changes to the note", () => {
  test("an editor's change of the note's fields and tags leaves it as it was", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Sternum", "Breast bone", ["bones"]));
    await save(mia, noteId, ["hard"], "Sword-shaped");
    await actAs(db, ed, (tx) =>
      tx.query("update notes set fields = $2, tags = $3 where id = $1", [
        noteId,
        JSON.stringify({ front: "Sternum (edited)", back: "Breastbone" }),
        ["bones", "axial"],
      ]),
    );
    expect(await readAs(mia, noteId)).toMatchObject([{ tags: ["hard"], text: "Sword-shaped" }]);
  });

  test("moving the note takes it to the note's new deck", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Humerus", "Upper arm bone"));
    await save(mia, noteId, ["hard"], "Funny bone");
    await actAs(db, olga, (tx) =>
      tx.query("select move_notes(p_note_ids => $1, p_deck_id => $2)", [[noteId], otherDeck]),
    );
    expect(await readAs(mia, noteId)).toMatchObject([{ deck_id: otherDeck, tags: ["hard"], text: "Funny bone" }]);
  });

  test("a member who leaves keeps it unseen, and reads it again on rejoining", async () => {
    const leaver = await createUser(db);
    await addMember(db, olga, deck, leaver, "viewer");
    const { noteId } = await addNote(db, olga, deck, basic("Pelvis", "Hip bones"));
    await save(leaver, noteId, ["mine"], "Basin");
    await actAs(db, leaver, (tx) =>
      tx.query("delete from deck_members where deck_id = $1 and user_id = $2", [deck, leaver.id]),
    );
    expect(await readAs(leaver, noteId)).toEqual([]);
    expect(await failure(save(leaver, noteId, ["again"], ""))).toMatchObject({ code: "PT404" });
    await addMember(db, olga, deck, leaver, "viewer");
    expect(await readAs(leaver, noteId)).toMatchObject([{ tags: ["mine"], text: "Basin" }]);
  });

  test("deleting the note deletes it", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Coccyx", "Tail bone"));
    await save(mia, noteId, ["gone"], "");
    await actAs(db, olga, (tx) => tx.query("delete from notes where id = $1", [noteId]));
    expect(await stored(noteId)).toEqual([]);
  });
});

describe("a note's computed fields my_tags and tags_with_mine", () => {
  test("give the caller's own tags alone and after the note's, and none to others or a signed-out visitor", async () => {
    const open = await createDeck(db, olga, { name: "Open anatomy" });
    await db.query("update decks set is_public = true where id = $1", [open]);
    const { noteId } = await addNote(db, olga, open, basic("Hyoid", "Floating bone", ["neck"]));
    await save(mia, noteId, ["odd"], "");
    const tagsAs = (user: Actor) =>
      actAs(db, user, (tx) =>
        tx.query<{ mine: string[]; all: string[] }>(
          "select my_tags(n) as mine, tags_with_mine(n) as all from notes n where n.id = $1",
          [noteId],
        ),
      );
    expect(await tagsAs(mia)).toEqual([{ mine: ["odd"], all: ["neck", "odd"] }]);
    expect(await tagsAs(olga)).toEqual([{ mine: [], all: ["neck"] }]);
    expect(await tagsAs(anon)).toEqual([{ mine: [], all: ["neck"] }]);
  });
});

describe("deleting and restoring the note", () => {
  test("a restored note brings back every member's personal note on it", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Talus", "Ankle bone"));
    await save(mia, noteId, ["ankle"], "Talus takes the weight");
    await save(ed, noteId, ["ed"], "");
    await actAs(db, olga, (tx) => tx.query("delete from notes where id = $1", [noteId]));
    expect(await stored(noteId)).toEqual([]);
    await actAs(db, olga, (tx) => tx.query("select restore_notes(p_note_ids => $1)", [[noteId]]));
    expect(await readAs(mia, noteId)).toMatchObject([
      { deck_id: deck, tags: ["ankle"], text: "Talus takes the weight" },
    ]);
    expect(await readAs(ed, noteId)).toMatchObject([{ tags: ["ed"], text: "" }]);
    expect(await db.query("select 1 from private.deleted_personal_notes where note_id = $1", [noteId])).toEqual([]);
  });
});

describe("copying a deck", () => {
  test("the copier's personal notes come along on the copied notes, and nobody else's", async () => {
    const source = await createDeck(db, olga, { name: "Skull" });
    await addMember(db, olga, source, mia, "viewer");
    await addMember(db, olga, source, ed, "editor");
    const { noteId } = await addNote(db, olga, source, basic("Mandible", "Jaw bone"));
    const { noteId: bare } = await addNote(db, olga, source, basic("Maxilla", "Upper jaw"));
    await save(mia, noteId, ["jaw"], "Chewing");
    await save(ed, noteId, ["ed-only"], "Ed's");

    const [{ copy } = { copy: "" }] = await actAs(db, mia, (tx) =>
      tx.query<{ copy: string }>("select clone_deck(p_deck_id => $1) as copy", [source]),
    );
    const copied = await actAs(db, mia, (tx) =>
      tx.query<PersonalRow & { front: string }>(
        `select p.user_id, p.deck_id, p.tags, p.text, n.fields ->> 'front' as front
         from personal_notes p join notes n on n.id = p.note_id where p.deck_id = $1`,
        [copy],
      ),
    );
    expect(copied).toEqual([{ user_id: mia.id, deck_id: copy, tags: ["jaw"], text: "Chewing", front: "Mandible" }]);
    expect(await db.query("select 1 from personal_notes where deck_id = $1 and user_id <> $2", [copy, mia.id])).toEqual(
      [],
    );
    // The source keeps its rows.
    expect((await stored(noteId)).map((row) => row.tags)).toHaveLength(2);
    expect(await stored(bare)).toEqual([]);
  });
});

describe("live updates", () => {
  test("a save is announced on the user's own topic only, naming the note", async () => {
    const { noteId } = await addNote(db, olga, deck, basic("Vertebra", "Back bone"));
    const topics = [`user:${mia.id}`, `user:${olga.id}`, `deck:${deck}`];
    const read = () =>
      db.query<{ topic: string; payload: { table: string; type: string; ids: string[] } }>(
        "select topic, payload from realtime.messages where topic = any($1) and payload ->> 'table' = 'personal_notes'",
        [topics],
      );
    const before = (await read()).length;
    await save(mia, noteId, ["spine"], "");
    const sent = (await read()).slice(before);
    expect(sent.map(({ topic, payload }) => ({ topic, type: payload.type, ids: payload.ids }))).toEqual([
      { topic: `user:${mia.id}`, type: "insert", ids: [noteId] },
    ]);
  });
});
