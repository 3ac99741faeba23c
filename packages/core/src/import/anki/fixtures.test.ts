import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { readAnkiPackage } from "./read-package";
import type { AnkiPackage } from "./types";

const fixtures = fileURLToPath(new URL("../../../../../../shared/fixtures/anki/", import.meta.url));

type Expected = {
  sched_ver: number;
  counts: {
    notes: number;
    cards: number;
    revlog: number;
    notetypes: number;
    cloze_notes: number;
    media: number;
    suspended_cards: number;
    buried_cards: number;
  };
  decks_all: string[];
  cards_per_deck: Record<string, number>;
  notetypes: { name: string; kind: string; fields: string[]; templates: string[]; note_count: number }[];
  revlog_type: Record<string, number>;
  media_files: string[];
  first_notes: { guid: string; notetype: string; tags: string[]; fields: Record<string, string> }[];
};

const cases: [string, AnkiPackage["format"]][] = [
  ["simple-spanish-w-audio.colpkg.apkg", "anki21b"],
  ["bg-hashtable.colpkg", "anki21b"],
  ["BarRonPcAp.colpkg", "anki21b"],
  ["spoken-languages__english__Vocab__2023.apkg", "anki21"],
  ["collection.apkg", "anki2"],
  ["spoken-languages-pc-2-dec-21.apkg", "anki2"],
];

const skippedCount = (pkg: AnkiPackage, reason: string) => pkg.skipped.find((s) => s.reason === reason)?.count ?? 0;

describe("a v1 scheduler collection (collection.apkg)", () => {
  it("maps three-button learning answers to again, good and easy", async () => {
    const pkg = await readAnkiPackage(new Uint8Array(readFileSync(`${fixtures}collection.apkg`)));
    const learning: Record<number, number> = {};
    for (const review of pkg.reviews.filter((r) => r.type === 0))
      learning[review.rating] = (learning[review.rating] ?? 0) + 1;
    expect(learning).toEqual({ 1: 105, 3: 536, 4: 413 });
    expect(pkg.reviews.filter((r) => r.type === 1 && r.rating === 2)).toHaveLength(32);
  });
});

describe.each(cases)("%s", (file, format) => {
  const expected = JSON.parse(readFileSync(`${fixtures}expected/${file}.json`, "utf8")) as Expected;
  let pkg: AnkiPackage;
  beforeAll(async () => {
    pkg = await readAnkiPackage(new Uint8Array(readFileSync(`${fixtures}${file}`)));
  });
  const cards = () => pkg.notes.flatMap((n) => n.cards);
  // Custom note types become one Engram note per card, so Anki notes are counted by id.
  const ankiNotes = () => new Set(pkg.notes.map((n) => n.ankiNoteId));

  it("reads the real collection, not the dummy one", () => {
    expect(pkg.format).toBe(format);
  });

  it("reads the scheduler version and when the collection began", () => {
    expect(pkg.collection.schedulerVersion).toBe(expected.sched_ver);
    expect(pkg.collection.createdAt.getTime()).toBeGreaterThan(Date.UTC(2005, 0, 1));
  });

  it("finds every note and card", () => {
    expect(ankiNotes().size).toBe(expected.counts.notes);
    // Anki keeps a cloze card whose number left the text (an empty card); Engram has no
    // such card, so it is skipped and counted.
    const dropped = skippedCount(pkg, "card-without-cloze");
    expect(cards().length + dropped).toBe(expected.counts.cards);
    expect(new Set(cards().map((c) => c.ankiCardId)).size).toBe(cards().length);
    expect(pkg.skipped.filter((s) => !["review-without-answer", "card-without-cloze"].includes(s.reason))).toEqual([]);
  });

  it("finds the decks, and each card's home deck", () => {
    expect(pkg.decks.map((d) => d.name).sort()).toEqual([...expected.decks_all].sort());
    const perDeck: Record<string, number> = {};
    for (const card of cards()) perDeck[card.deckName] = (perDeck[card.deckName] ?? 0) + 1;
    const total = Object.values(perDeck).reduce((a, b) => a + b, 0);
    expect(Object.keys(perDeck).sort()).toEqual(Object.keys(expected.cards_per_deck).sort());
    for (const [deck, count] of Object.entries(perDeck)) {
      expect(count).toBeLessThanOrEqual(expected.cards_per_deck[deck] ?? 0);
    }
    expect(total + skippedCount(pkg, "card-without-cloze")).toBe(expected.counts.cards);
  });

  it("summarises the note types", () => {
    const summary = pkg.noteTypes
      .map((t) => ({ name: t.name, kind: t.kind, fields: t.fields, templates: t.templates, note_count: t.noteCount }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const want = [...expected.notetypes].sort((a, b) => a.name.localeCompare(b.name));
    expect(summary).toEqual(want);
  });

  it("maps cloze notes to cloze, or to custom notes of a cloze type with more fields", () => {
    const clozeTypes = new Map(pkg.noteTypes.filter((t) => t.kind === "cloze").map((t) => [t.ankiNoteTypeId, t]));
    const cloze = pkg.notes.filter((n) => clozeTypes.has(n.ankiNoteTypeId));
    expect(cloze.length).toBe(expected.counts.cloze_notes);
    for (const note of cloze) {
      const kept = clozeTypes.get(note.ankiNoteTypeId)?.kept;
      expect(note.kind).toBe(kept ? "custom" : "cloze");
    }
  });

  it("keeps the first notes' raw fields, guids and tags", () => {
    const first = [...pkg.notes].sort((a, b) => a.ankiNoteId - b.ankiNoteId);
    const unique = first.filter((n, i) => i === 0 || first[i - 1]?.ankiNoteId !== n.ankiNoteId).slice(0, 3);
    expect(
      unique.map((n) => ({ guid: n.guid, notetype: n.ankiNoteTypeName, tags: n.tags, fields: n.rawFields })),
    ).toEqual(expected.first_notes.map(({ guid, notetype, tags, fields }) => ({ guid, notetype, tags, fields })));
  });

  it("counts suspended and buried cards", () => {
    expect(cards().filter((c) => c.suspended).length).toBe(expected.counts.suspended_cards);
    expect(cards().filter((c) => c.buried).length).toBe(expected.counts.buried_cards);
  });

  it("reads the review log, leaving out rows without an answer", () => {
    const byType: Record<string, number> = {};
    for (const review of pkg.reviews) byType[review.type] = (byType[review.type] ?? 0) + 1;
    const answered = pkg.reviews.length + skippedCount(pkg, "review-without-answer");
    expect(answered).toBe(expected.counts.revlog);
    for (const [type, count] of Object.entries(byType))
      expect(count).toBeLessThanOrEqual(expected.revlog_type[type] ?? 0);
    for (const review of pkg.reviews) expect([1, 2, 3, 4]).toContain(review.rating);
  });

  it("returns the media in map order with their bytes and types", () => {
    expect(pkg.media.map((m) => m.name)).toEqual(expected.media_files);
    for (const file of pkg.media) {
      expect(file.data.length).toBeGreaterThan(0);
      expect(file.mime).not.toBe("application/octet-stream");
    }
  });
});
