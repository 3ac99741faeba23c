import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type AnkiFixtureExpectation, ankiFixtures, expectedOf } from "../../export/anki-fixtures";
import { writeAnkiCollection } from "../../export/anki-package";
import { readAnkiPackage } from "./read-package";
import type { AnkiPackage } from "./types";

const folder = fileURLToPath(new URL("../../../fixtures/anki/", import.meta.url));

describe.each(ankiFixtures().map((fixture) => [fixture.file, fixture] as const))("%s", (file, fixture) => {
  const expected = JSON.parse(readFileSync(`${folder}expected/${file}.json`, "utf8")) as AnkiFixtureExpectation;
  const bytes = new Uint8Array(readFileSync(`${folder}${file}`));
  let pkg: AnkiPackage;
  beforeAll(async () => {
    pkg = await readAnkiPackage(bytes);
  });

  it("is what the fixture builder writes now (run fixtures/anki/write-fixtures.ts after changing it)", async () => {
    expect(expected).toEqual(JSON.parse(JSON.stringify(expectedOf(fixture))));
    expect(await writeAnkiCollection(fixture.spec)).toEqual(bytes);
  });

  it("opens with the reader: decks, note types with templates and CSS, media", () => {
    expect(pkg.format).toBe("anki2");
    expect(pkg.decks.map((deck) => deck.name).sort()).toEqual(expected.decks_all);
    expect(
      pkg.noteTypes.map((type) => ({
        name: type.name,
        kind: type.kind,
        original_stock_kind: type.originalStockKind,
        fields: type.fields,
        templates: type.cardTemplates,
        css: type.css,
        note_count: type.noteCount,
      })),
    ).toEqual(expected.notetypes);
    expect(pkg.media.map((file) => file.name)).toEqual(expected.media_files);
    expect(pkg.missingMedia).toEqual(expected.missing_media);
    expect(pkg.reviews).toHaveLength(expected.counts.revlog);
  });

  it("reads back the option groups written and each deck's group", () => {
    expect(pkg.deckConfigs).toEqual(expected.deck_configs);
    expect(Object.fromEntries(pkg.decks.map((deck) => [deck.name, deck.configId]))).toEqual(expected.deck_config_ids);
  });

  it("reads every note's fields, tags and cards", () => {
    const byGuid = new Map(pkg.notes.map((note) => [note.guid, note]));
    expect(pkg.notes).toHaveLength(expected.counts.notes);
    for (const note of expected.notes) {
      const read = byGuid.get(note.guid);
      expect(read?.ankiNoteTypeName).toBe(note.notetype);
      expect(read?.rawFields).toEqual(note.fields);
      expect(read?.tags).toEqual(note.tags);
      expect(read?.cards.map((card) => card.ankiOrdinal)).toEqual(note.card_ords);
    }
    const perDeck: Record<string, number> = {};
    for (const card of pkg.notes.flatMap((note) => note.cards))
      perDeck[card.deckName] = (perDeck[card.deckName] ?? 0) + 1;
    expect(perDeck).toEqual(expected.cards_per_deck);
  });
});

describe("what the fixtures exercise", () => {
  const read = (file: string) => readAnkiPackage(new Uint8Array(readFileSync(`${folder}${file}`)));

  it("keeps the custom note type whole, with the markup its cards will not show", async () => {
    const pkg = await read("custom-note-type.apkg");
    const [type] = pkg.noteTypes;
    expect(type).toMatchObject({ kept: true, droppedMarkup: ["<script>"] });
    expect(type?.css).toContain("text-align: left");
    expect(pkg.notes.map((note) => [note.kind, note.cards.map((card) => card.ordinal)])).toEqual([
      ["custom", [1, 2]],
      ["custom", [1, 2]],
      ["custom", [1]],
    ]);
    expect(pkg.notes[0]?.fields).toMatchObject({ Word: "la casa", "Part of Speech": "noun" });
  });

  it("imports basic notes with an empty back", async () => {
    const pkg = await read("empty-back.apkg");
    expect(pkg.notes.map((note) => [note.kind, note.fields])).toEqual([
      ["basic", { front: "A front with no back", back: "" }],
      ["basic", { front: "Another, its back only a line break", back: "<br>" }],
    ]);
    expect(pkg.skipped).toEqual([]);
  });

  it("lists the media the notes use but the package lacks", async () => {
    const pkg = await read("missing-media.apkg");
    expect(pkg.missingMedia).toEqual(["nothere.mp3", "nothere.png"]);
    expect(pkg.media.map((file) => file.name)).toEqual(["here.png"]);
  });

  it("keeps MathJax and LaTeX markers in the fields as written", async () => {
    const pkg = await read("math.apkg");
    const fronts = pkg.notes.map((note) => {
      const fields = note.fields as Record<string, string>;
      return fields.front ?? fields.text ?? "";
    });
    expect(fronts.join("\n")).toContain("\\(x^2 + y^2 = r^2\\)");
    expect(fronts.join("\n")).toContain("[$]e^{i\\pi} + 1 = 0[/$]");
    expect(fronts.join("\n")).toContain("[latex]\\begin{pmatrix}");
    expect(pkg.notes.map((note) => note.kind)).toEqual(["basic", "basic", "basic", "basic", "cloze"]);
  });

  it("reads Anki 23.10's image occlusion notes as image occlusion notes, one card per group", async () => {
    const pkg = await read("image-occlusion.apkg");
    expect(pkg.notes.map((note) => [note.kind, note.cards.map((card) => card.ordinal)])).toEqual([
      ["image_occlusion", [1, 2]],
    ]);
    expect(pkg.noteTypes[0]).toMatchObject({ originalStockKind: 6, kept: false });
  });

  it("reads the option group two subdecks share, the others on Default", async () => {
    const pkg = await read("subdecks.apkg");
    const exam = pkg.deckConfigs.find((config) => config.name === "Exam");
    expect(exam).toEqual({
      id: 1_736_000_000_451,
      name: "Exam",
      newPerDay: 7,
      reviewsPerDay: 150,
      leechThreshold: 5,
      leechAction: "tag_only",
      buryNew: true,
      buryReviews: false,
      buryInterdayLearning: true,
    });
    const onExam = pkg.decks.filter((deck) => deck.configId === exam?.id).map((deck) => deck.name);
    expect(onExam.sort()).toEqual(["Languages::Romance::Italian", "Old Decks::Board Review 2023"]);
    expect(pkg.decks.find((deck) => deck.name === "Spanish")?.configId).toBe(1);
  });

  it("reads subdecks with their parents, and the review history", async () => {
    const pkg = await read("subdecks.apkg");
    expect(pkg.decks.map((deck) => deck.name)).toContain("Languages::Romance");
    expect(pkg.reviews.map((review) => review.rating)).toEqual([3, 3]);
    const reviewed = pkg.notes.flatMap((note) => note.cards).find((card) => card.ankiSchedule.type === 2);
    expect(reviewed).toMatchObject({ deckName: "Spanish", ankiSchedule: { ivl: 7, queue: 2 } });
  });
});
