import { writeApkg } from "@engram/core/export";
import { beforeAll, describe, expect, test } from "vitest";
import type { EngramError } from "../src/errors.js";
import { importDeck, previewImport } from "../src/transfer/index.js";
import { adminClient, signedIn } from "./support/engram.js";

const admin = adminClient();
const filesIn = async (deckId: string) =>
  ((await admin.storage.from("media").list(deckId)).data ?? []).map((file) => file.name).sort();

describe("subdecks", () => {
  test("a subdeck is listed with its parent, and moving a deck into its own subtree is refused", async () => {
    const { engram } = await signedIn();
    const spanish = await engram.decks.create({ name: "Spanish" });
    const verbs = await engram.decks.create({ name: "Verbs", parentId: spanish.id });
    expect(verbs.parent_id).toBe(spanish.id);
    expect(await engram.decks.list()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: spanish.id, parent_id: null }),
        expect.objectContaining({ id: verbs.id, parent_id: spanish.id, role: "owner" }),
      ]),
    );

    const error = (await engram.decks.setParent(spanish.id, verbs.id).catch((e: unknown) => e)) as EngramError;
    expect(error).toMatchObject({ code: "validation", field: "parent_id" });
    expect((await engram.decks.get(spanish.id)).parent_id).toBeNull();

    await engram.decks.setParent(verbs.id, null);
    expect((await engram.decks.get(verbs.id)).parent_id).toBeNull();
    await engram.decks.setParent(verbs.id, spanish.id);
    expect((await engram.decks.get(verbs.id)).parent_id).toBe(spanish.id);
  });

  test("another user cannot add a subdeck to a deck they do not own", async () => {
    const ana = await signedIn();
    const ben = await signedIn();
    const deck = await ana.engram.decks.create({ name: "Ana's" });
    await expect(ben.engram.decks.create({ name: "Ben's", parentId: deck.id })).rejects.toMatchObject({
      code: expect.stringMatching(/^(permission-denied|not-found)$/),
    });
    expect((await ana.engram.decks.list()).map((d) => d.name)).toEqual(["Ana's"]);
  });

  test("the deck list's figures roll a tree up, and studying the parent gives its subdeck's cards", async () => {
    const { engram } = await signedIn();
    const parent = await engram.decks.create({ name: "Old Decks" });
    const child = await engram.decks.create({ name: "Board Review 2023", parentId: parent.id });
    await engram.notes.create(child.id, { kind: "basic", fields: { front: "Q1", back: "A1" }, tags: [] });
    await engram.notes.create(child.id, { kind: "basic", fields: { front: "Q2", back: "A2" }, tags: [] });

    const stats = await engram.stats.decks();
    expect(stats.find((row) => row.deck_id === parent.id)).toMatchObject({
      parent_id: null,
      new_today: 0,
      tree_new_today: 2,
    });
    expect(stats.find((row) => row.deck_id === child.id)).toMatchObject({ parent_id: parent.id, tree_new_today: 2 });

    const queue = await engram.study.queue({ deckId: parent.id });
    expect(queue.map((card) => card.deck_id)).toEqual([child.id, child.id]);
  });

  test("deleting a deck deletes its subdecks and their media", async () => {
    const { engram } = await signedIn();
    const parent = await engram.decks.create({ name: "Parent" });
    const child = await engram.decks.create({ name: "Child", parentId: parent.id });
    const image = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7])], {
      type: "image/png",
    });
    await engram.storage.uploadMedia(child.id, image, { name: "cat.png" });
    expect(await filesIn(child.id)).toEqual(["cat.png"]);

    await engram.decks.remove(parent.id);
    expect(await engram.decks.list()).toEqual([]);
    expect(await filesIn(child.id)).toEqual([]);
  });
});

describe("moving and copying a tree", () => {
  const words = {
    name: "Words",
    kind: "standard" as const,
    fields: ["Word", "Meaning"],
    templates: [{ name: "Card 1", front: "{{Word}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" }],
    css: "",
  };
  const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 3])], { type: "image/png" });

  test("a subdeck moved to the top level keeps its notes on a copy of its parent's note type", async () => {
    const { engram } = await signedIn();
    const parent = await engram.decks.create({ name: "Languages" });
    const child = await engram.decks.create({ name: "Spanish", parentId: parent.id });
    const type = await engram.noteTypes.create(parent.id, words);
    const note = await engram.notes.create(child.id, {
      kind: "custom",
      noteTypeId: type.id,
      fields: { Word: "sol", Meaning: "sun" },
    });

    await engram.decks.setParent(child.id, null);
    const [copy] = await engram.noteTypes.list(child.id);
    expect(copy).toMatchObject({ name: "Words", deck_id: child.id, fields: words.fields });
    const { notes } = await engram.notes.list(child.id);
    expect(notes).toEqual([expect.objectContaining({ id: note.id, note_type_id: copy?.id })]);
    expect(await engram.study.queue({ deckId: child.id })).toHaveLength(1);
  });

  test("a public deck is copied with its public subdecks, their notes and each deck's media", async () => {
    const owner = await signedIn();
    const top = await owner.engram.decks.create({ name: "Birds", is_public: true });
    const sub = await owner.engram.decks.create({ name: "Owls", is_public: true, parentId: top.id });
    const hidden = await owner.engram.decks.create({ name: "Drafts", parentId: top.id });
    const type = await owner.engram.noteTypes.create(top.id, words);
    await owner.engram.storage.uploadMedia(sub.id, png, { name: "owl.png" });
    await owner.engram.notes.create(sub.id, {
      kind: "custom",
      noteTypeId: type.id,
      fields: { Word: '<img src="owl.png">', Meaning: "owl" },
    });
    await owner.engram.notes.create(hidden.id, { kind: "basic", fields: { front: "Q", back: "A" }, tags: [] });

    const cloner = await signedIn();
    const copyId = await cloner.engram.decks.clone(top.id);
    const decks = await cloner.engram.decks.list();
    expect(decks.map(({ name, parent_id, cloned_from }) => ({ name, parent_id, cloned_from }))).toEqual(
      expect.arrayContaining([
        { name: "Birds (copy)", parent_id: null, cloned_from: top.id },
        { name: "Owls", parent_id: copyId, cloned_from: sub.id },
      ]),
    );
    expect(decks).toHaveLength(2);
    const owls = decks.find((deck) => deck.name === "Owls")?.id ?? "";
    expect(await filesIn(owls)).toEqual(["owl.png"]);
    expect((await cloner.engram.notes.list(owls)).notes.map((note) => note.fields)).toEqual([
      { Word: '<img src="owl.png">', Meaning: "owl" },
    ]);
    expect((await cloner.engram.noteTypes.list(copyId)).map((t) => t.name)).toEqual(["Words"]);
    expect(await cloner.engram.study.queue({ deckId: copyId })).toHaveLength(1);
  });

  test("a copy whose subdeck's file fails to copy leaves no deck and no file behind", async () => {
    const owner = await signedIn();
    const top = await owner.engram.decks.create({ name: "Trees", is_public: true });
    const sub = await owner.engram.decks.create({ name: "Oaks", is_public: true, parentId: top.id });
    await owner.engram.storage.uploadMedia(top.id, png, { name: "tree.png" });
    const acorn = await owner.engram.storage.uploadMedia(sub.id, png, { name: "acorn.png" });
    // A real failure: the owner deletes the subdeck's file just before the cloner's copy of it is sent.
    const copies: string[] = [];
    const orderedFetch: typeof fetch = async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith("/storage/v1/object/copy")) {
        const body = JSON.parse(String(init?.body)) as { sourceKey: string; destinationKey: string };
        copies.push(body.destinationKey);
        if (body.sourceKey === acorn) await owner.engram.storage.removeMedia(acorn);
      }
      return fetch(input, init);
    };
    const cloner = await signedIn("cloner", { global: { fetch: orderedFetch } });

    await expect(cloner.engram.decks.clone(top.id)).rejects.toMatchObject({ code: "not-found" });
    // The top deck's file was copied first: the cleanup had it to remove.
    expect(copies).toHaveLength(2);
    const [topCopy, subCopy] = copies.map((key) => key.split("/")[0] ?? "");
    expect(await filesIn(topCopy ?? "")).toEqual([]);
    expect(await filesIn(subCopy ?? "")).toEqual([]);
    expect(await cloner.engram.decks.list()).toEqual([]);
    expect(await filesIn(top.id)).toEqual(["tree.png"]);
  });
});

describe("importing an Anki package's deck tree", () => {
  const png = Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
    (char) => char.charCodeAt(0),
  );
  let file: { name: string; data: Uint8Array };
  beforeAll(async () => {
    const note = (id: number, deckName: string, front: string) => ({
      id,
      guid: `guid-${id}`,
      kind: "basic" as const,
      fields: { front, back: `Back ${id}` },
      tags: [],
      cards: [{ id, ordinal: 1 }],
      deckName,
    });
    file = {
      name: "subdecks.apkg",
      data: await writeApkg({
        name: "Subdecks",
        notes: [
          note(1, "Spanish", "hola"),
          note(2, "Old Decks::Board Review 2023", 'Heart <img src="heart.png">'),
          note(3, "Old Decks::Board Review 2023", "Lung"),
          note(4, "Example Deck", "Example"),
        ],
        media: [{ name: "heart.png", data: png }],
      }),
    };
  });

  test("makes one deck per Anki deck with its notes and media, and importing again adds nothing", async () => {
    const { engram } = await signedIn();
    const preview = await previewImport(file);
    expect(preview.format === "apkg" && preview.deckNames).toEqual([
      "Example Deck",
      "Old Decks::Board Review 2023",
      "Spanish",
    ]);

    const summary = await importDeck(engram, file, { target: { newDeckName: "Subdecks" } });
    expect(summary.notesAdded).toBe(4);
    const decks = await engram.decks.list();
    const byId = new Map(decks.map((deck) => [deck.id, deck]));
    const pathOf = (id: string | null): string[] => {
      const deck = id ? byId.get(id) : undefined;
      return deck ? [...pathOf(deck.parent_id), deck.name] : [];
    };
    expect(decks.map((deck) => pathOf(deck.id).join(" › ")).sort()).toEqual([
      "Subdecks",
      "Subdecks › Example Deck",
      "Subdecks › Old Decks",
      "Subdecks › Old Decks › Board Review 2023",
      "Subdecks › Spanish",
    ]);
    const board = decks.find((deck) => deck.name === "Board Review 2023");
    if (!board) throw new Error("no Board Review deck");
    const notes = await engram.notes.list(board.id);
    expect(notes.notes.map((note) => (note.fields as { front: string }).front).sort()).toEqual([
      'Heart <img src="heart.png" />',
      "Lung",
    ]);
    // No deck tag when the tree is kept; the image is where the card view looks for it.
    expect(notes.notes.every((note) => note.tags.length === 0)).toBe(true);
    expect(await filesIn(board.id)).toEqual(["heart.png"]);
    expect(await filesIn(summary.deckId)).toEqual([]);

    const again = await importDeck(engram, file, { target: { deckId: summary.deckId } });
    expect(again).toMatchObject({ notesAdded: 0, notesSkipped: 4 });
    expect(await engram.decks.list()).toHaveLength(5);
  });

  test("as one deck, every note goes to the target with its deck path as a tag", async () => {
    const { engram } = await signedIn();
    const summary = await importDeck(engram, file, { target: { newDeckName: "Flat" }, deckTree: false });
    expect(summary.notesAdded).toBe(4);
    expect(await engram.decks.list()).toHaveLength(1);
    const notes = await engram.notes.list(summary.deckId);
    expect(notes.notes.flatMap((note) => note.tags).sort()).toEqual([
      "Example_Deck",
      "Old_Decks::Board_Review_2023",
      "Old_Decks::Board_Review_2023",
      "Spanish",
    ]);
  });
});
