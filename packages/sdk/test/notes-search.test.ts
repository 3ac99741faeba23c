import { describe, expect, test } from "vitest";
import { EngramError } from "../src/errors.js";
import { signedIn } from "./support/engram.js";

// notes.list and notes.ids take Anki's search syntax (docs/product.md §3,
// "Search"): parsed in the SDK, evaluated by search_notes, with the list's
// sort, filters, count and paging applied on top.

const basic = (front: string, back: string, tags: string[] = []) => ({
  kind: "basic" as const,
  fields: { front, back },
  tags,
});

async function deckWithCells() {
  const owner = await signedIn("owner");
  const deck = await owner.engram.decks.create({ name: "Cell biology" });
  const words = ["Mitochondria", "mitochondrial DNA", "Mitosis", "Osmosis", "Ribosome"];
  const notes = [];
  for (const [i, word] of words.entries()) {
    notes.push(
      await owner.engram.notes.create(deck.id, basic(word, `answer ${i}`, i % 2 === 0 ? ["biology::cells"] : [])),
    );
  }
  return { owner, deck, notes };
}

describe("searching a deck's notes", () => {
  test("finds text anywhere, sorted and paged, with the total over all pages", async () => {
    const { owner, deck } = await deckWithCells();
    const first = await owner.engram.notes.list(deck.id, {
      search: "mito*",
      sort: { by: "sort_field", dir: "desc" },
      limit: 2,
    });
    expect(first.total).toBe(3);
    expect(first.notes.map((note) => note.sort_field)).toEqual(["Mitosis", "mitochondrial DNA"]);
    expect(first.notes.every((note) => note.card_count === 1)).toBe(true);
    const second = await owner.engram.notes.list(deck.id, {
      search: "mito*",
      sort: { by: "sort_field", dir: "desc" },
      limit: 2,
      offset: 2,
    });
    expect(second.notes.map((note) => note.sort_field)).toEqual(["Mitochondria"]);
    expect((await owner.engram.notes.list(deck.id, { search: "osmo or ribo" })).total).toBe(2);
    expect((await owner.engram.notes.list(deck.id, { search: "tag:biology mito" })).total).toBe(2);
    expect((await owner.engram.notes.list(deck.id, { search: "is:new -tag:biology::cells" })).total).toBe(2);
  });

  test("ids takes the same search, for selecting every match", async () => {
    const { owner, deck, notes } = await deckWithCells();
    const found = await owner.engram.notes.ids(deck.id, { search: "w:mitosis or front:osmosis" });
    expect(found.total).toBe(2);
    expect([...found.ids].sort()).toEqual([notes[2]?.id, notes[3]?.id].sort());
    expect(found.notes.map((note) => note.version)).toEqual([1, 1]);
  });

  test("a search that does not parse is search/syntax, saying what and where", async () => {
    const { owner, deck } = await deckWithCells();
    const error = await owner.engram.notes.list(deck.id, { search: "mito (cell" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "search/syntax", detail: { kind: "unclosed-group", at: 5 } });
    await expect(owner.engram.notes.ids(deck.id, { search: "prop:ivl>>3" })).rejects.toMatchObject({
      code: "search/syntax",
      detail: { kind: "invalid-number" },
    });
  });

  test("a regular expression that could run too long is search/syntax too; an overlong search is validation", async () => {
    const { owner, deck } = await deckWithCells();
    await expect(owner.engram.notes.list(deck.id, { search: '"re:(a+)+$"' })).rejects.toMatchObject({
      code: "search/syntax",
      message: expect.stringMatching(/too complex/),
    });
    await expect(owner.engram.notes.list(deck.id, { search: "a".repeat(1001) })).rejects.toMatchObject({
      code: "validation",
      field: "search",
    });
    // 998 characters: with the % on each side the pattern is the 1,000 the database takes.
    expect((await owner.engram.notes.list(deck.id, { search: "m".repeat(998) })).total).toBe(0);
  });
});
