import { parseSearch } from "@engram/core";
import type { Database } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import {
  type AddedNote,
  addMember,
  basic,
  cloze,
  createDeck,
  failure,
  insertLog,
  insertNote,
  only,
  reversed,
  reviewDue,
  setState,
  typeIn,
  type User,
} from "./support/study-fixtures.js";

// search_notes (docs/product.md §3, "Search"): Anki's search syntax, parsed by
// @engram/core and evaluated by the database with the caller's rights. Every
// expected count below is counted by hand from the notes seeded here.

let db: Database;
let olga: User; // owns the decks
let ed: User; // edits Biology and studies it on his own schedules
let biology: string;
let cells: string; // Biology::Cells
let notes: Record<string, AddedNote>;
const fillers = 14;

const day = 86_400_000;
const daysFromNow = (days: number) => new Date(Date.now() + days * day).toISOString();

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed] = await Promise.all([createUser(db, { displayName: "Olga" }), createUser(db, { displayName: "Ed" })]);
  biology = await createDeck(db, olga, { name: "Biology" });
  await addMember(db, olga, biology, ed, "editor");
  notes = await actAs(db, olga, async (tx) => {
    cells = only(
      await tx.query<{ id: string }>("insert into decks (name, parent_id) values ('Cells', $1) returning id", [
        biology,
      ]),
    ).id;
    const type = only(
      await tx.query<{ id: string }>(
        `insert into note_types (deck_id, name, kind, fields, templates)
         values ($1, 'Vocabulary', 'standard', '{Word,Meaning}', $2) returning id`,
        [biology, JSON.stringify([{ name: "Recognise", front: "{{Word}}", back: "{{Meaning}}" }])],
      ),
    ).id;
    const custom = async (word: string, meaning: string) => {
      const { id } = only(
        await tx.query<{ id: string }>(
          "insert into notes (deck_id, kind, note_type_id, fields) values ($1, 'custom', $2, $3) returning id",
          [biology, type, JSON.stringify({ Word: word, Meaning: meaning })],
        ),
      );
      const cards = await tx.query<{ id: string }>("select id from cards where note_id = $1", [id]);
      return { noteId: id, cardIds: cards.map((card) => card.id) };
    };
    const added: Record<string, AddedNote> = {
      mitochondria: await insertNote(
        tx,
        biology,
        basic("Mitochondria", "Powerhouse of the <b>cell</b>", ["biology::cells"]),
      ),
      mtDna: await insertNote(
        tx,
        biology,
        basic("mitochondrial DNA", "Inherited from the mother", ["biology::genetics"]),
      ),
      atp: await insertNote(tx, biology, cloze("The {{c1::mitochondrion}} makes <i>ATP</i>", "", ["biology"])),
      osmosis: await insertNote(tx, biology, basic("Osmosis", "Water moves across a membrane", ["biology::cells"])),
      dog: await insertNote(tx, biology, basic("dog", "perro", ["spanish"])),
      dig: await insertNote(tx, biology, basic("dig", "cavar", ["spanish::verbs"])),
      dug: await insertNote(tx, biology, basic("dug", "excavado")),
      cat: await insertNote(tx, biology, reversed("gato", "cat", ["Spanish"])),
      house: await insertNote(tx, biology, typeIn("house", "casa", ["spanish"])),
      phrase: await insertNote(tx, biology, basic("a phrase&nbsp;with spaces", "x")),
      doggy: await insertNote(tx, biology, basic("doggy bag", "bolsa")),
      hotDog: await insertNote(tx, biology, basic("hot dog", "perrito caliente")),
      maison: await custom("maison", "house"),
      chien: await custom("chien", "dog"),
      percent: await insertNote(tx, biology, basic("50% off", "discount")),
      underscore: await insertNote(tx, biology, basic("under_score", "x")),
      ribosome: await insertNote(tx, cells, basic("ribosome", "makes proteins", ["biology::cells"])),
      nucleus: await insertNote(tx, cells, basic("nucleus", "holds DNA")),
    };
    for (let i = 1; i <= fillers; i++)
      added[`filler${i}`] = await insertNote(tx, biology, basic(`filler ${i}`, "nothing"));
    return added;
  });

  const card = (name: string, ordinal = 1) => only([notes[name]?.cardIds[ordinal - 1] ?? ""]);
  // Olga's schedules.
  await setState(db, olga.id, card("mitochondria"), reviewDue(daysFromNow(-1)));
  await setState(db, olga.id, card("mtDna"), { state: "learning", due: daysFromNow(0), difficulty: 5, stability: 1 });
  await setState(db, olga.id, card("osmosis"), {
    ...reviewDue(daysFromNow(10)),
    scheduled_days: 20,
    lapses: 5,
    difficulty: 9.1,
  });
  await setState(db, olga.id, card("dog"), { suspended: true });
  await setState(db, olga.id, card("dig"), { buried_until: daysFromNow(1) });
  await setState(db, olga.id, card("dug"), { flag: 1 });
  await setState(db, olga.id, card("cat", 2), { ...reviewDue(daysFromNow(2)), scheduled_days: 5 });
  // Ed's own schedules, which never show in Olga's searches.
  await setState(db, ed.id, card("phrase"), { ...reviewDue(daysFromNow(-3)), suspended: true, lapses: 9, flag: 1 });
  // Answers: Olga's (an Again two days ago, a first Good today, one long ago), Ed's today.
  await insertLog(db, {
    userId: olga.id,
    cardId: card("mitochondria"),
    rating: 1,
    state: "review",
    reviewedAt: daysFromNow(-2),
  });
  await insertLog(db, { userId: olga.id, cardId: card("dug"), rating: 3, state: "new", reviewedAt: daysFromNow(0) });
  await insertLog(db, {
    userId: olga.id,
    cardId: card("osmosis"),
    rating: 3,
    state: "review",
    reviewedAt: daysFromNow(-30),
  });
  await insertLog(db, { userId: ed.id, cardId: card("phrase"), rating: 3, state: "new", reviewedAt: daysFromNow(0) });
  // Every note added and edited 60 days ago, but the mitochondria (added and edited now) and mtDNA (edited 2 days ago).
  await db.exec("alter table notes disable trigger user");
  await db.query(
    `update notes set created_at = now() - interval '60 days',
       updated_at = case when id = $2 then now() - interval '2 days' else now() - interval '60 days' end
     where id <> $1`,
    [notes.mitochondria?.noteId, notes.mtDna?.noteId],
  );
  await db.exec("alter table notes enable trigger user");
});
afterAll(() => db.close());

const inBiology = 16 + fillers;

/** The notes a search finds for `user`, in Biology (or every deck they read, for null). */
async function search(query: string, user: User = olga, deckId: string | null = biology): Promise<string[]> {
  const rows = await actAs(db, user, (tx) =>
    tx.query<{ id: string }>("select id from search_notes($1, $2)", [deckId, JSON.stringify(parseSearch(query))]),
  );
  return rows.map((row) => row.id);
}
const count = async (query: string, user?: User, deckId?: string | null) => (await search(query, user, deckId)).length;
const ids = (...names: string[]) => names.map((name) => notes[name]?.noteId).sort();

describe("text", () => {
  test.each([
    ["mito", 3],
    ["mitochondri", 3],
    ["mito*", 3],
    ["MITO", 3],
    ["osmo", 1],
    ["d_g", 6],
    ['"a phrase with"', 1],
    ["phrase spaces", 1],
    ["mito -dna", 2],
    ["dog or cat", 5],
    ["(dog or dig) tag:spanish", 2],
    ["-(dog or cat) -filler", 11],
    ["cell", 1],
    ["50%", 1],
    ["under_score", 1],
    ["under\\_score", 1],
    ["atp", 1],
    ["powerhouse", 1],
    ["<b>", 0],
  ])("%s finds %i", async (query, expected) => {
    expect(await count(query)).toBe(expected);
  });

  test("matches anywhere in a field, ignoring case and markup", async () => {
    expect((await search("mito")).sort()).toEqual(ids("mitochondria", "mtDna", "atp"));
    expect((await search("celL")).sort()).toEqual(ids("mitochondria"));
  });

  test("w: a whole word", async () => {
    expect((await search("w:dog")).sort()).toEqual(ids("dog", "hotDog", "chien"));
    expect(await count("w:mito")).toBe(0);
    expect(await count("w:mito*")).toBe(3);
  });

  test("re: a regular expression, ignoring case unless (?-i)", async () => {
    expect(await search("re:mito.*atp")).toEqual(ids("atp"));
    expect(await count('"re:^filler \\d+"')).toBe(fillers);
    expect(await count('"re:(?-i)Osmosis"')).toBe(1);
    expect(await count('"re:(?-i)osmosis"')).toBe(0);
    expect(await count("front:re:^d.g$")).toBe(3);
  });
});

describe("fields", () => {
  test.each([
    ["front:dog", 1],
    ["front:*dog*", 3],
    ["Front:DOG", 1],
    ["back:perro", 1],
    ["text:*mitochondrion*", 1],
    ["word:chien", 1],
    ["meaning:house", 1],
    ["meaning:*", 2],
    ["w*:maison", 1],
    ["front:", 0],
  ])("%s finds %i", async (query, expected) => {
    expect(await count(query)).toBe(expected);
  });
});

describe("tags, decks, note types and cards", () => {
  test.each([
    ["tag:spanish", 4],
    ["tag:biology", 4],
    ["tag:biology::*", 3],
    ["tag:biology::cells", 2],
    ["tag:spanish::verbs", 1],
    ["tag:span", 0],
    ["tag:span*", 4],
    ["tag:none", 8 + fillers],
    ["note:basic", 11 + fillers],
    ["note:vocabulary", 2],
    ["note:cloze", 1],
    ['"note:Basic (and reversed card)"', 1],
    ["card:2", 1],
    ['"card:card 2"', 1],
    ["card:recognise", 2],
    ["card:cloze", 1],
  ])("%s finds %i", async (query, expected) => {
    expect(await count(query)).toBe(expected);
  });

  test("tag: finds the user's own tags on a note too, and only theirs", async () => {
    await actAs(db, ed, (tx) =>
      tx.query("select save_personal_note($1, $2, '')", [notes.osmosis?.noteId, ["exam::week1"]]),
    );
    expect(await search("tag:exam", ed)).toEqual(ids("osmosis"));
    expect(await count("tag:exam")).toBe(0);
    expect(await count("tag:none", ed)).toBe(8 + fillers);
    await actAs(db, ed, (tx) => tx.query("select save_personal_note($1, '{}', '')", [notes.osmosis?.noteId]));
  });

  test("deck: by name or path, with its subdecks", async () => {
    expect(await count("deck:Biology", olga, null)).toBe(inBiology + 2);
    expect(await count("deck:Biology::Cells", olga, null)).toBe(2);
    expect(await count("deck:cells", olga, null)).toBe(2);
    expect(await count("deck:bio*", olga, null)).toBe(inBiology + 2);
    expect(await count("deck:biology -deck:biology::cells", olga, null)).toBe(inBiology);
    expect(await count("deck:Chemistry", olga, null)).toBe(0);
    expect(await count("ribosome")).toBe(0);
    expect(await count("ribosome", olga, cells)).toBe(1);
  });
});

describe("the caller's schedules", () => {
  test.each([
    ["is:new", inBiology - 3],
    ["is:review", 3],
    ["is:learn", 1],
    ["is:due", 2],
    ["is:suspended", 1],
    ["is:buried", 1],
    ["flag:1", 1],
    ["prop:ivl>10", 2],
    ["prop:due<3", 3],
    ["prop:due=-1", 1],
    ["prop:lapses>3", 1],
    ["prop:d>0.8", 1],
    ["prop:s>=12.5", 3],
    ["prop:r<1", 3],
    ["prop:reps>0", 3],
  ])("%s finds %i", async (query, expected) => {
    expect(await count(query)).toBe(expected);
  });

  test("each match holds when any card of the note matches", async () => {
    expect(await search("is:review is:new")).toEqual(ids("cat"));
    expect(await search("card:2 prop:ivl=5")).toEqual(ids("cat"));
  });

  test("another member's schedules never show", async () => {
    expect(await search("is:suspended")).toEqual(ids("dog"));
    expect(await search("is:suspended", ed)).toEqual(ids("phrase"));
    expect(await search("prop:lapses>3", ed)).toEqual(ids("phrase"));
    expect(await search("flag:1", ed)).toEqual(ids("phrase"));
    expect(await count("is:new", ed)).toBe(inBiology - 1);
  });
});

describe("answers and dates, in the caller's study days", () => {
  test.each([
    ["rated:7", 2],
    ["rated:7:1", 1],
    ["rated:7:4", 0],
    ["rated:1", 1],
    ["rated:365", 3],
    ["added:30", 1],
    ["added:90", inBiology],
    ["edited:7", 2],
    ["edited:1", 1],
    ["introduced:1", 1],
    ["introduced:3", 2],
  ])("%s finds %i", async (query, expected) => {
    expect(await count(query)).toBe(expected);
  });

  test("rated: and introduced: read only the caller's answers", async () => {
    expect(await search("rated:1", ed)).toEqual(ids("phrase"));
    expect(await search("introduced:1")).toEqual(ids("dug"));
  });
});

describe("ids", () => {
  test("nid: and cid:", async () => {
    expect((await search(`nid:${notes.dog?.noteId},${notes.cat?.noteId}`)).sort()).toEqual(ids("dog", "cat"));
    expect(await search(`cid:${notes.cat?.cardIds[1]}`)).toEqual(ids("cat"));
  });
});

describe("refused", () => {
  const call = (query: unknown, user: User = olga) =>
    failure(actAs(db, user, (tx) => tx.query("select id from search_notes($1, $2)", [biology, JSON.stringify(query)])));
  const deep = (depth: number): unknown =>
    depth === 0 ? { op: "text", like: "%a%" } : { op: "not", node: deep(depth - 1) };

  test.each([
    ["an unknown op", { op: "bogus" }],
    ["a missing value", { op: "text" }],
    ["a value of the wrong type", { op: "text", like: 5 }],
    ["an extra key", { op: "text", like: "%a%", sql: "1=1" }],
    ["a pattern ending in a lone escape", { op: "text", like: "a\\" }],
    ["text over 1,000 characters", { op: "text", like: "a".repeat(1001) }],
    ["more than 20 deep", deep(20)],
    ["more than 100 parts", { op: "or", nodes: Array.from({ length: 101 }, () => ({ op: "text", like: "a" })) }],
    ["an unknown state", { op: "is", state: "lost" }],
    ["a flag out of range", { op: "flag", flag: 8 }],
    ["a fractional ordinal", { op: "card", ordinal: 1.5 }],
    ["a property value as text", { op: "prop", prop: "ivl", cmp: ">", value: "1" }],
    ["an unknown comparison", { op: "prop", prop: "ivl", cmp: "~", value: 1 }],
    ["an id that is not one", { op: "nid", ids: ["1 or 1=1"] }],
    ["not an object", ["text"]],
  ])("%s (22023)", async (_, query) => {
    expect(await call(query)).toMatchObject({ code: "22023" });
  });

  test("a tree 20 deep is fine", async () => {
    const rows = await actAs(db, olga, (tx) =>
      tx.query("select id from search_notes($1, $2)", [biology, JSON.stringify(deep(19))]),
    );
    expect(rows.length).toBeGreaterThan(0);
  });

  test.each([["(a+)+"], ["(a|a?){20}"], ["((ab)*c)*"], ["(x+x+)+y"], ["(a)\\1"], ["a".repeat(201)]])(
    "a costly regular expression %s (2201B)",
    async (regex) => {
      expect(await call({ op: "regex", regex })).toMatchObject({
        code: "2201B",
        message: expect.stringMatching(/too complex/),
      });
    },
  );

  test("an invalid regular expression (2201B)", async () => {
    expect(await call({ op: "regex", regex: "(" })).toMatchObject({ code: "2201B" });
  });

  test("harmless repetition passes", async () => {
    expect(await count('"re:(zq)+j|[q+]+z|(?:xq|yq)+w|q{2,3}"')).toBe(0);
  });
});

describe("plain text", () => {
  test("follows edits and leaves the version alone otherwise", async () => {
    const note = await actAs(db, olga, (tx) => insertNote(tx, biology, basic("Chloroplast", "green")));
    expect(await count("chloro")).toBe(1);
    await actAs(db, olga, (tx) =>
      tx.query("update notes set fields = $2, version = version where id = $1", [
        note.noteId,
        JSON.stringify({ front: "Plastid", back: "green" }),
      ]),
    );
    expect(await count("chloro")).toBe(0);
    expect(await count("plastid")).toBe(1);
    await actAs(db, olga, (tx) => tx.query("delete from notes where id = $1", [note.noteId]));
  });
});
