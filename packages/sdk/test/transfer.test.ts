/**
 * Import, export and the optimiser through the SDK in Node, against the local
 * stack: every Anki fixture lands with its counts, twice without duplicates,
 * bad files change nothing, a cancel leaves nothing, and an exported deck
 * imports back identical.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeApkg } from "@engram/core/export";
import { readAnkiPackage } from "@engram/core/import";
import { evaluateParameters } from "@engram/core/optimizer";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { EngramError } from "../src/errors.js";
import {
  type AnkiPreview,
  type CsvPreview,
  detectFormat,
  exportDeck,
  type ImportSummary,
  importDeck,
  optimizeScheduler,
  previewImport,
} from "../src/transfer/index.js";
import { adminClient, type SignedIn, signedIn } from "./support/engram.js";

const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/anki/", import.meta.url));
const fixture = (name: string) => ({ name, data: new Uint8Array(readFileSync(`${fixtures}${name}`)) });
const expectedOf = (name: string) =>
  JSON.parse(readFileSync(`${fixtures}expected/${name}.json`, "utf8")) as {
    counts: { notes: number; cards: number; revlog: number; media: number };
    revlog_type: Record<string, number>;
  };

const admin = adminClient();

async function countRows(table: "notes" | "cards", deckId: string) {
  const { count, error } = await admin.from(table).select("id", { count: "exact", head: true }).eq("deck_id", deckId);
  if (error) throw error;
  return count ?? 0;
}

async function reviewCount(userId: string) {
  const { count, error } = await admin
    .from("review_logs")
    .select("id", { count: "exact", head: true })
    .eq("user_id", userId);
  if (error) throw error;
  return count ?? 0;
}

async function mediaNames(deckId: string) {
  const { data, error } = await admin.storage.from("media").list(deckId, { limit: 1000 });
  if (error) throw error;
  return data.filter((file) => file.id !== null).map((file) => file.name);
}

async function decksOf(userId: string) {
  const { data, error } = await admin.from("decks").select("id, name").eq("owner_id", userId);
  if (error) throw error;
  return data;
}

async function failure(promise: Promise<unknown>): Promise<EngramError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!error) throw new Error("expected the call to fail");
  return error as EngramError;
}

let alice: SignedIn;
beforeAll(async () => {
  alice = await signedIn("importer");
});

const anki = [
  "simple-spanish-w-audio.colpkg.apkg",
  "bg-hashtable.colpkg",
  "BarRonPcAp.colpkg",
  "spoken-languages__english__Vocab__2023.apkg",
  "collection.apkg",
  "spoken-languages-pc-2-dec-21.apkg",
];

// No bucket takes SVG: an import stores each as the PNG a rasteriser draws, or skips and counts it.
describe("an Anki package with an SVG picture", () => {
  /** A 1×1 PNG, standing in for what a browser page draws. */
  const png = Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
    (char) => char.charCodeAt(0),
  );
  const svgText = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle r="4" cx="4" cy="4"/></svg>';
  let file: { name: string; data: Uint8Array };
  beforeAll(async () => {
    file = {
      name: "shapes.apkg",
      data: await writeApkg({
        name: "Shapes",
        notes: [
          {
            id: 1,
            kind: "basic",
            fields: { front: 'A circle <img src="circle.svg">', back: "round" },
            tags: [],
            cards: [{ id: 1, ordinal: 1 }],
          },
        ],
        media: [{ name: "circle.svg", data: new TextEncoder().encode(svgText) }],
      }),
    };
  });

  async function frontOf(deckId: string) {
    const { data, error } = await admin.from("notes").select("fields").eq("deck_id", deckId);
    if (error) throw error;
    return (data[0]?.fields as { front?: string } | undefined)?.front;
  }

  it("stores the PNG drawn of it, and the note names the PNG", async () => {
    const user = await signedIn("svg-import");
    const drawn: string[] = [];
    const summary = await importDeck(user.engram, file, {
      target: { newDeckName: "Shapes" },
      rasterizeSvg: async (svg) => {
        drawn.push(new TextDecoder().decode(svg));
        return png;
      },
    });
    expect(drawn).toEqual([svgText]);
    expect(await mediaNames(summary.deckId)).toEqual(["circle.png"]);
    expect(summary.media).toBe(1);
    expect(await frontOf(summary.deckId)).toMatch(/^A circle <img src="circle\.png" ?\/?>$/);
    const { data } = await admin.storage.from("media").download(`${summary.deckId}/circle.png`);
    expect(data?.type).toBe("image/png");
  });

  it("skips and counts an SVG nothing can draw, storing nothing", async () => {
    const user = await signedIn("svg-import");
    const summary = await importDeck(user.engram, file, { target: { newDeckName: "Shapes" } });
    expect(summary.skipped).toContainEqual({ reason: "svg-not-converted", count: 1 });
    expect(summary.media).toBe(0);
    expect(await mediaNames(summary.deckId)).toEqual([]);
    expect(summary.notesAdded).toBe(1);
  });
});

describe.each(anki)("importing %s", (name) => {
  const file = fixture(name);
  const expected = expectedOf(name);
  let user: SignedIn;
  let preview: AnkiPreview;
  let summary: ImportSummary;

  beforeAll(async () => {
    user = await signedIn("fixture");
    preview = (await previewImport(file)) as AnkiPreview;
    // Into one deck, so the counts below are the deck's (subdecks: subdecks.test.ts).
    summary = await importDeck(user.engram, file, {
      target: { newDeckName: preview.suggestedDeckName },
      includeSchedule: true,
      deckTree: false,
    });
  });

  it("lands every note and card the package holds", async () => {
    expect(detectFormat(file)).toBe(name.endsWith(".colpkg") ? "colpkg" : "apkg");
    expect(summary.notesAdded).toBe(preview.notes);
    expect(await countRows("notes", summary.deckId)).toBe(preview.notes);
    expect(await countRows("cards", summary.deckId)).toBe(preview.cards);
    expect(summary.cards).toBe(preview.cards);
    // What Engram cannot represent is named, never dropped silently.
    const skippedCards = preview.skipped
      .filter(({ reason }) => /cloze|occlusion|card/.test(reason))
      .reduce((sum, { count }) => sum + count, 0);
    expect(preview.cards + skippedCards).toBe(expected.counts.cards);
  });

  it("uploads the media its notes use and the history it answered", async () => {
    const names = await mediaNames(summary.deckId);
    expect(names).toHaveLength(summary.media);
    expect(summary.media).toBeLessThanOrEqual(expected.counts.media);
    const answered = Object.entries(expected.revlog_type)
      .filter(([type]) => type !== "4" && type !== "5")
      .reduce((sum, [, count]) => sum + count, 0);
    const ofSkippedCards = summary.skipped.find(({ reason }) => reason === "review-of-skipped-card")?.count ?? 0;
    expect(summary.reviews + ofSkippedCards).toBe(answered);
    expect(await reviewCount(user.account.id)).toBe(summary.reviews);
  });

  it("adds nothing when the same file is imported again", async () => {
    const again = await importDeck(user.engram, file, {
      target: { deckId: summary.deckId },
      includeSchedule: true,
      deckTree: false,
    });
    expect(again).toMatchObject({ notesAdded: 0, notesSkipped: preview.notes, reviews: 0 });
    expect(await countRows("notes", summary.deckId)).toBe(preview.notes);
    expect(await reviewCount(user.account.id)).toBe(summary.reviews);
  });
});

describe("importing into an existing deck", () => {
  it("updates notes it imported before when asked, keeping their cards", async () => {
    const file = fixture("bg-hashtable.colpkg");
    const first = await importDeck(alice.engram, file, { target: { newDeckName: "Hash tables" } });
    const { data: before } = await admin.from("cards").select("id").eq("deck_id", first.deckId).order("id");
    await admin
      .from("notes")
      .update({ tags: ["edited"] })
      .eq("deck_id", first.deckId);
    const updated = await importDeck(alice.engram, file, { target: { deckId: first.deckId }, existing: "update" });
    expect(updated).toMatchObject({ notesAdded: 0, notesUpdated: first.notesAdded });
    const { data: after } = await admin.from("cards").select("id").eq("deck_id", first.deckId).order("id");
    expect(after).toEqual(before);
    const { data: tags } = await admin.from("notes").select("tags").eq("deck_id", first.deckId);
    expect(tags?.some((row) => row.tags.includes("edited"))).toBe(false);
  });

  it("refuses a deck the caller cannot edit", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Read only" });
    const error = await failure(
      importDeck(alice.engram, fixture("bg-hashtable.colpkg"), { target: { deckId: deck.id } }),
    );
    expect(error.code).toBe("not-found");
    expect(await countRows("notes", deck.id)).toBe(0);
  });
});

describe("retries and cancels", () => {
  it("lands a retried import once", async () => {
    const user = await signedIn("retry");
    const jobId = crypto.randomUUID();
    const file = fixture("spoken-languages__english__Vocab__2023.apkg");
    const first = await importDeck(user.engram, file, {
      target: { newDeckName: "Vocab" },
      jobId,
      includeSchedule: true,
    });
    const retried = await importDeck(user.engram, file, {
      target: { newDeckName: "Vocab" },
      jobId,
      includeSchedule: true,
    });
    expect(retried).toEqual(first);
    expect(await decksOf(user.account.id)).toHaveLength(1);
    expect(await reviewCount(user.account.id)).toBe(first.reviews);
  });

  const cancelDuring = (user: SignedIn, target: { deckId: string } | { newDeckName: string }) => {
    const controller = new AbortController();
    return importDeck(user.engram, fixture("simple-spanish-w-audio.colpkg.apkg"), {
      target,
      signal: controller.signal,
      // After the media are up, while the notes are being staged.
      onProgress: (progress) => {
        if (progress.phase === "staging") controller.abort();
      },
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
  };

  it("leaves no deck behind when cancelled", async () => {
    const user = await signedIn("cancel");
    const error = await cancelDuring(user, { newDeckName: "Cancelled" });
    expect(error?.name).toBe("AbortError");
    expect(await decksOf(user.account.id)).toEqual([]);
    const { data: jobs } = await user.supabase.from("import_jobs").select("status, error");
    expect(jobs).toEqual([{ status: "failed", error: "cancelled" }]);
  });

  it("takes back the media it uploaded to an existing deck", async () => {
    const user = await signedIn("cancel-media");
    const deck = await user.engram.decks.create({ name: "Keep me" });
    const error = await cancelDuring(user, { deckId: deck.id });
    expect(error?.name).toBe("AbortError");
    expect(await mediaNames(deck.id)).toEqual([]);
    expect(await countRows("notes", deck.id)).toBe(0);
    expect(await decksOf(user.account.id)).toHaveLength(1);
  });
});

describe("bad files", () => {
  const valid = fixture("BarRonPcAp.colpkg").data;
  const cases: [string, { name: string; data: Uint8Array }, string][] = [
    ["a truncated zip", { name: "cut.apkg", data: valid.slice(0, valid.length / 2) }, "import/corrupt-file"],
    [
      "a file that is not a zip",
      { name: "deck.apkg", data: new TextEncoder().encode("hello") },
      "import/unsupported-format",
    ],
    ["a 201 MB file", { name: "huge.apkg", data: new Uint8Array(201 * 1024 * 1024) }, "quota-exceeded"],
    [
      "a CSV with ragged rows",
      { name: "ragged.csv", data: new TextEncoder().encode("a,b\nc\nd,e,f\n") },
      "import/corrupt-file",
    ],
    ["a PDF", { name: "notes.pdf", data: new TextEncoder().encode("%PDF-1.4") }, "import/unsupported-format"],
  ];

  it.each(cases)("%s fails cleanly and inserts nothing", async (_, file, code) => {
    const user = await signedIn("bad");
    const error = await failure(importDeck(user.engram, file, { target: { newDeckName: "Bad" } }));
    expect(error.code).toBe(code);
    expect(await decksOf(user.account.id)).toEqual([]);
    const { data: jobs } = await user.supabase.from("import_jobs").select("id");
    expect(jobs).toEqual([]);
  });
});

describe("CSV and TSV", () => {
  it("maps columns of a headerless TSV, tags included, and keys rows by their front", async () => {
    const user = await signedIn("csv");
    const tsv = { name: "verbs.tsv", data: new TextEncoder().encode("tag1 verb\tsein\tto be\ntag2\thaben\tto have\n") };
    const preview = (await previewImport(tsv, { csv: { hasHeader: false } })) as CsvPreview;
    expect(preview).toMatchObject({ format: "tsv", delimiter: "\t", hasHeader: false, rows: 2 });
    const csv = { hasHeader: false, mapping: { tags: 0, front: 1, back: 2 } };
    const summary = await importDeck(user.engram, tsv, { target: { newDeckName: "Verbs" }, csv });
    expect(summary).toMatchObject({ notesAdded: 2, cards: 2 });
    const { data: notes } = await admin
      .from("notes")
      .select("fields, tags")
      .eq("deck_id", summary.deckId)
      .order("created_at");
    expect(notes).toEqual([
      { fields: { front: "sein", back: "to be" }, tags: ["tag1", "verb"] },
      { fields: { front: "haben", back: "to have" }, tags: ["tag2"] },
    ]);
    const again = await importDeck(user.engram, tsv, { target: { deckId: summary.deckId }, csv });
    expect(again).toMatchObject({ notesAdded: 0, notesSkipped: 2 });
  });

  it("names a mapping to a column the file lacks", async () => {
    const user = await signedIn("csv-map");
    const file = { name: "a.csv", data: new TextEncoder().encode("front,back\nx,y\n") };
    const error = await failure(
      importDeck(user.engram, file, { target: { newDeckName: "A" }, csv: { mapping: { front: 0, back: 5 } } }),
    );
    expect(error).toMatchObject({ code: "validation", field: "back" });
    expect(await decksOf(user.account.id)).toEqual([]);
  });
});

describe("export", () => {
  let source: ImportSummary;
  beforeAll(async () => {
    source = await importDeck(alice.engram, fixture("simple-spanish-w-audio.colpkg.apkg"), {
      target: { newDeckName: "Spanish" },
      includeSchedule: true,
    });
  });

  it("writes an Anki package whose media map matches its files", async () => {
    const file = await exportDeck(alice.engram, source.deckId, { format: "apkg", includeSchedule: true });
    expect(file).toMatchObject({ name: "Spanish.apkg", mime: "application/zip" });
    const zip = unzipSync(file.data);
    expect(Object.keys(zip)).toContain("collection.anki2");
    const map = JSON.parse(strFromU8(zip.media ?? new Uint8Array())) as Record<string, string>;
    expect(Object.values(map).sort()).toEqual((await mediaNames(source.deckId)).sort());
    for (const index of Object.keys(map)) expect(zip[index]?.byteLength).toBeGreaterThan(0);
  });

  it("imports back identical in content", async () => {
    const file = await exportDeck(alice.engram, source.deckId, { format: "apkg" });
    const copy = await importDeck(
      alice.engram,
      { name: file.name, data: file.data },
      { target: { newDeckName: "Copy" } },
    );
    const contentOf = async (deckId: string) => {
      const { data } = await admin.from("notes").select("kind, fields, tags").eq("deck_id", deckId);
      return (data ?? []).map((note) => JSON.stringify(note)).sort();
    };
    expect(await contentOf(copy.deckId)).toEqual(await contentOf(source.deckId));
    expect((await mediaNames(copy.deckId)).sort()).toEqual((await mediaNames(source.deckId)).sort());
    expect(await countRows("cards", copy.deckId)).toBe(await countRows("cards", source.deckId));
  });

  it("writes CSV that imports back", async () => {
    const file = await exportDeck(alice.engram, source.deckId, { format: "csv" });
    expect(file.mime).toBe("text/csv");
    const copy = await importDeck(alice.engram, file, { target: { newDeckName: "CSV copy" } });
    expect(copy.notesAdded).toBe(await countRows("notes", source.deckId));
  });
});

const ownFixtures = fileURLToPath(new URL("../../core/fixtures/anki/", import.meta.url));
const ownFixture = (name: string) => ({ name, data: new Uint8Array(readFileSync(`${ownFixtures}${name}`)) });

describe("note types", () => {
  const file = ownFixture("custom-note-type.apkg");
  let user: SignedIn;
  let summary: ImportSummary;
  let noteType: { name: string; kind: string; fields: string[]; templates: unknown; css: string };
  beforeAll(async () => {
    user = await signedIn("note-types");
    summary = await importDeck(user.engram, file, { target: { newDeckName: "Vocabulary" } });
    const [original] = (await readAnkiPackage(file.data)).noteTypes;
    if (!original) throw new Error("the fixture has no note type");
    noteType = {
      name: original.name,
      kind: "standard",
      fields: original.fields,
      templates: original.cardTemplates,
      css: original.css,
    };
  });

  const noteTypesOf = async (deckId: string) => {
    const { data, error } = await admin
      .from("note_types")
      .select("name, kind, fields, templates, css")
      .eq("deck_id", deckId);
    if (error) throw error;
    return data;
  };

  it("keeps a package's own note type: its notes are custom notes of it, and the summary says what cards won't run", async () => {
    expect(summary).toMatchObject({
      notesAdded: 3,
      cards: 5,
      noteTypes: [{ name: noteType.name, created: true }],
      droppedMarkup: [{ noteType: noteType.name, markup: ["<script>"] }],
    });
    expect(await noteTypesOf(summary.deckId)).toEqual([noteType]);
    const { data } = await admin.from("notes").select("kind, fields").eq("deck_id", summary.deckId).order("created_at");
    expect(data?.map((note) => note.kind)).toEqual(["custom", "custom", "custom"]);
    expect(data?.[0]?.fields).toMatchObject({ Word: "la casa", Meaning: "the house", "Part of Speech": "noun" });
  });

  it("exports the note type whole under its Anki id, and imports back onto the same note type", async () => {
    const exported = await exportDeck(user.engram, summary.deckId, { format: "apkg" });
    const read = await readAnkiPackage(exported.data);
    const custom = read.noteTypes.filter((type) => type.noteCount > 0);
    expect(custom.map((type) => type.ankiNoteTypeId)).toEqual([1_736_000_000_201]);
    expect(custom[0]).toMatchObject({ name: noteType.name, fields: noteType.fields, css: noteType.css, kept: true });
    expect(custom[0]?.cardTemplates).toEqual(noteType.templates);

    const again = await importDeck(
      user.engram,
      { name: exported.name, data: exported.data },
      {
        target: { deckId: summary.deckId },
      },
    );
    expect(again).toMatchObject({
      notesAdded: 0,
      notesSkipped: 3,
      noteTypes: [{ name: noteType.name, created: false }],
    });
    expect(await noteTypesOf(summary.deckId)).toHaveLength(1);

    const copy = await importDeck(
      user.engram,
      { name: exported.name, data: exported.data },
      {
        target: { newDeckName: "Vocabulary copy" },
      },
    );
    expect(copy).toMatchObject({ notesAdded: 3, cards: 5 });
    expect(await noteTypesOf(copy.deckId)).toEqual([noteType]);
  });

  it("imports basic notes with an empty back", async () => {
    const imported = await importDeck(user.engram, ownFixture("empty-back.apkg"), { target: { newDeckName: "Backs" } });
    expect(imported).toMatchObject({ notesAdded: 2, cards: 2, skipped: [] });
  });

  it("names the media the notes use that the file lacks", async () => {
    const imported = await importDeck(user.engram, ownFixture("missing-media.apkg"), {
      target: { newDeckName: "Pictures" },
    });
    expect(imported).toMatchObject({
      notesAdded: 2,
      media: 1,
      missingMedia: ["nothere.mp3", "nothere.png"],
      missingMediaCount: 2,
    });
    const preview = (await previewImport(ownFixture("missing-media.apkg"))) as AnkiPreview;
    expect(preview.missingMedia).toEqual(["nothere.mp3", "nothere.png"]);
  });
});

describe("the optimiser", () => {
  // One imported history for the tests that train (an import takes seconds on a busy machine).
  let user: SignedIn;
  beforeAll(async () => {
    user = await signedIn("optimiser");
    await importDeck(user.engram, fixture("collection.apkg"), {
      target: { newDeckName: "History" },
      includeSchedule: true,
    });
  });

  it("trains on the user's history, saves 21 parameters, and keeps them when training again fits no better", async () => {
    const outcome = await optimizeScheduler(user.engram);
    expect(outcome.parameters).toHaveLength(21);
    expect(outcome.parameters.every(Number.isFinite)).toBe(true);
    expect(outcome.saved).toBe(true);
    expect(outcome.after.logLoss).toBeLessThan(outcome.before.logLoss);
    expect(outcome.after.rmseBins).toBeLessThan(outcome.before.rmseBins);
    const profile = await user.engram.profile.get();
    expect(profile.fsrs_params).toEqual(outcome.parameters);

    // Trained again on the same history, the new parameters fit no better than the saved ones: kept.
    const again = await optimizeScheduler(user.engram);
    expect(again.before).toEqual(outcome.after);
    expect(again.after.logLoss).toBeGreaterThanOrEqual(again.before.logLoss);
    expect(again.saved).toBe(false);
    expect((await user.engram.profile.get()).fsrs_params).toEqual(outcome.parameters);
  });

  it("counts study days in the profile's time zone from its day-start hour", async () => {
    const { fsrs_params: current } = await user.engram.profile.update({
      timezone: "Pacific/Kiritimati",
      day_starts_at: 0,
    });
    const rows = [];
    for (let from = 0; ; from += 1000) {
      const { data } = await admin
        .from("review_logs")
        .select("card_id, rating, reviewed_at, state")
        .eq("user_id", user.account.id)
        .order("id")
        .range(from, from + 999);
      rows.push(...(data ?? []));
      if ((data ?? []).length < 1000) break;
    }
    expect(rows).toHaveLength(1598);
    const logs = rows.map((row) => ({
      cardId: row.card_id,
      rating: row.rating as 1 | 2 | 3 | 4,
      reviewedAt: new Date(row.reviewed_at),
      state: row.state,
    }));
    const inZone = evaluateParameters(logs, current, { timeZone: "Pacific/Kiritimati", dayStartHour: 0 });
    const inUtc = evaluateParameters(logs, current, { timeZone: "UTC", dayStartHour: 4 });
    expect(inZone).not.toEqual(inUtc);
    const outcome = await optimizeScheduler(user.engram, { save: false });
    expect(outcome.before).toEqual(inZone);
  });

  it("says how many reviews it needs when there are too few", async () => {
    const user = await signedIn("few");
    const error = await failure(optimizeScheduler(user.engram));
    expect(error).toMatchObject({ code: "validation" });
    expect(error.message).toMatch(/400/);
  });
});
