import { describe, expect, test } from "vitest";
import { EngramError } from "../src/errors.js";
import { signedIn } from "./support/engram.js";

const basic = (front: string, back = "answer", tags: string[] = []) => ({
  kind: "basic" as const,
  fields: { front, back },
  tags,
});

async function ownerWithDeck(name = "Spanish") {
  const owner = await signedIn("owner");
  const deck = await owner.engram.decks.create({ name });
  return { owner, deck };
}

async function memberOf(owner: Awaited<ReturnType<typeof signedIn>>, deckId: string, role: "editor" | "viewer") {
  const member = await signedIn(role);
  await member.engram.invites.accept((await owner.engram.invites.create(deckId, { role })).token);
  return member;
}

describe("notes", () => {
  test("a new note comes back with its generated cards", async () => {
    const { owner, deck } = await ownerWithDeck();
    const basicNote = await owner.engram.notes.create(deck.id, basic("perro", "dog"));
    expect(basicNote).toMatchObject({ deck_id: deck.id, kind: "basic", created_by: owner.account.id });
    expect(basicNote.cards.map((c) => c.ordinal)).toEqual([1]);

    const reversed = await owner.engram.notes.create(deck.id, { ...basic("gato", "cat"), kind: "basic_reversed" });
    expect(reversed.cards.map((c) => c.ordinal)).toEqual([1, 2]);

    const cloze = await owner.engram.notes.create(deck.id, {
      kind: "cloze",
      fields: { text: "{{c1::Madrid}} is the capital of {{c2::Spain}}; {{c1::Madrid}} again" },
    });
    expect(cloze.cards.map((c) => c.ordinal)).toEqual([1, 2]);
    expect(await owner.engram.notes.get(cloze.id)).toMatchObject({ fields: { text: expect.any(String), extra: "" } });
  });

  test("a type-in note has one card and is found by its kind", async () => {
    const { owner, deck } = await ownerWithDeck();
    const typed = await owner.engram.notes.create(deck.id, { ...basic("Capital of Peru?", "Lima"), kind: "type_in" });
    expect(typed).toMatchObject({ kind: "type_in", fields: { front: "Capital of Peru?", back: "Lima" } });
    expect(typed.cards.map((c) => c.ordinal)).toEqual([1]);
    await owner.engram.notes.create(deck.id, basic("perro", "dog"));
    const found = await owner.engram.notes.list(deck.id, { kind: "type_in" });
    expect([found.total, found.notes.map((n) => n.id)]).toEqual([1, [typed.id]]);
  });

  test("an empty front fails validation with the field and rule, and nothing is saved", async () => {
    const { owner, deck } = await ownerWithDeck();
    const error = await owner.engram.notes.create(deck.id, basic("<p> </p>")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "validation", field: "fields.front", rule: "custom" });
    const cloze = await owner.engram.notes
      .create(deck.id, { kind: "cloze", fields: { text: "no deletions here" } })
      .catch((e: unknown) => e);
    expect(cloze).toMatchObject({ code: "validation", field: "fields.text" });
    const tags = await owner.engram.notes.create(deck.id, basic("a", "b", ["two words"])).catch((e: unknown) => e);
    expect(tags).toMatchObject({ code: "validation", field: "tags.0" });
    expect((await owner.engram.notes.list(deck.id)).total).toBe(0);
  });

  test("a viewer cannot add, edit or delete notes; a stranger finds no deck", async () => {
    const { owner, deck } = await ownerWithDeck();
    const note = await owner.engram.notes.create(deck.id, basic("hola", "hello"));
    const viewer = await memberOf(owner, deck.id, "viewer");
    await expect(viewer.engram.notes.create(deck.id, basic("adiós"))).rejects.toMatchObject({
      code: "permission-denied",
    });
    await expect(viewer.engram.notes.update(note.id, note.version, basic("changed"))).rejects.toMatchObject({
      code: "permission-denied",
    });
    await expect(viewer.engram.notes.remove([note])).rejects.toMatchObject({ code: "permission-denied" });

    const stranger = await signedIn("stranger");
    await expect(stranger.engram.notes.create(deck.id, basic("x"))).rejects.toMatchObject({ code: "not-found" });
    await expect(stranger.engram.notes.get(note.id)).rejects.toMatchObject({ code: "not-found" });
    await expect(stranger.engram.notes.list(deck.id)).rejects.toMatchObject({ code: "not-found" });
    await expect(stranger.engram.notes.update(note.id, note.version, basic("x"))).rejects.toMatchObject({
      code: "not-found",
    });

    expect((await owner.engram.notes.list(deck.id)).notes).toEqual([
      expect.objectContaining({ id: note.id, fields: { front: "hola", back: "hello" } }),
    ]);
  });

  test("an editor edits a note; surviving cards keep their ids", async () => {
    const { owner, deck } = await ownerWithDeck();
    const editor = await memberOf(owner, deck.id, "editor");
    const note = await owner.engram.notes.create(deck.id, { ...basic("casa", "house"), kind: "basic_reversed" });
    const edited = await editor.engram.notes.update(note.id, note.version, basic("la casa", "the house", ["noun"]));
    expect(edited).toMatchObject({ kind: "basic", fields: { front: "la casa" }, tags: ["noun"] });
    expect(edited.cards).toEqual([note.cards[0]]);
  });

  test("of two members editing the same note, the second save is refused and the first's change stays", async () => {
    const { owner, deck } = await ownerWithDeck();
    const editor = await memberOf(owner, deck.id, "editor");
    const note = await owner.engram.notes.create(deck.id, basic("casa", "house"));
    const opened = await editor.engram.notes.get(note.id);

    const first = await owner.engram.notes.update(note.id, note.version, basic("la casa", "the house"));
    expect(first.version).toBe(note.version + 1);
    const error = await editor.engram.notes
      .update(opened.id, opened.version, basic("casa", "home"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "note/conflict", detail: { version: first.version } });
    expect(await editor.engram.notes.get(note.id)).toMatchObject({
      fields: { front: "la casa", back: "the house" },
      version: first.version,
    });

    const reloaded = await editor.engram.notes.get(note.id);
    const saved = await editor.engram.notes.update(note.id, reloaded.version, basic("la casa", "home"));
    expect(saved).toMatchObject({ fields: { front: "la casa", back: "home" }, version: reloaded.version + 1 });
  });

  test("a note that does not exist is not found", async () => {
    const { owner } = await ownerWithDeck();
    const missing = "00000000-0000-4000-8000-000000000000";
    await expect(owner.engram.notes.get(missing)).rejects.toMatchObject({ code: "not-found" });
    await expect(owner.engram.notes.update(missing, 1, basic("x"))).rejects.toMatchObject({ code: "not-found" });
    await expect(owner.engram.notes.remove([{ id: missing, version: 1 }])).rejects.toMatchObject({ code: "not-found" });
  });

  test("search matches text in fields and tags by tag:, with a total over all pages", async () => {
    const { owner, deck } = await ownerWithDeck();
    await owner.engram.notes.create(deck.id, basic("<b>correr</b>", "to run", ["verb"]));
    await owner.engram.notes.create(deck.id, basic("comer", "to eat", ["verb", "food"]));
    await owner.engram.notes.create(deck.id, basic("manzana", "apple", ["food"]));

    const run = await owner.engram.notes.list(deck.id, { search: "correr" });
    expect(run.notes.map((n) => n.fields)).toEqual([{ front: "<b>correr</b>", back: "to run" }]);
    expect((await owner.engram.notes.list(deck.id, { search: "to -eat" })).total).toBe(1);
    expect((await owner.engram.notes.list(deck.id, { search: "tag:food" })).total).toBe(2);
    expect((await owner.engram.notes.list(deck.id, { search: "corr" })).total).toBe(1);
    expect((await owner.engram.notes.list(deck.id, { tags: ["verb", "food"] })).notes).toHaveLength(1);

    const page = await owner.engram.notes.list(deck.id, { limit: 2, offset: 2 });
    expect(page.total).toBe(3);
    expect(page.notes.map((n) => n.fields)).toEqual([{ front: "<b>correr</b>", back: "to run" }]);
    expect((await owner.engram.notes.list(deck.id, { search: "nothing-like-this" })).total).toBe(0);
  });

  test("notes filter by kind and sort by age, last edit or first field", async () => {
    const { owner, deck } = await ownerWithDeck();
    const banana = await owner.engram.notes.create(deck.id, basic("banana", "yellow"));
    const apple = await owner.engram.notes.create(deck.id, { ...basic("Apple", "red"), kind: "basic_reversed" });
    const cloze = await owner.engram.notes.create(deck.id, { kind: "cloze", fields: { text: "{{c1::cherry}} pie" } });
    await owner.engram.notes.update(banana.id, banana.version, basic("banana", "yellow fruit"));
    const order = async (sort: "newest" | "oldest" | "edited" | "alphabetical") =>
      (await owner.engram.notes.list(deck.id, { sort })).notes.map((n) => n.id);

    expect(await order("newest")).toEqual([cloze.id, apple.id, banana.id]);
    expect(await order("oldest")).toEqual([banana.id, apple.id, cloze.id]);
    expect(await order("edited")).toEqual([banana.id, cloze.id, apple.id]);
    // Basic notes by their front, then cloze notes by their text.
    expect(await order("alphabetical")).toEqual([apple.id, banana.id, cloze.id]);

    const reversed = await owner.engram.notes.list(deck.id, { kind: "basic_reversed" });
    expect([reversed.total, reversed.notes.map((n) => n.id)]).toEqual([1, [apple.id]]);
    expect((await owner.engram.notes.list(deck.id, { kind: "cloze", search: "banana" })).total).toBe(0);
    await expect(owner.engram.notes.list(deck.id, { sort: "random" as never })).rejects.toMatchObject({
      code: "validation",
      field: "sort",
    });
    await expect(owner.engram.notes.list(deck.id, { kind: "image" as never })).rejects.toMatchObject({
      code: "validation",
      field: "kind",
    });
  });

  test("the ids of every matching note come with the total, for select-all", async () => {
    const { owner, deck } = await ownerWithDeck();
    const verb = await owner.engram.notes.create(deck.id, basic("correr", "to run", ["verb"]));
    await owner.engram.notes.create(deck.id, basic("mesa", "table", ["noun"]));
    expect(await owner.engram.notes.ids(deck.id, { tags: ["verb"] })).toEqual({
      ids: [verb.id],
      notes: [{ id: verb.id, version: 1 }],
      total: 1,
    });
    expect((await owner.engram.notes.ids(deck.id)).total).toBe(2);
    const stranger = await signedIn("stranger");
    await expect(stranger.engram.notes.ids(deck.id)).rejects.toMatchObject({ code: "not-found" });
  });

  test("removing notes deletes them with their cards, all or none", async () => {
    const { owner, deck } = await ownerWithDeck();
    const a = await owner.engram.notes.create(deck.id, basic("uno"));
    const b = await owner.engram.notes.create(deck.id, basic("dos"));
    const other = await ownerWithDeck("Theirs");
    const theirs = await other.owner.engram.notes.create(other.deck.id, basic("tres"));

    await expect(owner.engram.notes.remove([a, theirs])).rejects.toMatchObject({ code: "not-found" });
    expect((await owner.engram.notes.list(deck.id)).total).toBe(2);

    expect(await owner.engram.notes.remove([a, b])).toBe(2);
    expect((await owner.engram.notes.list(deck.id)).total).toBe(0);
    await expect(owner.engram.cards.listForNote(a.id)).rejects.toMatchObject({ code: "not-found" });
    await expect(owner.engram.notes.remove([])).rejects.toMatchObject({ code: "validation" });
  });

  test("a bulk action from a stale version fails with note/conflict naming the changed notes, changing nothing", async () => {
    const { owner, deck } = await ownerWithDeck();
    const target = await owner.engram.decks.create({ name: "Elsewhere" });
    const a = await owner.engram.notes.create(deck.id, basic("uno"));
    const b = await owner.engram.notes.create(deck.id, basic("dos"));
    const editor = await memberOf(owner, deck.id, "editor");
    await editor.engram.notes.update(b.id, b.version, basic("dos", "two, edited"));

    const conflict = { code: "note/conflict", detail: { notes: [{ id: b.id, version: 2 }] } };
    await expect(owner.engram.notes.remove([a, b])).rejects.toMatchObject(conflict);
    await expect(owner.engram.notes.move([a, b], target.id)).rejects.toMatchObject(conflict);
    await expect(owner.engram.notes.addTags([a, b], ["late"])).rejects.toMatchObject(conflict);
    await expect(owner.engram.notes.removeTags([a, b], ["late"])).rejects.toMatchObject(conflict);
    const notes = (await owner.engram.notes.list(deck.id)).notes;
    expect(notes.map((note) => [note.id, note.version, note.tags]).sort()).toEqual(
      [
        [a.id, 1, []],
        [b.id, 2, []],
      ].sort(),
    );

    // Reloaded, the same action goes through.
    expect(await owner.engram.notes.remove(notes)).toBe(2);
  });

  test("notes move to another deck the user edits, with their cards", async () => {
    const { owner, deck } = await ownerWithDeck();
    const target = await owner.engram.decks.create({ name: "Vocabulary" });
    const note = await owner.engram.notes.create(deck.id, basic("libro", "book"));
    expect(await owner.engram.notes.move([note], target.id)).toBe(1);
    expect(await owner.engram.notes.get(note.id)).toMatchObject({ deck_id: target.id });
    expect((await owner.engram.cards.listForNote(note.id))[0]).toMatchObject({ deck_id: target.id });
  });

  test("notes cannot move into a deck one only views, nor into an unknown deck", async () => {
    const { owner, deck } = await ownerWithDeck();
    const note = await owner.engram.notes.create(deck.id, basic("libro", "book"));
    const other = await ownerWithDeck("Read only");
    const viewer = await memberOf(other.owner, other.deck.id, "viewer");
    await viewer.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "editor" })).token);

    await expect(viewer.engram.notes.move([note], other.deck.id)).rejects.toMatchObject({
      code: "permission-denied",
    });
    await expect(owner.engram.notes.move([note], other.deck.id)).rejects.toMatchObject({ code: "not-found" });
    expect(await owner.engram.notes.get(note.id)).toMatchObject({ deck_id: deck.id });
  });

  test("tags are added and removed in bulk", async () => {
    const { owner, deck } = await ownerWithDeck();
    const a = await owner.engram.notes.create(deck.id, basic("uno", "one", ["number"]));
    const b = await owner.engram.notes.create(deck.id, basic("dos", "two"));
    const tagged = await owner.engram.notes.addTags([a, b], ["number", "lesson-1"]);
    expect(Object.fromEntries(tagged.map((n) => [n.id, n.tags]))).toEqual({
      [a.id]: ["number", "lesson-1"],
      [b.id]: ["number", "lesson-1"],
    });
    await owner.engram.notes.removeTags(tagged, ["number"]);
    expect((await owner.engram.notes.get(a.id)).tags).toEqual(["lesson-1"]);
    expect((await owner.engram.notes.list(deck.id, { tags: ["lesson-1"] })).total).toBe(2);
  });

  test("bulk tags that would break a rule change no note", async () => {
    const { owner, deck } = await ownerWithDeck();
    const full = Array.from({ length: 50 }, (_, i) => `t${i}`);
    const a = await owner.engram.notes.create(deck.id, basic("uno", "one", full));
    const b = await owner.engram.notes.create(deck.id, basic("dos", "two"));
    // The first note would get a 51st tag: the database refuses the whole change, so the second is untouched too.
    await expect(owner.engram.notes.addTags([a, b], ["one-more"])).rejects.toMatchObject({
      code: "validation",
      rule: "notes_tags_count",
    });
    expect((await owner.engram.notes.get(a.id)).tags).toEqual(full);
    expect((await owner.engram.notes.get(b.id)).tags).toEqual([]);
    await expect(owner.engram.notes.addTags([b], ["has space"])).rejects.toMatchObject({
      code: "validation",
      field: "tags.0",
    });
    expect((await owner.engram.notes.get(b.id)).tags).toEqual([]);

    const viewer = await memberOf(owner, deck.id, "viewer");
    await expect(viewer.engram.notes.addTags([b], ["mine"])).rejects.toMatchObject({ code: "permission-denied" });
    expect((await owner.engram.notes.get(b.id)).tags).toEqual([]);
  });
});
