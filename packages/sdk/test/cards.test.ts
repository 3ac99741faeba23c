import { describe, expect, test } from "vitest";
import { createEngram } from "../src/client.js";
import { EngramError } from "../src/errors.js";
import { signedIn, supabaseClient } from "./support/engram.js";

async function deckWithNote() {
  const owner = await signedIn("owner");
  const deck = await owner.engram.decks.create({ name: "Pharmacology" });
  const note = await owner.engram.notes.create(deck.id, {
    kind: "basic_reversed",
    fields: { front: "aspirin", back: "COX inhibitor" },
  });
  return { owner, deck, note };
}

describe("cards", () => {
  test("a note's cards come in order, each with the user's new schedule", async () => {
    const { owner, note } = await deckWithNote();
    const cards = await owner.engram.cards.listForNote(note.id);
    expect(cards.map((c) => [c.id, c.ordinal])).toEqual(note.cards.map((c) => [c.id, c.ordinal]));
    expect(cards[0]?.schedule).toMatchObject({ user_id: owner.account.id, state: "new", suspended: false });
  });

  test("readers of a public deck, signed in or not, see its cards without a schedule", async () => {
    const { owner, deck, note } = await deckWithNote();
    await owner.engram.decks.update(deck.id, { is_public: true });
    const reader = await signedIn("reader");
    const cards = await reader.engram.cards.listForNote(note.id);
    expect(cards.map((c) => c.schedule)).toEqual([null, null]);
    const anonymous = createEngram(supabaseClient());
    expect((await anonymous.cards.listForNote(note.id)).map((c) => [c.ordinal, c.schedule])).toEqual([
      [1, null],
      [2, null],
    ]);
  });

  test("the cards of a note one cannot see are not found", async () => {
    const { note } = await deckWithNote();
    const stranger = await signedIn("stranger");
    await expect(stranger.engram.cards.listForNote(note.id)).rejects.toMatchObject({ code: "not-found" });
  });

  test("schedules are the user's own, for all decks or one", async () => {
    const { owner, deck, note } = await deckWithNote();
    const other = await owner.engram.decks.create({ name: "Other" });
    await owner.engram.notes.create(other.id, { kind: "basic", fields: { front: "a", back: "b" } });
    expect(await owner.engram.cards.schedules()).toHaveLength(3);
    const inDeck = await owner.engram.cards.schedules({ deckId: deck.id });
    expect(inDeck.map((s) => s.card_id).sort()).toEqual(note.cards.map((c) => c.id).sort());

    const viewer = await signedIn("viewer");
    await viewer.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
    const theirs = await viewer.engram.cards.schedules();
    expect(theirs).toHaveLength(2);
    expect(new Set(theirs.map((s) => s.user_id))).toEqual(new Set([viewer.account.id]));
  });

  test("suspending cards changes only the user's schedule and can be undone", async () => {
    const { owner, deck, note } = await deckWithNote();
    const viewer = await signedIn("viewer");
    await viewer.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
    const ids = note.cards.map((c) => c.id);

    expect(await viewer.engram.cards.setSuspended(ids, true)).toBe(2);
    expect(await viewer.engram.cards.setSuspended(ids, true)).toBe(0);
    expect((await viewer.engram.cards.schedules()).every((s) => s.suspended)).toBe(true);
    expect((await owner.engram.cards.schedules()).some((s) => s.suspended)).toBe(false);

    expect(await viewer.engram.cards.setSuspended([ids[0] ?? ""], false)).toBe(1);
    expect((await viewer.engram.cards.listForNote(note.id)).map((c) => c.schedule?.suspended)).toEqual([false, true]);
  });

  test("suspending a card of a deck one is not in is not found, and nothing changes", async () => {
    const { owner, note } = await deckWithNote();
    const stranger = await signedIn("stranger");
    const ids = note.cards.map((c) => c.id);
    await expect(stranger.engram.cards.setSuspended(ids, true)).rejects.toMatchObject({
      code: "not-found",
      field: "card_ids",
    });
    await expect(owner.engram.cards.setSuspended([...ids, crypto.randomUUID()], true)).rejects.toMatchObject({
      code: "not-found",
    });
    expect((await owner.engram.cards.schedules()).some((s) => s.suspended)).toBe(false);
  });

  test("every card of the notes given is suspended and unsuspended in one call", async () => {
    const { owner, deck, note } = await deckWithNote();
    const basicNote = await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "a", back: "b" } });
    expect(await owner.engram.cards.setSuspendedForNotes([note.id, basicNote.id], true)).toBe(3);
    expect((await owner.engram.cards.listForNote(note.id)).map((c) => c.schedule?.suspended)).toEqual([true, true]);
    expect(await owner.engram.cards.setSuspendedForNotes([note.id], false)).toBe(2);
    expect((await owner.engram.cards.listForNote(basicNote.id))[0]?.schedule?.suspended).toBe(true);
  });

  test("suspending notes one cannot see is not found, and nothing changes", async () => {
    const { owner, note } = await deckWithNote();
    const stranger = await signedIn("stranger");
    await expect(stranger.engram.cards.setSuspendedForNotes([note.id], true)).rejects.toMatchObject({
      code: "not-found",
    });
    await expect(owner.engram.cards.setSuspendedForNotes([note.id, crypto.randomUUID()], true)).rejects.toMatchObject({
      code: "not-found",
      field: "note_ids",
    });
    expect((await owner.engram.cards.schedules()).some((s) => s.suspended)).toBe(false);
    await expect(owner.engram.cards.setSuspendedForNotes([], true)).rejects.toMatchObject({ code: "validation" });
  });

  test("bad card ids fail validation before any request", async () => {
    const { engram } = await signedIn();
    const error = await engram.cards.setSuspended(["card-1"], true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: "validation", field: "0" });
    await expect(engram.cards.setSuspended([], true)).rejects.toMatchObject({ code: "validation" });
    await expect(engram.cards.schedules({ deckId: "x" })).rejects.toMatchObject({
      code: "validation",
      field: "deckId",
    });
  });
});
