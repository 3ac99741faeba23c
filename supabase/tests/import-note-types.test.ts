import { randomUUID } from "node:crypto";
import { cardOrdinals } from "@engram/core";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, createUser, openTestDatabase } from "./support/database.js";
import { failure, only, type User } from "./support/study-fixtures.js";

// Imports keep note types (docs/product.md §4): finish_import finds or creates the
// note types a package's custom notes use, in the import's deck, all or nothing.

let db: Database;
let alice: User;

beforeAll(async () => {
  db = await openTestDatabase();
  alice = await createUser(db, { displayName: "Alice" });
});
afterAll(() => db.close());

type Job = { id: string; deck_id: string | null; status: string; summary: Record<string, unknown> | null };

const vocabulary = {
  key: "1736000000201",
  name: "Vocabulary",
  kind: "standard",
  fields: ["Word", "Meaning", "Notes"],
  templates: [
    { name: "Recognise", front: "{{Word}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" },
    { name: "Recall", front: "{{#Meaning}}{{Meaning}}{{/Meaning}}", back: "{{FrontSide}}<hr id=answer>{{Word}}" },
  ],
  css: ".card { text-align: left; font-family: Arial }",
  source_id: 1736000000201,
};

const customNote = (guid: string, word: string, meaning: string, noteType = vocabulary.key) => ({
  guid,
  kind: "custom",
  note_type: noteType,
  fields: { Word: word, Meaning: meaning, Notes: "" },
  tags: [],
  cards: [{ ordinal: 1 }, { ordinal: 2 }],
});

/** Starts and stages an import as `user`; `finish` commits it. */
async function run(
  user: User,
  target: { deckId?: string; deckName?: string },
  payload: Record<string, unknown>,
  options: Record<string, unknown> = {},
) {
  const notes = payload.notes as unknown[];
  const job = await actAs(db, user, async (tx: Queryable) => {
    const started = only(
      await tx.query<Job>(
        `select * from start_import(p_job_id => $1, p_source => 'apkg', p_total => $2, p_deck_id => $3,
           p_deck_name => $4, p_options => $5)`,
        [
          randomUUID(),
          notes.length,
          target.deckId ?? null,
          target.deckId ? null : (target.deckName ?? "Imported"),
          options,
        ],
      ),
      "job",
    );
    await tx.query("select stage_import(p_job_id => $1, p_batch => 0, p_payload => $2, p_processed => $3)", [
      started.id,
      JSON.stringify(payload),
      notes.length,
    ]);
    return started;
  });
  const finish = () =>
    actAs(db, user, async (tx: Queryable) =>
      only(await tx.query<Job>("select * from finish_import(p_job_id => $1)", [job.id]), "job"),
    );
  const abandon = () => actAs(db, user, (tx: Queryable) => tx.query("select abandon_import(p_job_id => $1)", [job.id]));
  return { job, finish, abandon };
}

async function importInto(target: { deckId?: string; deckName?: string }, payload: Record<string, unknown>) {
  return (await run(alice, target, payload)).finish();
}

const noteTypesOf = (deckId: string) =>
  db.query<{ name: string; kind: string; fields: string[]; templates: unknown; css: string; source_id: string }>(
    "select name, kind, fields, templates, css, source_id::text from note_types where deck_id = $1 order by name",
    [deckId],
  );

describe("finish_import and note types", () => {
  test("creates the note type its custom notes use, with their cards by the type's templates", async () => {
    const job = await importInto(
      { deckName: "Spanish" },
      {
        note_types: [vocabulary],
        notes: [customNote("g1", "la casa", "the house"), customNote("g2", "el duende", "")],
      },
    );
    const deckId = job.deck_id as string;
    expect(await noteTypesOf(deckId)).toEqual([
      {
        name: "Vocabulary",
        kind: "standard",
        fields: vocabulary.fields,
        templates: vocabulary.templates,
        css: vocabulary.css,
        source_id: "1736000000201",
      },
    ]);
    const notes = await db.query<{ source_guid: string; kind: string; type: string; ordinals: number[] }>(
      `select n.source_guid, n.kind, t.name as type, array(select ordinal from cards c where c.note_id = n.id order by 1) as ordinals
       from notes n join note_types t on t.id = n.note_type_id where n.deck_id = $1 order by n.source_guid`,
      [deckId],
    );
    // No meaning: the Recall front shows nothing, so that note has card 1 only, as in Anki.
    expect(notes).toEqual([
      { source_guid: "g1", kind: "custom", type: "Vocabulary", ordinals: [1, 2] },
      { source_guid: "g2", kind: "custom", type: "Vocabulary", ordinals: [1] },
    ]);
    expect(job.summary).toMatchObject({
      notes_added: 2,
      cards: 3,
      note_types: [{ name: "Vocabulary", created: true }],
    });
  });

  test("matches the same note type on a second import, creating none and no note twice", async () => {
    const payload = { note_types: [vocabulary], notes: [customNote("m1", "correr", "to run")] };
    const first = await importInto({ deckName: "Verbs" }, payload);
    const deckId = first.deck_id as string;
    const again = await importInto({ deckId }, payload);
    expect(again.summary).toMatchObject({ notes_added: 0, notes_skipped: 1, note_types: [{ created: false }] });
    expect(await noteTypesOf(deckId)).toHaveLength(1);
    // A renamed copy in the deck is found by Anki's id.
    await db.query("update note_types set name = 'Vocabulary (mine)' where deck_id = $1", [deckId]);
    const third = await importInto({ deckId }, { ...payload, notes: [customNote("m2", "comer", "to eat")] });
    expect(third.summary).toMatchObject({
      notes_added: 1,
      note_types: [{ name: "Vocabulary (mine)", created: false }],
    });
    expect((await noteTypesOf(deckId)).map((type) => type.name)).toEqual(["Vocabulary (mine)"]);
  });

  test("with the package's deck tree, notes in subdecks use the note type of the import's deck", async () => {
    const { finish } = await run(
      alice,
      { deckName: "Tree" },
      {
        note_types: [vocabulary],
        notes: [{ ...customNote("s1", "uno", "one"), deck: ["Numbers", "Small"] }],
      },
      { existing: "skip", deck_tree: true },
    );
    const job = await finish();
    const [note] = await db.query<{ deck: string; type_deck: string }>(
      `select d.name as deck, t.deck_id::text as type_deck from notes n join decks d on d.id = n.deck_id
       join note_types t on t.id = n.note_type_id where n.source_guid = 's1'`,
    );
    expect(note).toEqual({ deck: "Small", type_deck: job.deck_id });
  });

  test("a different note type of a taken name gets a name of its own", async () => {
    const first = await importInto(
      { deckName: "Two kinds" },
      { note_types: [vocabulary], notes: [customNote("t1", "a", "b")] },
    );
    const deckId = first.deck_id as string;
    const other = { ...vocabulary, key: "other", source_id: 99, css: ".card { color: red }" };
    const second = await importInto({ deckId }, { note_types: [other], notes: [customNote("t2", "c", "d", "other")] });
    expect(second.summary).toMatchObject({ note_types: [{ name: "Vocabulary (2)", created: true }] });
    expect((await noteTypesOf(deckId)).map((type) => [type.name, type.css])).toEqual([
      ["Vocabulary", vocabulary.css],
      ["Vocabulary (2)", other.css],
    ]);
  });

  test("a note type Engram cannot take fails the whole import, adding nothing", async () => {
    const broken = { ...vocabulary, templates: [{ name: "Card 1", front: "{{#Word}}{{Word}}", back: "" }] };
    const { job, finish, abandon } = await run(
      alice,
      { deckName: "Broken" },
      {
        note_types: [broken],
        notes: [customNote("b1", "x", "y")],
      },
    );
    const error = await failure(finish());
    expect(error).toMatchObject({ code: "22023", detail: "note_types" });
    expect(error.message).toContain("note type Vocabulary");
    expect(await noteTypesOf(job.deck_id as string)).toEqual([]);
    await abandon();
    expect(await db.query("select count(*)::int as n from notes where deck_id = $1", [job.deck_id])).toEqual([
      { n: 0 },
    ]);
  });

  test("a custom note naming a note type the import does not hold fails it, creating no note type", async () => {
    const { job, finish, abandon } = await run(
      alice,
      { deckName: "Unknown type" },
      {
        note_types: [vocabulary],
        notes: [customNote("u1", "x", "y"), customNote("u2", "x", "y", "missing")],
      },
    );
    const error = await failure(finish());
    expect(error).toMatchObject({
      code: "22023",
      detail: "notes",
      message: "note 2 (u2): its note type is not in the import",
    });
    expect(await noteTypesOf(job.deck_id as string)).toEqual([]);
    await abandon();
  });

  test("a custom note whose fields are not its type's fails the import", async () => {
    const { job, finish, abandon } = await run(
      alice,
      { deckName: "Wrong fields" },
      {
        note_types: [vocabulary],
        notes: [{ ...customNote("w1", "x", "y"), fields: { Word: "x" } }],
      },
    );
    const error = await failure(finish());
    expect(error.code).toBe("22023");
    expect(await noteTypesOf(job.deck_id as string)).toEqual([]);
    await abandon();
  });
});

describe("finish_import and empty backs", () => {
  test("takes basic notes with an empty back; a reversed one has only its first card", async () => {
    const job = await importInto(
      { deckName: "Empty backs" },
      {
        notes: [
          { guid: "e1", kind: "basic", fields: { front: "Front only", back: "" }, tags: [] },
          { guid: "e2", kind: "basic_reversed", fields: { front: "Reversed", back: "<br>" }, tags: [] },
          { guid: "e3", kind: "basic_reversed", fields: { front: "Both", back: "ways" }, tags: [] },
        ],
      },
    );
    expect(
      await db.query<{ source_guid: string; ordinals: number[] }>(
        `select n.source_guid, array(select ordinal from cards c where c.note_id = n.id order by 1) as ordinals
         from notes n where n.deck_id = $1 order by n.source_guid`,
        [job.deck_id],
      ),
    ).toEqual([
      { source_guid: "e1", ordinals: [1] },
      { source_guid: "e2", ordinals: [1] },
      { source_guid: "e3", ordinals: [1, 2] },
    ]);
  });

  test("a reversed note's cards are core's cardOrdinals: card 2 only when the back is not empty by Anki's rule", async () => {
    const backs = ["", " ", "<br>", "<div><br /></div>", "&nbsp;", "<b></b>", "x", "\n<br>\t"];
    for (const back of backs) {
      const [sql] = await db.query<{ value: number[] }>("select private.note_ordinals('basic_reversed', $1) as value", [
        { front: "f", back },
      ]);
      expect(sql?.value, JSON.stringify(back)).toEqual(
        cardOrdinals({ kind: "basic_reversed", fields: { front: "f", back } }),
      );
    }
  });
});
