import { writeApkg } from "@engram/core/export";
import { readAnkiPackage } from "@engram/core/import";
import { describe, expect, test } from "vitest";
import type { EngramError } from "../src/errors.js";
import { exportDeck, importDeck } from "../src/transfer/index.js";
import { signedIn } from "./support/engram.js";

const refusal = (call: Promise<unknown>) => call.then(() => null).catch((error: unknown) => error as EngramError);

describe("deck presets", () => {
  test("a preset's options reach every deck using it, the study queue included, and are counted by deck", async () => {
    const { engram } = await signedIn();
    const biology = await engram.decks.create({ name: "Biology" });
    const chemistry = await engram.decks.create({ name: "Chemistry" });
    for (let i = 1; i <= 12; i += 1) {
      await engram.notes.create(chemistry.id, { kind: "basic", fields: { front: `Q${i}`, back: `A${i}` }, tags: [] });
    }
    const exam = await engram.presets.create({ name: "  Exam ", new_per_day: 7, leech_action: "tag_only" });
    expect(exam).toMatchObject({ name: "Exam", new_per_day: 7, reviews_per_day: null, leech_threshold: 8 });
    expect(exam.deck_count).toBe(0);

    await engram.decks.setPreset(biology.id, exam.id);
    await engram.decks.setPreset(chemistry.id, exam.id);
    expect(await engram.decks.get(chemistry.id)).toMatchObject({ preset_id: exam.id, new_per_day: 7 });
    expect(await engram.presets.list()).toEqual([expect.objectContaining({ id: exam.id, deck_count: 2 })]);

    const updated = await engram.presets.update(exam.id, { new_per_day: 9 });
    expect(updated).toMatchObject({ new_per_day: 9, leech_action: "tag_only", deck_count: 2 });
    expect((await engram.decks.get(biology.id)).new_per_day).toBe(9);
    expect(await engram.study.queue({ deckId: chemistry.id })).toHaveLength(9);
  });

  test("a limit of the deck's own takes it off its preset; removing a preset leaves its decks' options", async () => {
    const { engram } = await signedIn();
    const deck = await engram.decks.create({ name: "History" });
    const other = await engram.decks.create({ name: "Geography" });
    const preset = await engram.presets.create({ name: "Light", new_per_day: 5, bury_new: false });
    await engram.decks.setPreset(deck.id, preset.id);
    await engram.decks.setPreset(other.id, preset.id);

    // Saving the preset's own values (a rename) keeps it; another value leaves it.
    expect(await engram.decks.update(deck.id, { name: "World history", new_per_day: 5 })).toMatchObject({
      preset_id: preset.id,
    });
    expect(await engram.decks.update(deck.id, { new_per_day: 30 })).toMatchObject({
      preset_id: null,
      new_per_day: 30,
      bury_new: false,
    });

    await engram.presets.remove(preset.id);
    expect(await engram.decks.get(other.id)).toMatchObject({ preset_id: null, new_per_day: 5, bury_new: false });
    expect(await engram.presets.list()).toEqual([]);
    expect(await refusal(engram.presets.remove(preset.id))).toMatchObject({ code: "not-found" });
  });

  test("bad input and a name in use are the name or option field's fault, and nothing is saved", async () => {
    const { engram } = await signedIn();
    await engram.presets.create({ name: "Exam" });
    expect(await refusal(engram.presets.create({ name: "Exam" }))).toMatchObject({ code: "validation", field: "name" });
    expect(await refusal(engram.presets.create({ name: " " }))).toMatchObject({ code: "validation", field: "name" });
    expect(await refusal(engram.presets.create({ name: "Big", new_per_day: 10_000 }))).toMatchObject({
      code: "validation",
      field: "new_per_day",
    });
    expect((await engram.presets.list()).map((preset) => preset.name)).toEqual(["Exam"]);
  });

  test("only the deck's owner chooses its preset, and only among their own presets", async () => {
    const ana = await signedIn();
    const ben = await signedIn();
    const deck = await ana.engram.decks.create({ name: "Ana's", new_per_day: 3 });
    const bensPreset = await ben.engram.presets.create({ name: "Ben's", new_per_day: 50 });
    const bensDeck = await ben.engram.decks.create({ name: "Ben's deck" });

    expect(await refusal(ana.engram.decks.setPreset(deck.id, bensPreset.id))).toMatchObject({
      code: "validation",
      field: "preset_id",
    });
    expect(await refusal(ana.engram.decks.setPreset(bensDeck.id, null))).toMatchObject({ code: "not-found" });
    expect(await refusal(ana.engram.presets.update(bensPreset.id, { new_per_day: 1 }))).toMatchObject({
      code: "not-found",
    });
    expect(await ana.engram.decks.get(deck.id)).toMatchObject({ preset_id: null, new_per_day: 3 });
    expect(await ben.engram.presets.list()).toEqual([expect.objectContaining({ new_per_day: 50 })]);
  });
});

describe("presets in Anki packages", () => {
  const exam = {
    id: "exam",
    name: "Exam",
    newPerDay: 7,
    reviewsPerDay: 150,
    leechThreshold: 5,
    leechAction: "tag_only" as const,
    buryNew: true,
    buryReviews: false,
    buryInterdayLearning: true,
  };
  const note = (id: number, deckName: string, front: string) => ({
    id,
    kind: "basic" as const,
    fields: { front, back: "back" },
    tags: [],
    cards: [{ id: `${id}-1`, ordinal: 1 }],
    deckName,
  });
  const medicine = async () => ({
    name: "medicine.apkg",
    data: await writeApkg({
      name: "Medicine",
      notes: [note(1, "Medicine::Heart", "Aorta"), note(2, "Medicine::Lungs", "Alveoli")],
      media: [],
      presets: [exam],
      deckPresets: { "Medicine::Heart": "exam", "Medicine::Lungs": "exam" },
    }),
  });

  test("two subdecks sharing an option group share one preset with its options, and importing again makes no other", async () => {
    const { engram } = await signedIn();
    const file = await medicine();
    const first = await importDeck(engram, file, { target: { newDeckName: "Imported" }, includePresets: true });
    const decks = await engram.decks.list();
    const deck = (name: string) => decks.find((candidate) => candidate.name === name);
    const presets = await engram.presets.list();
    const imported = presets.find((preset) => preset.name === "Exam");
    expect(imported).toMatchObject({
      new_per_day: 7,
      reviews_per_day: 150,
      leech_threshold: 5,
      leech_action: "tag_only",
      bury_new: true,
      bury_reviews: false,
      bury_interday_learning: true,
      deck_count: 2,
    });
    expect(deck("Heart")).toMatchObject({ preset_id: imported?.id, new_per_day: 7, leech_action: "tag_only" });
    expect(deck("Lungs")).toMatchObject({ preset_id: imported?.id, new_per_day: 7 });
    // The package's own top deck studies with Anki's Default group; the import's deck keeps its own options.
    expect(presets.map((preset) => preset.name).sort()).toEqual(["Default", "Exam"]);
    expect(deck("Medicine")?.preset_id).toBe(presets.find((preset) => preset.name === "Default")?.id);
    expect(deck("Imported")?.preset_id).toBeNull();

    // Into the same deck (its decks are there already) and into a new one: the same presets.
    await importDeck(engram, file, { target: { deckId: first.deckId }, includePresets: true });
    await importDeck(engram, file, { target: { newDeckName: "Again" }, includePresets: true });
    const after = await engram.presets.list();
    expect(after.map(({ id, name }) => ({ id, name }))).toEqual(presets.map(({ id, name }) => ({ id, name })));
    expect(after.find((preset) => preset.id === imported?.id)?.deck_count).toBe(4);
  });

  test("without asking for presets, as Anki's default, the decks an import makes take each member's own limits", async () => {
    const { engram } = await signedIn();
    await importDeck(engram, await medicine(), { target: { newDeckName: "Plain" } });
    expect(await engram.presets.list()).toEqual([]);
    const decks = await engram.decks.list();
    expect(
      decks
        .map(({ name, preset_id, new_per_day }) => ({ name, preset_id, new_per_day }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual([
      { name: "Heart", preset_id: null, new_per_day: null },
      { name: "Lungs", preset_id: null, new_per_day: null },
      { name: "Medicine", preset_id: null, new_per_day: null },
      { name: "Plain", preset_id: null, new_per_day: null },
    ]);
  });

  test("an exported deck carries its preset as the package's option group", async () => {
    const { engram } = await signedIn();
    const deck = await engram.decks.create({ name: "Cardiology" });
    await engram.notes.create(deck.id, { kind: "basic", fields: { front: "Q", back: "A" }, tags: [] });
    const preset = await engram.presets.create({
      name: "Boards",
      new_per_day: 12,
      leech_threshold: 6,
      bury_new: false,
    });
    await engram.decks.setPreset(deck.id, preset.id);

    const exported = await exportDeck(engram, deck.id, { format: "apkg" });
    const pkg = await readAnkiPackage(exported.data);
    const group = pkg.deckConfigs.find((config) => config.name === "Boards");
    expect(group).toMatchObject({ newPerDay: 12, reviewsPerDay: 200, leechThreshold: 6, buryNew: false });
    expect(pkg.decks.find((d) => d.name === "Cardiology")?.configId).toBe(group?.id);
  });
});
