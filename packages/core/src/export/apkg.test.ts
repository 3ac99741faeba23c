import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { strFromU8, unzipSync } from "fflate";
import initSqlJs, { type Database } from "sql.js";
import { describe, expect, it } from "vitest";
import { readAnkiPackage } from "../import/anki/read-package";
import { ankiDefaultDeckConfig, type deckConfigJson } from "./anki-collection";
import { ankiId, noteGuid } from "./anki-ids";
import { writeAnkiCollection } from "./anki-package";
import { type ExportDeck, type ExportNote, writeApkg } from "./apkg";

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

describe("option groups (presets)", () => {
  const exam = {
    id: "preset-exam",
    name: "Exam",
    newPerDay: 7,
    reviewsPerDay: 150,
    leechThreshold: 5,
    leechAction: "tag_only" as const,
    buryNew: true,
    buryReviews: false,
    buryInterdayLearning: true,
  };
  const note = (id: number, deckName: string): ExportNote => ({
    id,
    kind: "basic",
    fields: { front: `front ${id}`, back: "back" },
    tags: [],
    cards: [{ id: `card-${id}`, ordinal: 1 }],
    deckName,
  });
  const presetDeck: ExportDeck = {
    name: "Spanish",
    notes: [note(1, "Spanish::Verbs"), note(2, "Spanish::Nouns"), note(3, "Spanish::Extra")],
    media: [],
    presets: [exam],
    deckPresets: { "Spanish::Verbs": exam.id, "Spanish::Nouns": exam.id },
  };

  it("writes Default with every key Anki's DeckConfSchema11 reads, at the values Anki gives a new collection", async () => {
    const { db } = await open(await writeApkg(deck, { now }));
    const [col] = rows(db, "select dconf from col");
    const mod = Math.floor(now.getTime() / 1000);
    expect(JSON.parse(String(col?.dconf))).toEqual({
      "1": {
        id: 1,
        mod,
        name: "Default",
        usn: -1,
        maxTaken: 60,
        autoplay: true,
        timer: 0,
        replayq: true,
        new: { bury: false, delays: [1, 10], initialFactor: 2500, ints: [1, 4, 0], order: 1, perDay: 20 },
        rev: { bury: false, ease4: 1.3, ivlFct: 1, maxIvl: 36500, perDay: 200, hardFactor: 1.2 },
        lapse: { delays: [10], leechAction: 1, leechFails: 8, minInt: 1, mult: 0 },
        dyn: false,
        newMix: 0,
        newPerDayMinimum: 0,
        interdayLearningMix: 0,
        reviewOrder: 0,
        newSortOrder: 0,
        newGatherPriority: 0,
        buryInterdayLearning: false,
        fsrsWeights: [],
        fsrsParams5: [],
        fsrsParams6: [],
        desiredRetention: 0.9,
        ignoreRevlogsBeforeDate: "",
        easyDaysPercentages: [1, 1, 1, 1, 1, 1, 1],
        stopTimerOnAnswer: false,
        secondsToShowQuestion: 0,
        secondsToShowAnswer: 0,
        questionAction: 0,
        answerAction: 0,
        waitForAudio: true,
        sm2Retention: 0.9,
        weightSearch: "",
      },
    });
    const decks = Object.values(JSON.parse(String(rows(db, "select decks from col")[0]?.decks))) as { conf: number }[];
    expect(decks.map((d) => d.conf)).toEqual([1, 1, 1]);
  });

  it("writes each preset as an Anki group, under an id drawn from its own, and the decks that use it", async () => {
    const { db } = await open(await writeApkg(presetDeck, { now }));
    const [col] = rows(db, "select decks, dconf from col");
    const dconf = JSON.parse(String(col?.dconf)) as Record<string, ReturnType<typeof deckConfigJson>>;
    const group = Object.values(dconf).find((config) => config.name === "Exam");
    expect(group?.id).toBe(ankiId("preset:preset-exam"));
    expect(group).toMatchObject({
      new: { perDay: 7, bury: true },
      rev: { perDay: 150, bury: false },
      lapse: { leechFails: 5, leechAction: 1 },
      buryInterdayLearning: true,
    });
    const decks = Object.values(JSON.parse(String(col?.decks))) as { name: string; conf: number }[];
    expect(Object.fromEntries(decks.map((d) => [d.name, d.conf]))).toEqual({
      Spanish: 1,
      "Spanish::Verbs": group?.id,
      "Spanish::Nouns": group?.id,
      "Spanish::Extra": 1,
      Default: 1,
    });
  });

  it("reads back what it wrote: the presets, and each deck's", async () => {
    const pkg = await readAnkiPackage(await writeApkg(presetDeck, { now }));
    const id = ankiId("preset:preset-exam");
    expect(pkg.deckConfigs).toEqual([ankiDefaultDeckConfig, { ...exam, id }]);
    expect(Object.fromEntries(pkg.decks.map((d) => [d.name, d.configId]))).toMatchObject({
      "Spanish::Verbs": id,
      "Spanish::Nouns": id,
      "Spanish::Extra": 1,
    });
  });

  it("writes a deck named in deckPresets though it holds no notes (a parent's preset)", async () => {
    const pkg = await readAnkiPackage(
      await writeApkg({ ...presetDeck, deckPresets: { Spanish: exam.id, "Languages::Greek": exam.id } }, { now }),
    );
    const decks = Object.fromEntries(pkg.decks.map((d) => [d.name, d.configId]));
    expect(decks).toMatchObject({
      Spanish: ankiId("preset:preset-exam"),
      "Languages::Greek": ankiId("preset:preset-exam"),
    });
    expect(decks.Languages).toBe(1);
  });

  it("keeps a real package's groups through writing and reading again", async () => {
    const real = await readAnkiPackage(
      new Uint8Array(
        readFileSync(
          fileURLToPath(
            new URL("../../../../../shared/fixtures/anki/spoken-languages__english__Vocab__2023.apkg", import.meta.url),
          ),
        ),
      ),
    );
    const [group] = real.deckConfigs;
    if (!group) throw new Error("no option group");
    const renamed = { ...group, id: 77, name: "Vocab" };
    const written = await writeAnkiCollection({
      createdAt: now,
      modifiedAt: now,
      noteTypes: [],
      decks: [
        { id: 10, name: "Vocab", configId: 77 },
        { id: 11, name: "Other" },
      ],
      deckConfigs: [renamed],
      notes: [],
      cards: [],
      media: [],
    });
    const read = await readAnkiPackage(written);
    expect(read.deckConfigs).toEqual([ankiDefaultDeckConfig, renamed]);
    expect(renamed).toMatchObject({ newPerDay: 50, reviewsPerDay: 100, leechAction: "suspend" });
    expect(read.decks.find((d) => d.name === "Vocab")?.configId).toBe(77);
  });

  it("refuses a deck whose preset or group is not in the package, writing nothing", async () => {
    await expect(writeApkg({ ...presetDeck, deckPresets: { "Spanish::Verbs": "gone" } }, { now })).rejects.toThrow(
      new RangeError('Deck "Spanish::Verbs" uses preset gone, which is not exported.'),
    );
    await expect(
      writeAnkiCollection({
        createdAt: now,
        modifiedAt: now,
        noteTypes: [],
        decks: [{ id: 10, name: "Vocab", configId: 77 }],
        notes: [],
        cards: [],
        media: [],
      }),
    ).rejects.toThrow(new RangeError('Deck "Vocab" uses option group 77, which the package does not hold.'));
  });
});
