import { builtInNoteTypes, cardOrdinals, type NoteType } from "@engram/core";
import type { Database, Queryable } from "@engram/local-stack";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { actAs, anon, createUser, openTestDatabase } from "./support/database.js";
import { addMember, createDeck, failure, only, type User } from "./support/study-fixtures.js";

// Note types (docs/product.md §3): a deck's own Anki-style note types, the
// custom notes built from them and the cards their templates make.

let db: Database;
let olga: User; // owns the deck
let ed: User; // edits it
let vic: User; // views it
let stranger: User;
let deck: string;

const vocabulary: NoteType = {
  name: "Vocabulary",
  kind: "standard",
  fields: ["Word", "Meaning", "Reverse"],
  templates: [
    { name: "Recognise", front: "{{Word}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" },
    { name: "Recall", front: "{{#Reverse}}{{Meaning}}{{/Reverse}}", back: "{{FrontSide}}<hr id=answer>{{Word}}" },
  ],
  css: ".card { color: navy; }",
};

beforeAll(async () => {
  db = await openTestDatabase();
  [olga, ed, vic, stranger] = await Promise.all([
    createUser(db, { displayName: "Olga" }),
    createUser(db, { displayName: "Ed" }),
    createUser(db, { displayName: "Vic" }),
    createUser(db, { displayName: "Stranger" }),
  ]);
  deck = await createDeck(db, olga, { name: "Types" });
  await addMember(db, olga, deck, ed, "editor");
  await addMember(db, olga, deck, vic, "viewer");
});
afterAll(() => db.close());

type TypeRow = { id: string; version: number };

function insertType(tx: Queryable, deckId: string, type: NoteType): Promise<TypeRow> {
  return tx
    .query<TypeRow>(
      "insert into note_types (deck_id, name, kind, fields, templates, css) values ($1, $2, $3, $4, $5, $6) returning id, version",
      [deckId, type.name, type.kind, type.fields, JSON.stringify(type.templates), type.css],
    )
    .then((rows) => only(rows, "note type"));
}

async function addType(user: User, type: NoteType, deckId = deck): Promise<TypeRow> {
  return actAs(db, user, (tx) => insertType(tx, deckId, type));
}

async function addCustomNote(
  user: User,
  typeId: string,
  fields: Record<string, string>,
  tags: string[] = [],
  deckId = deck,
) {
  const rows = await actAs(db, user, (tx) =>
    tx.query<{ id: string }>(
      "insert into notes (deck_id, kind, note_type_id, fields, tags) values ($1, 'custom', $2, $3, $4) returning id",
      [deckId, typeId, JSON.stringify(fields), tags],
    ),
  );
  return only(rows, "note").id;
}

const ordinalsOf = async (noteId: string) =>
  (await db.query<{ ordinal: number }>("select ordinal from cards where note_id = $1 order by ordinal", [noteId])).map(
    (row) => row.ordinal,
  );

interface UpdateOptions {
  deleteCards?: boolean;
  /** Each new field's old index, or null for a new field. */
  fieldMap?: (number | null)[];
  /** Each new template's old index, or null for a new template. */
  templateMap?: (number | null)[];
  discardText?: boolean;
}

function updateType(
  user: User,
  id: string,
  version: number,
  type: NoteType,
  options: UpdateOptions = {},
): Promise<{ version: number; fields: string[] }[]> {
  return actAs(db, user, (tx) =>
    tx.query(
      `select version, fields from update_note_type(p_note_type_id => $1, p_version => $2, p_name => $3, p_fields => $4,
         p_templates => $5, p_css => $6, p_delete_cards => $7, p_field_map => $8, p_template_map => $9,
         p_discard_text => $10)`,
      [
        id,
        version,
        type.name,
        type.fields,
        JSON.stringify(type.templates),
        type.css,
        options.deleteCards ?? false,
        options.fieldMap ?? null,
        options.templateMap ?? null,
        options.discardText ?? false,
      ],
    ),
  );
}

let counter = 0;
const named = (type: NoteType): NoteType => ({ ...type, name: `${type.name} ${++counter}` });

describe("who may read and write a deck's note types", () => {
  test("the owner and editors add them; viewers and strangers cannot", async () => {
    await addType(olga, named(vocabulary));
    await addType(ed, named(vocabulary));
    expect((await failure(addType(vic, named(vocabulary)))).code).toBe("42501");
    expect((await failure(addType(stranger, named(vocabulary)))).code).toBe("42501");
  });

  test("members read them; strangers and anonymous callers see none of a private deck's", async () => {
    const { id } = await addType(olga, named(vocabulary));
    const read = (actor: Parameters<typeof actAs>[1]) =>
      actAs(db, actor, (tx) => tx.query("select id from note_types where id = $1", [id]));
    expect(await read(vic)).toHaveLength(1);
    expect(await read(stranger)).toHaveLength(0);
    expect(await read(anon)).toHaveLength(0);
  });

  test("viewers cannot delete or change them", async () => {
    const { id, version } = await addType(olga, named(vocabulary));
    const deleted = await actAs(db, vic, (tx) => tx.query("delete from note_types where id = $1 returning id", [id]));
    expect(deleted).toHaveLength(0);
    expect((await failure(updateType(vic, id, version, named(vocabulary)))).code).toBe("42501");
    expect((await failure(updateType(stranger, id, version, named(vocabulary)))).code).toBe("PT404");
  });
});

describe("the rules a note type follows", () => {
  test.each<[string, Partial<NoteType>, string]>([
    ["a field name with a colon", { fields: ["Wo:rd", "Meaning", "Reverse"] }, "note_types_fields_valid"],
    ["a field name starting with #", { fields: ["#Word", "Meaning", "Reverse"] }, "note_types_fields_valid"],
    ["field names equal but for case", { fields: ["Word", "Meaning", "word"] }, "note_types_fields_valid"],
    ["no fields", { fields: [] }, "note_types_fields_valid"],
    ["a blank name", { name: " " }, "note_types_name_valid"],
    [
      "a front without a field",
      { templates: [{ name: "A", front: "text", back: "{{Word}}" }] },
      "note_types_templates_valid",
    ],
    ["an unknown field", { templates: [{ name: "A", front: "{{Nope}}", back: "" }] }, "note_types_templates_valid"],
    [
      "an unclosed section",
      { templates: [{ name: "A", front: "{{#Word}}{{Word}}", back: "" }] },
      "note_types_templates_valid",
    ],
    ["no templates", { templates: [] }, "note_types_templates_valid"],
    ["styling over 100,000 characters", { css: "x".repeat(100_001) }, "note_types_css_length"],
  ])("refuses %s", async (_, patch, constraint) => {
    const error = await failure(addType(olga, { ...named(vocabulary), ...patch }));
    expect(error).toMatchObject({ code: "23514", constraint });
  });

  test("refuses a cloze type with two templates or none through cloze:", async () => {
    const cloze = builtInNoteTypes.cloze;
    const twice = { ...named(cloze), templates: [...cloze.templates, { ...cloze.templates[0], name: "Again" }] };
    expect((await failure(addType(olga, twice as NoteType))).constraint).toBe("note_types_templates_valid");
    const plain = { ...named(cloze), templates: [{ name: "C", front: "{{Text}}", back: "{{Text}}" }] };
    expect((await failure(addType(olga, plain as NoteType))).constraint).toBe("note_types_templates_valid");
  });

  test("accepts Anki's stock note types", async () => {
    for (const type of Object.values(builtInNoteTypes)) await addType(olga, named(type as NoteType));
  });

  test("names are unique within a deck", async () => {
    const type = named(vocabulary);
    await addType(olga, type);
    expect((await failure(addType(olga, type))).code).toBe("23505");
  });
});

describe("custom notes", () => {
  test("make the cards their type's templates make, and follow edits", async () => {
    const { id } = await addType(olga, named(vocabulary));
    const note = await addCustomNote(olga, id, { Word: "perro", Meaning: "dog", Reverse: "" });
    expect(await ordinalsOf(note)).toEqual([1]);
    await actAs(db, ed, (tx) =>
      tx.query("update notes set fields = $2 where id = $1", [
        note,
        JSON.stringify({ Word: "perro", Meaning: "dog", Reverse: "y" }),
      ]),
    );
    expect(await ordinalsOf(note)).toEqual([1, 2]);
  });

  test("have exactly their type's fields, as text", async () => {
    const { id } = await addType(olga, named(vocabulary));
    for (const fields of [
      { Word: "a", Meaning: "b" },
      { Word: "a", Meaning: "b", Reverse: "", Extra: "" },
      { Word: 1, Meaning: "b", Reverse: "" },
    ]) {
      const error = await failure(addCustomNote(olga, id, fields as Record<string, string>));
      expect(error).toMatchObject({ code: "22023", detail: "fields" });
    }
    const long = await failure(addCustomNote(olga, id, { Word: "x".repeat(20_001), Meaning: "b", Reverse: "" }));
    expect(long).toMatchObject({ code: "22023", detail: "fields" });
  });

  test("need a note type of their own deck, and only custom notes have one", async () => {
    const otherDeck = await createDeck(db, olga, { name: "Elsewhere" });
    const foreign = await addType(olga, named(vocabulary), otherDeck);
    const error = await failure(addCustomNote(olga, foreign.id, { Word: "a", Meaning: "b", Reverse: "" }));
    expect(error).toMatchObject({ code: "22023", detail: "note_type_id" });
    const { id } = await addType(olga, named(vocabulary));
    const basicWithType = await failure(
      actAs(db, olga, (tx) =>
        tx.query("insert into notes (deck_id, kind, note_type_id, fields) values ($1, 'basic', $2, $3)", [
          deck,
          id,
          JSON.stringify({ front: "f", back: "b" }),
        ]),
      ),
    );
    expect(basicWithType.constraint).toBe("notes_note_type_kind");
    const customWithout = await failure(
      actAs(db, olga, (tx) =>
        tx.query("insert into notes (deck_id, kind, fields) values ($1, 'custom', $2)", [
          deck,
          JSON.stringify({ Word: "a" }),
        ]),
      ),
    );
    expect(customWithout).toMatchObject({ code: "22023", detail: "note_type_id" });
  });

  test("are found by the text of any field", async () => {
    const { id } = await addType(olga, named(vocabulary));
    const note = await addCustomNote(olga, id, { Word: "murciélago", Meaning: "<b>bat</b>", Reverse: "" });
    const found = await db.query<{ id: string }>("select id from notes where search @@ to_tsquery('simple', 'bat')");
    expect(found.map((row) => row.id)).toContain(note);
  });
});

describe("changing a note type", () => {
  test("adds the cards a new template makes and bumps the version", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    const note = await addCustomNote(olga, id, { Word: "gato", Meaning: "cat", Reverse: "" });
    const third = { name: "Spell", front: "{{Meaning}}", back: "{{Word}}" };
    const [updated] = await updateType(ed, id, version, { ...type, templates: [...type.templates, third] });
    expect(updated?.version).toBe(version + 1);
    expect(await ordinalsOf(note)).toEqual([1, 3]);
  });

  test("refuses a stale version, changing nothing", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    await updateType(olga, id, version, { ...type, css: "a {}" });
    const error = await failure(updateType(ed, id, version, { ...type, css: "b {}" }));
    expect(error).toMatchObject({ code: "PT412" });
    expect(JSON.parse(error.detail ?? "")).toEqual({ version: version + 1 });
    const [row] = await db.query<{ css: string }>("select css from note_types where id = $1", [id]);
    expect(row?.css).toBe("a {}");
  });

  test("deletes cards a removed template made only when asked to", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    const note = await addCustomNote(olga, id, { Word: "uno", Meaning: "one", Reverse: "y" });
    const onlyFirst = { ...type, templates: [type.templates[0] as NoteType["templates"][number]] };
    const refused = await failure(updateType(olga, id, version, onlyFirst));
    expect(refused).toMatchObject({ code: "PT409" });
    expect(JSON.parse(refused.detail ?? "")).toEqual({ cards: 1, schedules: 0 });
    expect(await ordinalsOf(note)).toEqual([1, 2]);
    await updateType(olga, id, version, onlyFirst, { deleteCards: true });
    expect(await ordinalsOf(note)).toEqual([1]);
  });

  test("gives notes a new field empty, and refuses to drop a field that holds text", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    const note = await addCustomNote(olga, id, { Word: "dos", Meaning: "two", Reverse: "" });
    const [v2] = await updateType(olga, id, version, { ...type, fields: [...type.fields, "Example"] });
    const [row] = await db.query<{ fields: Record<string, string> }>("select fields from notes where id = $1", [note]);
    expect(row?.fields).toEqual({ Word: "dos", Meaning: "two", Reverse: "", Example: "" });
    const withoutMeaning = {
      ...type,
      fields: ["Word", "Reverse"],
      templates: [{ name: "Recognise", front: "{{Word}}", back: "{{Word}}" }],
    };
    const refused = await failure(updateType(olga, id, v2?.version ?? 0, withoutMeaning, { deleteCards: true }));
    expect(refused).toMatchObject({ code: "PT409" });
    expect(JSON.parse(refused.detail ?? "")).toEqual({ field: "Meaning", notes: 1 });
  });
});

describe("changing a note type as Anki's Fields and Cards dialogs do", () => {
  const fieldsOf = async (noteId: string) =>
    (await db.query<{ fields: Record<string, string> }>("select fields from notes where id = $1", [noteId]))[0]?.fields;
  const cardsOf = async (noteId: string) =>
    db.query<{ id: string; ordinal: number }>("select id, ordinal from cards where note_id = $1 order by ordinal", [
      noteId,
    ]);
  /** Marks a card studied by the owner: a schedule that must survive (or be counted when lost). */
  const study = (cardId: string, stability: number) =>
    db.query("update card_states set state = 'review', stability = $2, reps = 3 where card_id = $1 and user_id = $3", [
      cardId,
      stability,
      olga.id,
    ]);
  const stabilityOf = async (cardId: string) =>
    (
      await db.query<{ stability: number }>("select stability from card_states where card_id = $1 and user_id = $2", [
        cardId,
        olga.id,
      ])
    )[0]?.stability;

  test("a renamed field keeps its text in every note, and its place in the templates", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    const note = await addCustomNote(olga, id, { Word: "cuatro", Meaning: "four", Reverse: "y" });
    const before = await cardsOf(note);
    const renamed: NoteType = {
      ...type,
      fields: ["Term", "Meaning", "Reverse"],
      templates: [
        { name: "Recognise", front: "{{Term}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" },
        { name: "Recall", front: "{{#Reverse}}{{Meaning}}{{/Reverse}}", back: "{{FrontSide}}<hr id=answer>{{Term}}" },
      ],
    };
    const [saved] = await updateType(olga, id, version, renamed, { fieldMap: [0, 1, 2], templateMap: [0, 1] });
    expect(saved?.fields).toEqual(["Term", "Meaning", "Reverse"]);
    expect(await fieldsOf(note)).toEqual({ Term: "cuatro", Meaning: "four", Reverse: "y" });
    expect(await cardsOf(note)).toEqual(before);
  });

  test("reordered fields keep their text; a new one is empty; a dropped one with text needs consent", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    const note = await addCustomNote(olga, id, { Word: "cinco", Meaning: "five", Reverse: "" });
    const [v2] = await updateType(
      olga,
      id,
      version,
      { ...type, fields: ["Meaning", "Extra", "Word", "Reverse"] },
      { fieldMap: [1, null, 0, 2] },
    );
    expect(await fieldsOf(note)).toEqual({ Meaning: "five", Extra: "", Word: "cinco", Reverse: "" });
    const noMeaning: NoteType = {
      ...type,
      fields: ["Word", "Reverse"],
      templates: [{ name: "Recognise", front: "{{Word}}", back: "{{Word}}" }],
    };
    const options = { fieldMap: [2, 3], templateMap: [0], deleteCards: true };
    const refused = await failure(updateType(olga, id, v2?.version ?? 0, noMeaning, options));
    expect(refused).toMatchObject({ code: "PT409" });
    expect(JSON.parse(refused.detail ?? "")).toEqual({ field: "Meaning", notes: 1 });
    expect(await fieldsOf(note)).toEqual({ Meaning: "five", Extra: "", Word: "cinco", Reverse: "" });
    await updateType(olga, id, v2?.version ?? 0, noMeaning, { ...options, discardText: true });
    expect(await fieldsOf(note)).toEqual({ Word: "cinco", Reverse: "" });
  });

  test("reordered templates keep each card and its schedule", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    const note = await addCustomNote(olga, id, { Word: "seis", Meaning: "six", Reverse: "y" });
    const [first, second] = await cardsOf(note);
    await study(first?.id ?? "", 11);
    await study(second?.id ?? "", 22);
    const swapped = { ...type, templates: [type.templates[1], type.templates[0]] as NoteType["templates"] };
    await updateType(olga, id, version, swapped, { templateMap: [1, 0] });
    expect(await cardsOf(note)).toEqual([
      { id: second?.id, ordinal: 1 },
      { id: first?.id, ordinal: 2 },
    ]);
    expect(await stabilityOf(first?.id ?? "")).toBe(11);
    expect(await stabilityOf(second?.id ?? "")).toBe(22);
    // Every member's schedule row keeps its card's new ordinal, which the study queue reads.
    const copies = await db.query<{ card_id: string; note_id: string; ordinal: number }>(
      "select distinct card_id, note_id, ordinal from card_states where card_id = any ($1) order by ordinal",
      [[first?.id, second?.id]],
    );
    expect(copies).toEqual([
      { card_id: second?.id, note_id: note, ordinal: 1 },
      { card_id: first?.id, note_id: note, ordinal: 2 },
    ]);
  });

  test("a removed template's cards go only when asked; the cards after it move up with their schedules", async () => {
    const type = named(vocabulary);
    const third = { name: "Spell", front: "{{Meaning}}", back: "{{Word}}" };
    const { id, version } = await addType(olga, { ...type, templates: [...type.templates, third] });
    const note = await addCustomNote(olga, id, { Word: "siete", Meaning: "seven", Reverse: "y" });
    const [, middle, last] = await cardsOf(note);
    await study(middle?.id ?? "", 5);
    await study(last?.id ?? "", 7);
    const withoutMiddle = { ...type, templates: [type.templates[0], third] as NoteType["templates"] };
    const refused = await failure(updateType(olga, id, version, withoutMiddle, { templateMap: [0, 2] }));
    expect(refused).toMatchObject({ code: "PT409" });
    expect(JSON.parse(refused.detail ?? "")).toEqual({ cards: 1, schedules: 1 });
    expect((await cardsOf(note)).map((card) => card.ordinal)).toEqual([1, 2, 3]);
    await updateType(olga, id, version, withoutMiddle, { templateMap: [0, 2], deleteCards: true });
    const after = await cardsOf(note);
    expect(after.map((card) => card.ordinal)).toEqual([1, 2]);
    expect(after[1]?.id).toBe(last?.id);
    expect(await stabilityOf(last?.id ?? "")).toBe(7);
    expect(await db.query("select 1 from cards where id = $1", [middle?.id])).toHaveLength(0);
  });

  test("refuses maps that do not fit, changing nothing", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    for (const [options, detail] of [
      [{ fieldMap: [0, 1] }, "field_map"],
      [{ fieldMap: [0, 0, 2] }, "field_map"],
      [{ fieldMap: [0, 1, 3] }, "field_map"],
      [{ templateMap: [0, 1, 2] }, "template_map"],
      [{ templateMap: [1, 1] }, "template_map"],
    ] as [UpdateOptions, string][]) {
      const error = await failure(updateType(olga, id, version, type, options));
      expect(error).toMatchObject({ code: "22023", detail });
    }
    const [row] = await db.query<{ version: number }>("select version from note_types where id = $1", [id]);
    expect(row?.version).toBe(version);
  });

  test("a viewer's or a stale change with maps is refused", async () => {
    const type = named(vocabulary);
    const { id, version } = await addType(olga, type);
    const options = { fieldMap: [0, 1, 2], templateMap: [0, 1] };
    expect((await failure(updateType(vic, id, version, type, options))).code).toBe("42501");
    await updateType(ed, id, version, type, options);
    expect((await failure(updateType(olga, id, version, type, options))).code).toBe("PT412");
  });
});

describe("deleting a note type", () => {
  test("is refused while notes use it, and allowed after", async () => {
    const { id } = await addType(olga, named(vocabulary));
    const note = await addCustomNote(olga, id, { Word: "tres", Meaning: "three", Reverse: "" });
    const refused = await failure(actAs(db, olga, (tx) => tx.query("delete from note_types where id = $1", [id])));
    expect(refused).toMatchObject({ code: "PT409" });
    expect(JSON.parse(refused.detail ?? "")).toEqual({ notes: 1 });
    await actAs(db, olga, (tx) => tx.query("delete from notes where id = $1", [note]));
    const deleted = await actAs(db, olga, (tx) => tx.query("delete from note_types where id = $1 returning id", [id]));
    expect(deleted).toHaveLength(1);
  });

  test("goes with its deck, notes and all", async () => {
    const doomed = await createDeck(db, olga, { name: "Doomed" });
    const { id } = await addType(olga, named(vocabulary), doomed);
    await addCustomNote(olga, id, { Word: "x", Meaning: "y", Reverse: "" }, [], doomed);
    await actAs(db, olga, (tx) => tx.query("delete from decks where id = $1", [doomed]));
    expect(await db.query("select id from note_types where id = $1", [id])).toHaveLength(0);
  });
});

describe("card ordinals of custom notes, in the database and in @engram/core", () => {
  const cases: { type: NoteType; fields: Record<string, string>; tags?: string[] }[] = [];
  const optional: NoteType = vocabulary;
  for (const fields of [
    { Word: "a", Meaning: "b", Reverse: "" },
    { Word: "", Meaning: "b", Reverse: "y" },
    { Word: "<br>", Meaning: " ", Reverse: "<div></div>" },
    { Word: "&nbsp;", Meaning: "", Reverse: "" },
  ]) {
    cases.push({ type: optional, fields });
  }
  const special: NoteType = {
    name: "Special",
    kind: "standard",
    fields: ["A", "Deck"],
    templates: [
      { name: "1", front: "{{Tags}}", back: "" },
      { name: "2", front: "{{Deck}}", back: "" },
      { name: "3", front: "{{^A}}{{Card}}{{/A}}", back: "" },
      { name: "4", front: "<!--{{A}}-->{{text:hint:A}}", back: "" },
      { name: "5", front: "{{#A}}{{^Deck}}{{ A }}{{/Deck}}{{/A}}", back: "" },
    ],
    css: "",
  };
  for (const [fields, tags] of [
    [{ A: "", Deck: "" }, []],
    [{ A: "x", Deck: "" }, ["t"]],
    [{ A: "x", Deck: "y" }, []],
  ] as const) {
    cases.push({ type: special, fields, tags: [...tags] });
  }
  const cloze: NoteType = {
    name: "Cloze twice",
    kind: "cloze",
    fields: ["Text", "More", "Notes"],
    templates: [
      { name: "Cloze", front: "{{cloze:Text}}{{#More}}{{type:cloze:More}}{{/More}}", back: "{{cloze:Text}}" },
    ],
    css: "",
  };
  for (const fields of [
    { Text: "{{c2::a}} {{c1::b}}", More: "{{c5::c}}", Notes: "{{c9::n}}" },
    { Text: "none", More: "", Notes: "{{c3::n}}" },
    { Text: "{{c1::a {{c3::b}}}}", More: "{{c3::x}}", Notes: "" },
  ]) {
    cases.push({ type: cloze, fields });
  }

  test("are the same", async () => {
    const rows = await db.query<{ value: number[] }>(
      `select private.template_ordinals(c ->> 'kind', array(select jsonb_array_elements_text(c -> 'typeFields')),
         c -> 'templates', c -> 'fields', array(select jsonb_array_elements_text(c -> 'tags'))) as value
       from jsonb_array_elements($1::jsonb) with ordinality as u(c, i) order by i`,
      [
        JSON.stringify(
          cases.map((c) => ({
            kind: c.type.kind,
            typeFields: c.type.fields,
            templates: c.type.templates,
            fields: c.fields,
            tags: c.tags ?? [],
          })),
        ),
      ],
    );
    const core = cases.map((c) => cardOrdinals({ kind: "custom", noteType: c.type, fields: c.fields, tags: c.tags }));
    expect(rows.map((row) => row.value)).toEqual(core);
    // The cases reach every rule: a template skipped, special fields, sections both ways, cloze fields chosen.
    expect(core).toEqual([[1], [2], [1], [1], [3], [1, 4, 5], [2, 4], [1, 2, 5], [1], [1, 3]]);
  });
});

describe("note types travel with their notes", () => {
  const typesOf = (deckId: string) =>
    db.query<{ id: string; name: string; fields: string[] }>(
      "select id, name, fields from note_types where deck_id = $1 order by name",
      [deckId],
    );

  test("a deck's copy has its own copies of its note types, which its notes use", async () => {
    const source = await createDeck(db, olga, { name: "To copy" });
    const { id } = await addType(olga, { ...vocabulary, name: "Words" }, source);
    await addCustomNote(olga, id, { Word: "sol", Meaning: "sun", Reverse: "y" }, [], source);
    const copy = await actAs(db, olga, async (tx) => {
      const rows = await tx.query<{ id: string }>("select clone_deck($1) as id", [source]);
      return only(rows, "copy").id;
    });
    const [copied] = await typesOf(copy);
    expect(copied).toMatchObject({ name: "Words", fields: vocabulary.fields });
    expect(copied?.id).not.toBe(id);
    const notes = await db.query<{ note_type_id: string; id: string }>(
      "select id, note_type_id from notes where deck_id = $1",
      [copy],
    );
    expect(notes.map((note) => note.note_type_id)).toEqual([copied?.id]);
    expect(await ordinalsOf(notes[0]?.id ?? "")).toEqual([1, 2]);
  });

  test("a moved note takes its note type along: the same one if defined alike, else a numbered copy", async () => {
    const from = await createDeck(db, olga, { name: "From" });
    const to = await createDeck(db, olga, { name: "To" });
    const fromType = await addType(olga, { ...vocabulary, name: "Words" }, from);
    const first = await addCustomNote(olga, fromType.id, { Word: "a", Meaning: "b", Reverse: "" }, [], from);
    const second = await addCustomNote(olga, fromType.id, { Word: "c", Meaning: "d", Reverse: "" }, [], from);
    const move = (noteId: string) => actAs(db, olga, (tx) => tx.query("select move_notes($1, $2)", [[noteId], to]));

    // Same name, other styling: the moved note gets "Words (2)".
    await addType(olga, { ...vocabulary, name: "Words", css: "p {}" }, to);
    await move(first);
    expect((await typesOf(to)).map((type) => type.name)).toEqual(["Words", "Words (2)"]);
    // Moved again, the copy defined alike is used, not a third.
    await move(second);
    const types = await typesOf(to);
    expect(types.map((type) => type.name)).toEqual(["Words", "Words (2)"]);
    const moved = await db.query<{ note_type_id: string }>(
      "select distinct note_type_id from notes where id = any ($1)",
      [[first, second]],
    );
    expect(moved).toEqual([{ note_type_id: types[1]?.id }]);
  });
});
