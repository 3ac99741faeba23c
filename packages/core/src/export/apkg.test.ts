import { strFromU8, unzipSync } from "fflate";
import initSqlJs, { type Database } from "sql.js";
import { describe, expect, it } from "vitest";
import { noteGuid } from "./anki-ids";
import { type ExportDeck, writeApkg } from "./apkg";

const now = new Date("2026-03-10T12:00:00Z");
const day = 86_400_000;

const deck: ExportDeck = {
  name: "Spanish::Basics",
  notes: [
    {
      id: "0b8f5a4e-1111-4c3b-9f00-000000000001",
      kind: "basic",
      fields: { front: 'hola <audio controls src="media/deck/hola.mp3"></audio>', back: "hello" },
      tags: ["es", "greeting"],
      cards: [{ id: "c-1", ordinal: 1 }],
    },
    {
      id: "0b8f5a4e-1111-4c3b-9f00-000000000002",
      kind: "basic_reversed",
      fields: { front: "perro", back: '<img src="dog.png">' },
      tags: [],
      cards: [
        {
          id: "c-2",
          ordinal: 1,
          schedule: {
            state: "review",
            due: new Date(now.getTime() + 3 * day),
            stability: 12.5,
            difficulty: 4.2,
            reps: 5,
            lapses: 1,
            last_review: new Date(now.getTime() - 7 * day),
            scheduled_days: 10,
          },
        },
        {
          id: "c-3",
          ordinal: 2,
          suspended: true,
          schedule: {
            state: "learning",
            due: new Date(now.getTime() + 10 * 60_000),
            stability: 0.5,
            difficulty: 6,
            reps: 1,
            lapses: 0,
            last_review: now,
            scheduled_days: 0,
          },
        },
      ],
    },
    {
      id: "0b8f5a4e-1111-4c3b-9f00-000000000003",
      kind: "cloze",
      fields: { text: "{{c1::El sol}} es una {{c2::estrella}}", extra: "" },
      tags: ["astro"],
      cards: [
        { id: "c-4", ordinal: 1 },
        { id: "c-5", ordinal: 2 },
      ],
    },
  ],
  media: [
    { name: "hola.mp3", data: new Uint8Array([1, 2, 3]) },
    { name: "dog.png", data: new Uint8Array([4, 5]) },
  ],
  reviews: [
    {
      cardId: "c-2",
      reviewedAt: new Date(now.getTime() - 7 * day),
      rating: 3,
      durationMs: 4200,
      state: "review",
      scheduledDays: 10,
      lastIntervalDays: 4,
    },
    {
      cardId: "c-3",
      reviewedAt: now,
      rating: 1,
      durationMs: 3000,
      state: "new",
      scheduledDays: 0,
      lastIntervalDays: 0,
    },
  ],
};

async function open(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const SQL = await initSqlJs();
  const collection = files["collection.anki2"];
  if (!collection) throw new Error("no collection.anki2");
  return { files, db: new SQL.Database(collection) };
}

function rows(db: Database, sql: string): Record<string, unknown>[] {
  const [result] = db.exec(sql);
  if (!result) return [];
  return result.values.map((values) => Object.fromEntries(result.columns.map((column, i) => [column, values[i]])));
}

function columns(db: Database, table: string): string[] {
  return rows(db, `pragma table_info(${table})`).map((row) => String(row.name));
}

describe("writeApkg", () => {
  it("writes the tables and columns of Anki's schema 11", async () => {
    const { db } = await open(await writeApkg(deck, { now }));
    expect(columns(db, "col")).toEqual([..."id crt mod scm ver dty usn ls conf models decks dconf tags".split(" ")]);
    expect(columns(db, "notes")).toEqual("id guid mid mod usn tags flds sfld csum flags data".split(" "));
    expect(columns(db, "cards")).toEqual(
      "id nid did ord mod usn type queue due ivl factor reps lapses left odue odid flags data".split(" "),
    );
    expect(columns(db, "revlog")).toEqual("id cid usn ease ivl lastIvl factor time type".split(" "));
    expect(columns(db, "graves")).toEqual(["usn", "oid", "type"]);
    expect(rows(db, "select ver from col")).toEqual([{ ver: 11 }]);
  });

  it("writes the stock note types with their fields and templates, and the deck", async () => {
    const { db } = await open(await writeApkg(deck, { now }));
    const [col] = rows(db, "select models, decks, dconf, conf from col");
    const models = Object.values(JSON.parse(String(col?.models))) as {
      name: string;
      type: number;
      flds: { name: string }[];
      tmpls: { qfmt: string; afmt: string }[];
    }[];
    const byName = Object.fromEntries(models.map((model) => [model.name, model]));
    expect(Object.keys(byName).sort()).toEqual(["Basic", "Basic (and reversed card)", "Cloze"]);
    expect(byName.Basic?.flds.map((field) => field.name)).toEqual(["Front", "Back"]);
    expect(byName["Basic (and reversed card)"]?.tmpls.map((tmpl) => tmpl.qfmt)).toEqual(["{{Front}}", "{{Back}}"]);
    expect(byName.Cloze?.type).toBe(1);
    expect(byName.Cloze?.flds.map((field) => field.name)).toEqual(["Text", "Back Extra"]);
    expect(byName.Cloze?.tmpls[0]?.qfmt).toBe("{{cloze:Text}}");
    const decks = Object.values(JSON.parse(String(col?.decks))) as { name: string }[];
    // Anki keeps a subdeck's parents as decks of their own.
    expect(decks.map((d) => d.name).sort()).toEqual(["Default", "Spanish", "Spanish::Basics"]);
    expect(JSON.parse(String(col?.dconf))).toHaveProperty("1");
    expect(JSON.parse(String(col?.conf))).toHaveProperty("curDeck");
  });

  it("writes every note and card with fields, tags and media references as Anki keeps them", async () => {
    const { db } = await open(await writeApkg(deck, { now }));
    expect(rows(db, "select count(*) n from notes")).toEqual([{ n: 3 }]);
    expect(rows(db, "select count(*) n from cards")).toEqual([{ n: 5 }]);
    const notes = rows(db, "select flds, tags, sfld from notes order by id");
    const fields = notes.map((note) => String(note.flds));
    expect(fields).toContain("hola [sound:hola.mp3]\x1fhello");
    expect(fields).toContain('perro\x1f<img src="dog.png">');
    expect(fields).toContain("{{c1::El sol}} es una {{c2::estrella}}\x1f");
    expect(notes.map((note) => note.tags)).toContain(" es greeting ");
    expect(rows(db, "select ord from cards order by ord, id").map((card) => card.ord)).toEqual([0, 0, 0, 1, 1]);
  });

  it("checksums the first field as Anki does", async () => {
    const note = {
      id: 1,
      kind: "basic" as const,
      fields: { front: "<b>Q: Hello</b>", back: "A" },
      tags: [],
      cards: [],
    };
    const { db } = await open(await writeApkg({ name: "D", notes: [note], media: [] }, { now }));
    // The value Anki stored for a note whose first field is "Q: Hello" (fixtures/anki/collection.apkg).
    expect(rows(db, "select sfld, csum from notes")).toEqual([{ sfld: "Q: Hello", csum: 3597636078 }]);
  });

  it("writes the media map and numbered files that match it", async () => {
    const { files } = await open(await writeApkg(deck, { now }));
    const map = JSON.parse(strFromU8(files.media ?? new Uint8Array())) as Record<string, string>;
    expect(map).toEqual({ "0": "hola.mp3", "1": "dog.png" });
    expect(files["0"]).toEqual(new Uint8Array([1, 2, 3]));
    expect(files["1"]).toEqual(new Uint8Array([4, 5]));
  });

  it("derives guids from note ids, so a re-export keeps them", async () => {
    const first = await open(await writeApkg(deck, { now }));
    const second = await open(await writeApkg(deck, { now: new Date(now.getTime() + day) }));
    const guids = (db: Database) => rows(db, "select id, guid from notes order by id");
    expect(guids(second.db)).toEqual(guids(first.db));
    expect(guids(first.db).map((row) => row.guid)).toContain(noteGuid(deck.notes[0]?.id ?? ""));
    expect(new Set(guids(first.db).map((row) => row.guid)).size).toBe(3);
  });

  it("writes new cards in note order without the schedule", async () => {
    const { db } = await open(await writeApkg(deck, { now }));
    const cards = rows(db, "select type, queue, due from cards order by due, ord");
    expect(cards.map((card) => card.type)).toEqual([0, 0, 0, 0, 0]);
    expect(cards.map((card) => card.due)).toEqual([1, 2, 2, 3, 3]);
    expect(cards.filter((card) => card.queue === -1)).toHaveLength(1);
    expect(rows(db, "select count(*) n from revlog")).toEqual([{ n: 0 }]);
  });

  it("maps FSRS state to Anki's card columns and review log with the schedule", async () => {
    const { db } = await open(await writeApkg(deck, { now, includeSchedule: true }));
    const [col] = rows(db, "select crt from col");
    const crtMs = Number(col?.crt) * 1000;
    const cards = rows(db, "select * from cards order by type");
    const review = cards.find((card) => card.type === 2);
    expect(review).toMatchObject({ queue: 2, ivl: 10, reps: 5, lapses: 1, factor: 2500 });
    expect(Number(review?.due)).toBe(Math.floor((now.getTime() + 3 * day - crtMs) / day));
    expect(JSON.parse(String(review?.data))).toEqual({ s: 12.5, d: 4.2 });
    const learning = cards.find((card) => card.type === 1);
    expect(learning).toMatchObject({ queue: -1, due: Math.floor((now.getTime() + 600_000) / 1000) });
    expect(cards.filter((card) => card.type === 0)).toHaveLength(3);
    const revlog = rows(db, "select * from revlog order by id");
    expect(revlog).toHaveLength(2);
    expect(revlog[0]).toMatchObject({ cid: review?.id, ease: 3, ivl: 10, lastIvl: 4, time: 4200, type: 1 });
    expect(revlog[1]).toMatchObject({ cid: learning?.id, ease: 1, type: 0, id: now.getTime() });
  });
});

describe("writeApkg with note types", () => {
  const vocabulary = {
    id: "nt-1",
    name: "Vocabulary",
    kind: "standard" as const,
    fields: ["Word", "Meaning", "Example"],
    templates: [
      { name: "Recognise", front: "{{Word}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" },
      { name: "Recall", front: "{{Meaning}}", back: "{{FrontSide}}<hr id=answer>{{Word}}" },
    ],
    css: ".card { text-align: left; font-family: Arial }",
    sourceId: 1_600_000_000_123,
  };
  const notes: ExportDeck["notes"] = [
    {
      id: "n-custom",
      kind: "custom",
      noteType: vocabulary,
      fields: { Meaning: "house", Word: "casa", Example: "" },
      tags: [],
      cards: [
        { id: "c-custom-1", ordinal: 1 },
        { id: "c-custom-2", ordinal: 2 },
      ],
      deckName: "Spanish::Nouns",
    },
    {
      id: "n-typed",
      kind: "type_in",
      fields: { front: "capital of France", back: "Paris" },
      tags: [],
      cards: [{ id: "c-typed", ordinal: 1 }],
    },
  ];

  it("writes a custom note's type whole under the Anki id it came with, its fields in the type's order", async () => {
    const { db } = await open(await writeApkg({ name: "Spanish", notes, media: [] }, { now }));
    const [col] = rows(db, "select models, decks from col");
    const models = JSON.parse(String(col?.models)) as Record<
      string,
      {
        name: string;
        type: number;
        css: string;
        flds: { name: string }[];
        tmpls: { name: string; qfmt: string; afmt: string }[];
      }
    >;
    const custom = models[String(vocabulary.sourceId)];
    expect(custom?.name).toBe("Vocabulary");
    expect(custom?.type).toBe(0);
    expect(custom?.css).toBe(vocabulary.css);
    expect(custom?.flds.map((field) => field.name)).toEqual(vocabulary.fields);
    expect(custom?.tmpls.map(({ name, qfmt, afmt }) => ({ name, front: qfmt, back: afmt }))).toEqual(
      vocabulary.templates,
    );
    const typed = Object.values(models).find((model) => model.name === "Basic (type in the answer)");
    expect(typed?.tmpls[0]?.qfmt).toBe("{{Front}}\n\n{{type:Back}}");
    const flds = rows(db, `select flds from notes where mid = ${vocabulary.sourceId}`);
    expect(flds).toEqual([{ flds: "casa\x1fhouse\x1f" }]);
    const decks = Object.values(JSON.parse(String(col?.decks))) as { id: number; name: string }[];
    const nouns = decks.find((deck) => deck.name === "Spanish::Nouns");
    expect(
      rows(db, `select ord, did from cards where nid = (select id from notes where mid = ${vocabulary.sourceId})`),
    ).toEqual([
      { ord: 0, did: nouns?.id },
      { ord: 1, did: nouns?.id },
    ]);
  });
});
