/**
 * The Anki packages in packages/core/fixtures/anki, defined as Anki's own shapes and
 * written by `writeAnkiCollection`; `expectedOf` says what a reader must find in each.
 * fixtures/anki/write-fixtures.ts writes both; a test checks the committed files match.
 */

import { ankiDefaultDeckConfig } from "./anki-collection";
import { noteGuid } from "./anki-ids";
import type { AnkiCardSpec, AnkiCollectionSpec, AnkiDeckConfigSpec, AnkiNoteTypeSpec } from "./anki-package";
import { type AnkiCardColumns, newCard } from "./anki-schedule";
import { ankiImageOcclusion, ankiStock } from "./anki-stock";

export type AnkiFixture = { file: string; about: string; spec: AnkiCollectionSpec };

const createdAt = new Date("2026-01-05T00:00:00Z");
const modifiedAt = new Date("2026-01-05T12:00:00Z");
const deckId = 1_736_000_000_001;

/** A 1×1 PNG. */
const png = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

const stock = (kind: keyof typeof ankiStock, id: number): AnkiNoteTypeSpec => ({ ...ankiStock[kind], id });

type NoteInput = { type: AnkiNoteTypeSpec; fields: string[]; tags?: string[]; ords: number[]; deck?: number };

/** Notes and their cards with ids counted from a base, all new unless `schedule` says otherwise. */
function build(
  base: number,
  notes: NoteInput[],
  schedule: (card: AnkiCardSpec) => AnkiCardColumns | undefined = () => undefined,
): Pick<AnkiCollectionSpec, "notes" | "cards"> {
  const out: Pick<AnkiCollectionSpec, "notes" | "cards"> = { notes: [], cards: [] };
  notes.forEach((note, index) => {
    const id = base + index;
    out.notes.push({ id, guid: noteGuid(id), noteTypeId: note.type.id, fields: note.fields, tags: note.tags ?? [] });
    for (const ord of note.ords) {
      const card: AnkiCardSpec = {
        id: base + 1000 + index * 10 + ord,
        noteId: id,
        deckId: note.deck ?? deckId,
        ord,
        columns: newCard(index + 1, false),
      };
      out.cards.push({ ...card, columns: schedule(card) ?? card.columns });
    }
  });
  return out;
}

/** A deck: its id, name and, when not Anki's Default, its option group's id. */
type DeckInput = [number, string] | [number, string, number];

function collection(
  decks: DeckInput[],
  noteTypes: AnkiNoteTypeSpec[],
  content: Pick<AnkiCollectionSpec, "notes" | "cards">,
  extra: Partial<AnkiCollectionSpec> = {},
): AnkiCollectionSpec {
  return {
    createdAt,
    modifiedAt,
    noteTypes,
    decks: decks.map(([id, name, configId]) => (configId === undefined ? { id, name } : { id, name, configId })),
    media: [],
    ...content,
    ...extra,
  };
}

const basic = stock("basic", 1_736_000_000_101);
const cloze = stock("cloze", 1_736_000_000_102);

function math(): AnkiCollectionSpec {
  return collection(
    [[deckId, "Math"]],
    [basic, cloze],
    build(1_736_000_100_000, [
      { type: basic, fields: ["Inline: \\(x^2 + y^2 = r^2\\)", "a circle"], ords: [0] },
      { type: basic, fields: ["Display: \\[\\int_0^1 x\\,dx\\]", "\\(\\frac{1}{2}\\)"], ords: [0] },
      { type: basic, fields: ["MathJax in brackets: [$]e^{i\\pi} + 1 = 0[/$]", "Euler"], ords: [0] },
      {
        type: basic,
        fields: ["[latex]\\begin{pmatrix}1 & 0\\\\0 & 1\\end{pmatrix}[/latex]", "the identity [$$]I_2[/$$]"],
        ords: [0],
      },
      { type: cloze, fields: ["The derivative of \\(x^2\\) is {{c1::\\(2x\\)}}", ""], ords: [0] },
    ]),
  );
}

/** A user's own note type: five fields, two templates with conditionals, left-aligned CSS, a script Engram drops. */
export const vocabularyType: AnkiNoteTypeSpec = {
  id: 1_736_000_000_201,
  name: "Vocabulary (5 fields)",
  kind: "standard",
  fields: ["Word", "Meaning", "Part of Speech", "Example", "Notes"],
  templates: [
    {
      name: "Recognise",
      front:
        '<div class="word">{{Word}}</div>\n{{#Part of Speech}}<div class="pos">{{Part of Speech}}</div>{{/Part of Speech}}',
      back: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Meaning}}\n{{#Example}}<div class="example">{{Example}}</div>{{/Example}}',
    },
    {
      name: "Recall",
      front: "{{#Meaning}}{{Meaning}}{{/Meaning}}",
      back: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Word}}\n{{^Notes}}<div class="none">No notes</div>{{/Notes}}{{Notes}}\n<script>document.title = "Recall";</script>',
    },
  ],
  css: ".card { text-align: left; font-family: Arial }\n.pos { font-style: italic; }\n",
};

function customNoteType(): AnkiCollectionSpec {
  return collection(
    [[deckId, "Spanish Vocabulary"]],
    [vocabularyType],
    build(1_736_000_200_000, [
      { type: vocabularyType, fields: ["la casa", "the house", "noun", "Mi casa es tu casa.", ""], ords: [0, 1] },
      { type: vocabularyType, fields: ["correr", "to run", "verb", "", "Regular -er verb."], ords: [0, 1] },
      // No meaning: Anki makes no Recall card, as that front would be empty.
      { type: vocabularyType, fields: ["el duende", "", "", "", "Hard to translate."], tags: ["todo"], ords: [0] },
    ]),
  );
}

function typeIn(): AnkiCollectionSpec {
  const typed = stock("type_in", 1_736_000_000_301);
  return collection(
    [[deckId, "Capitals"]],
    [typed],
    build(1_736_000_300_000, [
      { type: typed, fields: ["Capital of France", "Paris"], ords: [0] },
      { type: typed, fields: ["Capital of <b>Japan</b>", "Tokyo"], ords: [0] },
    ]),
  );
}

const dayMs = 86_400_000;

/** An option group two subdecks share: limits, leech threshold and burying unlike Anki's defaults. */
export const examDeckConfig: AnkiDeckConfigSpec = {
  id: 1_736_000_000_451,
  name: "Exam",
  newPerDay: 7,
  reviewsPerDay: 150,
  leechThreshold: 5,
  leechAction: "tag_only",
  buryNew: true,
  buryReviews: false,
  buryInterdayLearning: true,
};

function subdecks(): AnkiCollectionSpec {
  const decks: DeckInput[] = [
    [1_736_000_000_401, "Spanish"],
    [1_736_000_000_402, "Old Decks::Board Review 2023", examDeckConfig.id],
    [1_736_000_000_403, "Example Deck"],
    [1_736_000_000_404, "Languages::Romance::Italian", examDeckConfig.id],
  ];
  const reviewCard = 1_736_000_400_000 + 1000;
  const content = build(
    1_736_000_400_000,
    decks.map(([id, name]) => ({ type: basic, fields: [`a card in ${name}`, "back"], ords: [0], deck: id })),
    (card) =>
      card.id === reviewCard
        ? {
            type: 2,
            queue: 2,
            due: Math.floor((modifiedAt.getTime() + 3 * dayMs - createdAt.getTime()) / dayMs),
            ivl: 7,
            factor: 2500,
            reps: 2,
            lapses: 0,
            left: 0,
            data: "",
          }
        : undefined,
  );
  const answered = (day: number) => createdAt.getTime() + day * dayMs + 3_600_000;
  return collection(decks, [basic], content, {
    deckConfigs: [examDeckConfig],
    revlog: [
      { id: answered(0), cid: reviewCard, ease: 3, ivl: -600, lastIvl: 0, factor: 0, time: 5000, type: 0 },
      { id: answered(1), cid: reviewCard, ease: 3, ivl: 7, lastIvl: -600, factor: 2500, time: 4000, type: 1 },
    ],
  });
}

function emptyBack(): AnkiCollectionSpec {
  return collection(
    [[deckId, "Empty backs"]],
    [basic],
    build(1_736_000_500_000, [
      { type: basic, fields: ["A front with no back", ""], ords: [0] },
      { type: basic, fields: ["Another, its back only a line break", "<br>"], ords: [0] },
    ]),
  );
}

function missingMedia(): AnkiCollectionSpec {
  return collection(
    [[deckId, "Pictures"]],
    [basic],
    build(1_736_000_600_000, [
      { type: basic, fields: ['Here: <img src="here.png">', "present"], ords: [0] },
      { type: basic, fields: ['Gone: <img src="nothere.png">', "missing [sound:nothere.mp3]"], ords: [0] },
    ]),
    { media: [{ name: "here.png", data: png }] },
  );
}

function imageOcclusion(): AnkiCollectionSpec {
  const io = { ...ankiImageOcclusion, id: 1_736_000_000_701 };
  return collection(
    [[deckId, "Anatomy"]],
    [io],
    build(1_736_000_700_000, [
      {
        type: io,
        fields: [
          "{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}" +
            "{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.05:oi=1}}",
          '<img src="heart.png">',
          "The heart",
          "Left ventricle, right atrium",
          "",
        ],
        ords: [0, 1],
      },
    ]),
    { media: [{ name: "heart.png", data: png }] },
  );
}

export function ankiFixtures(): AnkiFixture[] {
  return [
    {
      file: "math.apkg",
      about: "MathJax \\(…\\), \\[…\\], [$]…[/$], [$$]…[/$$] and [latex]…[/latex] in Basic and Cloze notes",
      spec: math(),
    },
    {
      file: "custom-note-type.apkg",
      about:
        "a note type of the user's own: 5 fields, 2 templates with {{#…}}/{{^…}} conditionals and a <script>, left-aligned CSS; one note has no Recall card",
      spec: customNoteType(),
    },
    { file: "type-in.apkg", about: 'stock "Basic (type in the answer)"', spec: typeIn() },
    {
      file: "subdecks.apkg",
      about:
        'decks "Spanish", "Old Decks::Board Review 2023", "Example Deck", "Languages::Romance::Italian" (3 levels); one review card with 2 review log rows; "Old Decks::Board Review 2023" and "Languages::Romance::Italian" share the option group "Exam", the rest use Default',
      spec: subdecks(),
    },
    { file: "empty-back.apkg", about: "two Basic notes whose Back is empty (one holds only <br>)", spec: emptyBack() },
    {
      file: "missing-media.apkg",
      about: "notes referring to here.png (in the package), nothere.png and nothere.mp3 (not in it)",
      spec: missingMedia(),
    },
    {
      file: "image-occlusion.apkg",
      about:
        "Anki 23.10+'s Image Occlusion note type (OriginalStockKind 6) with a rectangle and an ellipse, and its image",
      spec: imageOcclusion(),
    },
  ];
}

/** What a reader must find in a fixture: the spec restated in the reader's terms. */
export function expectedOf(fixture: AnkiFixture) {
  const { spec } = fixture;
  const types = new Map(spec.noteTypes.map((type) => [type.id, type]));
  const deckNames = new Set(spec.decks.map((deck) => deck.name));
  for (const name of [...deckNames]) {
    const parts = name.split("::");
    for (let depth = 1; depth < parts.length; depth++) deckNames.add(parts.slice(0, depth).join("::"));
  }
  deckNames.add("Default");
  const referenced = spec.notes.flatMap((note) =>
    note.fields.flatMap((html) =>
      [...html.matchAll(/src="([^"]+)"|\[sound:([^\]]+)\]/g)].map((m) => m[1] ?? m[2] ?? ""),
    ),
  );
  const held = new Set(spec.media.map((file) => file.name));
  const configIdOf = new Map(spec.decks.map((deck) => [deck.name, deck.configId ?? ankiDefaultDeckConfig.id]));
  return {
    file: fixture.file,
    about: fixture.about,
    format: "anki2",
    counts: {
      notes: spec.notes.length,
      cards: spec.cards.length,
      revlog: spec.revlog?.length ?? 0,
      notetypes: spec.noteTypes.length,
      media: spec.media.length,
    },
    decks_all: [...deckNames].sort(),
    /** Every option group written, Default (1) first, in the reader's terms. */
    deck_configs: [ankiDefaultDeckConfig, ...(spec.deckConfigs ?? [])],
    /** Each deck's option group id; parents and "Default" use Default (1). */
    deck_config_ids: Object.fromEntries(
      [...deckNames].sort().map((name) => [name, configIdOf.get(name) ?? ankiDefaultDeckConfig.id]),
    ),
    cards_per_deck: Object.fromEntries(
      spec.decks
        .map((deck) => [deck.name, spec.cards.filter((card) => card.deckId === deck.id).length] as const)
        .filter(([, count]) => count > 0)
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
    notetypes: spec.noteTypes.map((type) => ({
      name: type.name,
      kind: type.kind === "cloze" ? "cloze" : "normal",
      original_stock_kind: type.originalStockKind ?? 0,
      fields: type.fields,
      templates: type.templates,
      css: type.css,
      note_count: spec.notes.filter((note) => note.noteTypeId === type.id).length,
    })),
    media_files: spec.media.map((file) => file.name),
    missing_media: [...new Set(referenced.filter((name) => !held.has(name)))].sort(),
    notes: spec.notes.map((note) => {
      const type = types.get(note.noteTypeId);
      return {
        guid: note.guid,
        notetype: type?.name ?? "",
        tags: note.tags,
        fields: Object.fromEntries((type?.fields ?? []).map((name, i) => [name, note.fields[i] ?? ""])),
        card_ords: spec.cards.filter((card) => card.noteId === note.id).map((card) => card.ord),
      };
    }),
  };
}

export type AnkiFixtureExpectation = ReturnType<typeof expectedOf>;
