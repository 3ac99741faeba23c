import { describe, expect, test } from "vitest";
import { EngramError } from "../src/errors.js";
import { adminClient, signedIn } from "./support/engram.js";

// browse.page: the browser's sorted pages of notes or cards, with the user's
// own schedules, from browse_notes (docs/product.md §3, "The browser").

async function deckWithLetters() {
  const owner = await signedIn("owner");
  const deck = await owner.engram.decks.create({ name: "Letters" });
  const alpha = await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Alpha", back: "a" } });
  const beta = await owner.engram.notes.create(deck.id, {
    kind: "basic_reversed",
    fields: { front: "beta", back: "b" },
    tags: ["greek"],
  });
  const gamma = await owner.engram.notes.create(deck.id, {
    kind: "cloze",
    fields: { text: "{{c1::Gamma}}", extra: "" },
  });
  // beta's second card has lapsed three times in the owner's own schedule.
  const lapsed = beta.cards.find((card) => card.ordinal === 2)?.id ?? "";
  const { error } = await adminClient()
    .from("card_states")
    .update({
      state: "review",
      lapses: 3,
      reps: 7,
      scheduled_days: 4,
      stability: 4,
      difficulty: 5.5,
      last_review: new Date().toISOString(),
    })
    .eq("user_id", owner.account.id)
    .eq("card_id", lapsed);
  if (error) throw error;
  return { owner, deck, alpha, beta, gamma, lapsed };
}

describe("browsing a deck", () => {
  test("notes mode sorts in the database and carries the note with its own schedules' aggregates", async () => {
    const { owner, deck, beta } = await deckWithLetters();
    const page = await owner.engram.browse.page(deck.id, { sort: "lapses", dir: "desc" });
    expect(page.total).toBe(3);
    expect(page.capped).toBe(false);
    expect(page.rows[0]).toMatchObject({
      id: beta.id,
      sort_field: "beta",
      card_count: 2,
      deck_name: "Letters",
      lapses: 3,
      reviews: 7,
      interval: 4,
      difficulty: 0.5,
      version: beta.version,
    });
    const byName = await owner.engram.browse.page(deck.id, { sort: "sort_field", dir: "asc" });
    expect(byName.rows.map((row) => row.sort_field)).toEqual(["Alpha", "beta", "Gamma"]);
  });

  test("cards mode has a row per card with its template, and pages follow on", async () => {
    const { owner, deck, lapsed } = await deckWithLetters();
    const first = await owner.engram.browse.page(deck.id, { mode: "cards", sort: "lapses", dir: "desc", limit: 2 });
    expect(first.total).toBe(4);
    expect(first.rows[0]).toMatchObject({ card_id: lapsed, template: "Card 2", lapses: 3 });
    const second = await owner.engram.browse.page(deck.id, {
      mode: "cards",
      sort: "lapses",
      dir: "desc",
      limit: 2,
      offset: 2,
    });
    expect(second.total).toBeNull();
    const cards = [...first.rows, ...second.rows].map((row) => row.card_id);
    expect(new Set(cards).size).toBe(4);
  });

  test("a search and the filters apply", async () => {
    const { owner, deck } = await deckWithLetters();
    const found = await owner.engram.browse.page(deck.id, { search: "-gamma", tags: ["greek"], sort: "sort_field" });
    expect(found.rows.map((row) => row.sort_field)).toEqual(["beta"]);
    const cloze = await owner.engram.browse.page(deck.id, { kind: "cloze" });
    expect(cloze.rows.map((row) => row.sort_field)).toEqual(["Gamma"]);
  });

  test("bad input is refused before any request, and a deck one cannot read is not found", async () => {
    const { owner, deck } = await deckWithLetters();
    await expect(owner.engram.browse.page(deck.id, { limit: 501 })).rejects.toMatchObject({ code: "validation" });
    await expect(owner.engram.browse.page(deck.id, { sort: "nope" as "due" })).rejects.toMatchObject({
      code: "validation",
    });
    await expect(owner.engram.browse.page(deck.id, { search: "(unclosed" })).rejects.toMatchObject({
      code: "search/syntax",
    });
    const stranger = await signedIn("stranger");
    const refused = await stranger.engram.browse.page(deck.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngramError);
    expect(refused).toMatchObject({ code: "not-found" });
  });
});
