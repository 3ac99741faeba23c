import { builtInNoteTypes, cardOrdinals, type NoteType, renameFieldInTemplates, renderCard } from "@engram/core";
import { describe, expect, test, vi } from "vitest";
import { EngramError } from "../src/errors.js";
import { signedIn } from "./support/engram.js";

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

async function ownerWithDeck(name = "Vocabulary") {
  const owner = await signedIn("owner");
  const deck = await owner.engram.decks.create({ name });
  return { owner, deck };
}

async function memberOf(owner: Awaited<ReturnType<typeof signedIn>>, deckId: string, role: "editor" | "viewer") {
  const member = await signedIn(role);
  await member.engram.invites.accept((await owner.engram.invites.create(deckId, { role })).token);
  return member;
}

const failure = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail("expected a refusal"),
    (error: unknown) => error,
  );

describe("note types", () => {
  test("a deck's owner adds one, members list and read it", async () => {
    const { owner, deck } = await ownerWithDeck();
    const created = await owner.engram.noteTypes.create(deck.id, vocabulary);
    expect(created).toMatchObject({ ...vocabulary, deck_id: deck.id, version: 1 });
    const viewer = await memberOf(owner, deck.id, "viewer");
    expect((await viewer.engram.noteTypes.list(deck.id)).map((type) => type.id)).toEqual([created.id]);
    expect(await viewer.engram.noteTypes.get(created.id)).toMatchObject({ templates: vocabulary.templates });
    expect(await failure(viewer.engram.noteTypes.create(deck.id, { ...vocabulary, name: "Mine" }))).toMatchObject({
      code: "permission-denied",
    });
  });

  test("Anki's rules are checked before anything is sent, with the field at fault", async () => {
    const { owner, deck } = await ownerWithDeck();
    const error = await failure(
      owner.engram.noteTypes.create(deck.id, { ...vocabulary, fields: ["Word", "Me:aning"] }),
    );
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "validation", field: "fields.1" });
    const noField = { ...vocabulary, templates: [{ name: "A", front: "plain", back: "{{Word}}" }] };
    expect(await failure(owner.engram.noteTypes.create(deck.id, noField))).toMatchObject({
      code: "validation",
      field: "templates.0.front",
    });
    expect(await owner.engram.noteTypes.list(deck.id)).toEqual([]);
  });

  test("custom notes carry their note type, make its cards and render with it", async () => {
    const { owner, deck } = await ownerWithDeck();
    const type = await owner.engram.noteTypes.create(deck.id, vocabulary);
    const fields = { Word: "perro", Meaning: "dog", Reverse: "y" };
    const note = await owner.engram.notes.create(deck.id, { kind: "custom", noteTypeId: type.id, fields });
    expect(note).toMatchObject({ kind: "custom", note_type_id: type.id, fields });
    expect(note.cards.map((card) => card.ordinal)).toEqual(
      cardOrdinals({ kind: "custom", noteType: type, fields, tags: [] }),
    );
    expect(renderCard({ kind: "custom", noteType: type, fields }, 2).front).toBe("dog");
    const listed = await owner.engram.notes.list(deck.id, { noteTypeId: type.id });
    expect(listed.notes.map((n) => n.id)).toEqual([note.id]);
    const wrong = await failure(
      owner.engram.notes.create(deck.id, { kind: "custom", noteTypeId: type.id, fields: { Word: "x" } }),
    );
    expect(wrong).toMatchObject({ code: "validation", field: "fields" });
  });

  test("an update states its version: a stale one is refused with note-type/conflict", async () => {
    const { owner, deck } = await ownerWithDeck();
    const type = await owner.engram.noteTypes.create(deck.id, vocabulary);
    const editor = await memberOf(owner, deck.id, "editor");
    const saved = await editor.engram.noteTypes.update(type.id, type.version, { css: ".card { color: teal; }" });
    expect(saved).toMatchObject({ css: ".card { color: teal; }", version: type.version + 1 });
    const stale = await failure(owner.engram.noteTypes.update(type.id, type.version, { name: "Words" }));
    expect(stale).toMatchObject({ code: "note-type/conflict", detail: { version: saved.version } });
  });

  test("a change that would drop cards needs deleteCards; a type in use cannot be removed", async () => {
    const { owner, deck } = await ownerWithDeck();
    const type = await owner.engram.noteTypes.create(deck.id, vocabulary);
    const note = await owner.engram.notes.create(deck.id, {
      kind: "custom",
      noteTypeId: type.id,
      fields: { Word: "uno", Meaning: "one", Reverse: "y" },
    });
    const onlyFirst = { templates: vocabulary.templates.slice(0, 1) };
    const refused = await failure(owner.engram.noteTypes.update(type.id, type.version, onlyFirst));
    expect(refused).toMatchObject({ code: "note-type/in-use", detail: { cards: 1 } });
    await owner.engram.noteTypes.update(type.id, type.version, onlyFirst, { deleteCards: true });
    expect((await owner.engram.cards.listForNote(note.id)).map((card) => card.ordinal)).toEqual([1]);

    expect(await failure(owner.engram.noteTypes.remove(type.id))).toMatchObject({
      code: "note-type/in-use",
      detail: { notes: 1 },
    });
    const current = await owner.engram.notes.get(note.id);
    await owner.engram.notes.remove([{ id: current.id, version: current.version }]);
    await owner.engram.noteTypes.remove(type.id);
    expect(await owner.engram.noteTypes.list(deck.id)).toEqual([]);
  });

  test("a field renamed and moved keeps each note's text, and templates moved keep their cards", async () => {
    const { owner, deck } = await ownerWithDeck();
    const type = await owner.engram.noteTypes.create(deck.id, vocabulary);
    const note = await owner.engram.notes.create(deck.id, {
      kind: "custom",
      noteTypeId: type.id,
      fields: { Word: "dos", Meaning: "two", Reverse: "y" },
    });
    const before = await owner.engram.cards.listForNote(note.id);
    const templates = renameFieldInTemplates(vocabulary.templates, new Map([["Word", "Term"]]));
    const saved = await owner.engram.noteTypes.update(
      type.id,
      type.version,
      {
        fields: ["Meaning", "Term", "Reverse", "Example"],
        templates: [templates[1], templates[0]] as typeof templates,
      },
      { fieldMap: [1, 0, 2, null], templateMap: [1, 0] },
    );
    expect(saved.fields).toEqual(["Meaning", "Term", "Reverse", "Example"]);
    expect(saved.templates[1]?.front).toBe("{{Term}}");
    expect((await owner.engram.notes.get(note.id)).fields).toEqual({
      Meaning: "two",
      Term: "dos",
      Reverse: "y",
      Example: "",
    });
    const after = await owner.engram.cards.listForNote(note.id);
    expect(after.map((card) => [card.id, card.ordinal])).toEqual(
      before.map((card) => [card.id, card.ordinal === 1 ? 2 : 1]).sort((a, b) => Number(a[1]) - Number(b[1])),
    );
  });

  test("dropping a field's text needs discardText; a map that does not fit is a validation error", async () => {
    const { owner, deck } = await ownerWithDeck();
    const type = await owner.engram.noteTypes.create(deck.id, vocabulary);
    const note = await owner.engram.notes.create(deck.id, {
      kind: "custom",
      noteTypeId: type.id,
      fields: { Word: "tres", Meaning: "three", Reverse: "" },
    });
    const withoutMeaning = {
      fields: ["Word", "Reverse"],
      templates: [{ name: "Recognise", front: "{{Word}}", back: "{{Word}}" }],
    };
    const keep = { fieldMap: [0, 2], templateMap: [0], deleteCards: true };
    expect(await failure(owner.engram.noteTypes.update(type.id, type.version, withoutMeaning, keep))).toMatchObject({
      code: "note-type/in-use",
      detail: { field: "Meaning", notes: 1 },
    });
    expect(
      await failure(
        owner.engram.noteTypes.update(type.id, type.version, withoutMeaning, { ...keep, fieldMap: [0, 0] }),
      ),
    ).toMatchObject({ code: "validation" });
    await owner.engram.noteTypes.update(type.id, type.version, withoutMeaning, { ...keep, discardText: true });
    expect((await owner.engram.notes.get(note.id)).fields).toEqual({ Word: "tres", Reverse: "" });
  });

  test("a new note type starts from Anki's stock type or a copy of another, under its own name", async () => {
    const { owner, deck } = await ownerWithDeck();
    const basic = await owner.engram.noteTypes.create({ deckId: deck.id, from: "basic", name: "My basic" });
    expect(basic).toMatchObject({ ...builtInNoteTypes.basic, name: "My basic", deck_id: deck.id });
    const words = await owner.engram.noteTypes.create(deck.id, vocabulary);
    const copy = await owner.engram.noteTypes.create({ deckId: deck.id, from: words.id, name: "Words 2" });
    expect(copy).toMatchObject({ ...vocabulary, name: "Words 2" });
    expect(copy.id).not.toBe(words.id);
    expect(
      await failure(owner.engram.noteTypes.create({ deckId: deck.id, from: "basic", name: "My basic" })),
    ).toMatchObject({ code: "conflict" });
    expect(await failure(owner.engram.noteTypes.create({ deckId: deck.id, from: "nope", name: "X" }))).toMatchObject({
      code: "validation",
    });
    await owner.engram.noteTypes.remove(copy.id);
    expect((await owner.engram.noteTypes.list(deck.id)).map((type) => type.name)).toEqual(["My basic", "Vocabulary"]);
  });

  test("Anki's stock types can be added as they are", async () => {
    const { owner, deck } = await ownerWithDeck();
    for (const type of Object.values(builtInNoteTypes)) {
      await owner.engram.noteTypes.create(deck.id, type as NoteType);
    }
    expect((await owner.engram.noteTypes.list(deck.id)).map((type) => type.name)).toEqual([
      "Basic",
      "Basic (and reversed card)",
      "Basic (type in the answer)",
      "Cloze",
    ]);
  });

  test("members hear a deck's note type changes on its topic", async () => {
    const { owner, deck } = await ownerWithDeck();
    const viewer = await memberOf(owner, deck.id, "viewer");
    const events: { table: string; type: string; ids: string[] | null }[] = [];
    let ready = false;
    const stop = viewer.engram.realtime.onDeckContent(
      deck.id,
      (event) => events.push(event as (typeof events)[number]),
      {
        onReady: () => {
          ready = true;
        },
      },
    );
    await vi.waitFor(() => expect(ready).toBe(true), { timeout: 8_000 });
    const type = await owner.engram.noteTypes.create(deck.id, vocabulary);
    await owner.engram.noteTypes.update(type.id, type.version, { css: "p {}" });
    await vi.waitFor(
      () =>
        expect(events.filter((event) => event.table === "note_types")).toEqual([
          { table: "note_types", type: "insert", ids: [type.id] },
          { table: "note_types", type: "update", ids: [type.id] },
        ]),
      { timeout: 8_000 },
    );
    await stop();
  });

  test("the study queue's custom notes carry their note type, so their cards render", async () => {
    const { owner, deck } = await ownerWithDeck();
    const type = await owner.engram.noteTypes.create(deck.id, vocabulary);
    await owner.engram.notes.create(deck.id, {
      kind: "custom",
      noteTypeId: type.id,
      fields: { Word: "luna", Meaning: "moon", Reverse: "y" },
    });
    // Siblings are buried by default: one card of the note today.
    const [card, ...rest] = await owner.engram.study.queue({ deckId: deck.id });
    expect(rest).toEqual([]);
    expect(card?.note).toMatchObject({ kind: "custom", noteType: { name: "Vocabulary", fields: vocabulary.fields } });
    const [question, answer] = card?.ordinal === 2 ? ["moon", "luna"] : ["luna", "moon"];
    expect(card && renderCard(card.note, card.ordinal)).toEqual({
      front: question,
      back: `${question}<hr id="answer" />${answer}`,
    });
  });

  test("a subdeck's notes may use its ancestors' note types, listed after its own", async () => {
    const { owner, deck } = await ownerWithDeck("Spanish");
    const sub = await owner.engram.decks.create({ name: "Verbs", parentId: deck.id });
    const parentType = await owner.engram.noteTypes.create(deck.id, vocabulary);
    const ownType = await owner.engram.noteTypes.create(sub.id, { ...vocabulary, name: "Conjugation" });
    expect((await owner.engram.noteTypes.list(sub.id)).map((type) => type.id)).toEqual([ownType.id]);
    const usable = await owner.engram.noteTypes.list(sub.id, { inherited: true });
    expect(usable.map((type) => type.id)).toEqual([ownType.id, parentType.id]);
    const note = await owner.engram.notes.create(sub.id, {
      kind: "custom",
      noteTypeId: parentType.id,
      fields: { Word: "ir", Meaning: "to go", Reverse: "" },
    });
    expect(note.cards.map((card) => card.ordinal)).toEqual([1]);
  });
});
