import type { NoteType } from "@engram/core";
import { describe, expect, test } from "vitest";
import { EngramError } from "../src/errors.js";
import { signedIn } from "./support/engram.js";

// The browser's columns sort on the server: by the sort field (a note's first
// field as plain text, ignoring case), by when notes were added or edited, or
// by one field of a note type, whatever its name.

const travel: NoteType = {
  name: "Travel",
  kind: "standard",
  fields: ["City", "Local name", "Country, region"],
  templates: [{ name: "City", front: "{{City}}", back: "{{FrontSide}}<hr id=answer>{{Local name}}" }],
  css: "",
};

async function deckWithTravelNotes() {
  const owner = await signedIn("owner");
  const deck = await owner.engram.decks.create({ name: "Cities" });
  const type = await owner.engram.noteTypes.create(deck.id, travel);
  const cities = [
    { City: "<b>Munich</b>", "Local name": "München", "Country, region": "Germany, Bavaria" },
    { City: "Vienna", "Local name": "Wien", "Country, region": "Austria" },
    { City: "Cologne", "Local name": "Köln", "Country, region": "Germany, North Rhine-Westphalia" },
  ];
  for (const fields of cities) {
    await owner.engram.notes.create(deck.id, { kind: "custom", noteTypeId: type.id, fields });
  }
  return { owner, deck, type };
}

const cityNames = (notes: { sort_field: string }[]) => notes.map((note) => note.sort_field);

describe("sorting a deck's notes", () => {
  test("by a field whose name has a space, either way, and by one with a comma", async () => {
    const { owner, deck, type } = await deckWithTravelNotes();
    const list = (sort: Parameters<typeof owner.engram.notes.list>[1]) =>
      owner.engram.notes.list(deck.id, { noteTypeId: type.id, ...sort });
    const ascending = await list({ sort: { by: { field: "Local name" }, dir: "asc" } });
    expect(cityNames(ascending.notes)).toEqual(["Cologne", "Munich", "Vienna"]);
    const descending = await list({ sort: { by: { field: "Local name" }, dir: "desc" } });
    expect(cityNames(descending.notes)).toEqual(["Vienna", "Munich", "Cologne"]);
    const byRegion = await list({ sort: { by: { field: "Country, region" } } });
    expect(cityNames(byRegion.notes)).toEqual(["Vienna", "Munich", "Cologne"]);
  });

  test("by the sort field, a custom note among basic and cloze ones, ignoring case and markup", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Mixed" });
    const type = await owner.engram.noteTypes.create(deck.id, travel);
    await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "zebra", back: "" } });
    await owner.engram.notes.create(deck.id, {
      kind: "custom",
      noteTypeId: type.id,
      fields: { City: "<i>Lisbon</i>", "Local name": "Lisboa", "Country, region": "Portugal" },
    });
    await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Apple", back: "" } });
    await owner.engram.notes.create(deck.id, { kind: "cloze", fields: { text: "{{c1::mango}} is a fruit" } });
    const ascending = await owner.engram.notes.list(deck.id, { sort: { by: "sort_field" } });
    expect(cityNames(ascending.notes)).toEqual(["Apple", "Lisbon", "mango is a fruit", "zebra"]);
    const named = await owner.engram.notes.list(deck.id, { sort: "alphabetical" });
    expect(cityNames(named.notes)).toEqual(cityNames(ascending.notes));
    const descending = await owner.engram.notes.list(deck.id, { sort: { by: "sort_field", dir: "desc" } });
    expect(cityNames(descending.notes)).toEqual(["zebra", "mango is a fruit", "Lisbon", "Apple"]);
  });

  test("by when notes were added or edited, and each note comes with its number of cards", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Dates" });
    const first = await owner.engram.notes.create(deck.id, {
      kind: "basic_reversed",
      fields: { front: "first", back: "1" },
    });
    await owner.engram.notes.create(deck.id, {
      kind: "cloze",
      fields: { text: "{{c1::second}} {{c2::two}} {{c3::2}}" },
    });
    await owner.engram.notes.update(first.id, first.version, {
      kind: "basic_reversed",
      fields: { front: "first", back: "one" },
    });
    const oldest = await owner.engram.notes.list(deck.id, { sort: { by: "created", dir: "asc" } });
    expect(oldest.notes.map((note) => [note.sort_field, note.card_count])).toEqual([
      ["first", 2],
      ["second two 2", 3],
    ]);
    const edited = await owner.engram.notes.list(deck.id, { sort: { by: "modified", dir: "desc" } });
    expect(cityNames(edited.notes)).toEqual(["first", "second two 2"]);
    const newest = await owner.engram.notes.list(deck.id, { sort: "newest" });
    expect(cityNames(newest.notes)).toEqual(["second two 2", "first"]);
  });

  test("an unknown order or a field name with a double quote is refused before anything is sent", async () => {
    const owner = await signedIn("owner");
    const deck = await owner.engram.decks.create({ name: "Refused" });
    for (const sort of [{ by: "shuffled" }, { by: { field: 'say "hi"' } }, "random"]) {
      const error = await owner.engram.notes.list(deck.id, { sort: sort as never }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EngramError);
      expect(error).toMatchObject({ code: "validation" });
    }
  });
});
