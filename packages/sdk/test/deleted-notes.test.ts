import { Rating } from "@engram/core";
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, test, vi } from "vitest";
import { createEngram } from "../src/client.js";
import { engramQueries, wireRealtime } from "../src/query/index.js";
import { errorOf, signedIn, supabaseClient } from "./support/engram.js";

type User = Awaited<ReturnType<typeof signedIn>>;

async function memberOf(owner: User, deckId: string, role: "editor" | "viewer") {
  const member = await signedIn(role);
  await member.engram.invites.accept((await owner.engram.invites.create(deckId, { role })).token);
  return member;
}

/** A deck with one studied note: its card answered "good" by the owner. */
async function studiedNote(owner: User) {
  const deck = await owner.engram.decks.create({ name: "Capitals" });
  const note = await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Peru?", back: "Lima" } });
  const [card] = await owner.engram.study.queue({ deckId: deck.id });
  if (!card) throw new Error("empty queue");
  await owner.engram.study.recordReview({ card, rating: Rating.good, duration_ms: 1200 });
  return { deck, note };
}

describe("recently deleted notes", () => {
  test("a deleted note is listed with who deleted it, and restore brings it back with the schedule", async () => {
    const owner = await signedIn("owner");
    const { deck, note } = await studiedNote(owner);
    const [before] = await owner.engram.cards.schedules({ deckId: deck.id });
    await owner.engram.notes.remove([{ id: note.id, version: note.version }]);

    const viewer = await memberOf(owner, deck.id, "viewer");
    expect(await viewer.engram.deletedNotes.list(deck.id)).toEqual([
      {
        noteId: note.id,
        kind: "basic",
        noteTypeId: null,
        sortField: "Peru?",
        cardCount: 1,
        deletedBy: { id: owner.account.id, name: expect.any(String) },
        deletedAt: expect.any(String),
        daysLeft: 30,
      },
    ]);
    expect(await errorOf(viewer.engram.deletedNotes.restore([note.id]))).toMatchObject({ code: "permission-denied" });

    expect(await owner.engram.deletedNotes.restore([note.id])).toBe(1);
    expect(await owner.engram.deletedNotes.restore([note.id])).toBe(0);
    expect(await owner.engram.deletedNotes.list(deck.id)).toEqual([]);
    expect(await owner.engram.cards.schedules({ deckId: deck.id })).toEqual([before]);
  });

  test("bad ids are refused before any request, and an unknown one fails the whole restore", async () => {
    const owner = await signedIn("owner");
    await expect(owner.engram.deletedNotes.restore([])).rejects.toMatchObject({ code: "validation" });
    await expect(owner.engram.deletedNotes.restore(["note-1"])).rejects.toMatchObject({ code: "validation" });
    await expect(owner.engram.deletedNotes.list("deck-1")).rejects.toMatchObject({ code: "validation" });
    expect(await errorOf(owner.engram.deletedNotes.restore([crypto.randomUUID()]))).toMatchObject({
      code: "not-found",
      field: "note_ids",
    });
  });

  test("a delete on another device refreshes the list, and a restore empties it", async () => {
    const owner = await signedIn("owner");
    const { deck, note } = await studiedNote(owner);
    const editor = await memberOf(owner, deck.id, "editor");
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const queries = engramQueries(editor.engram);
    const deleted = new QueryObserver(queryClient, queries.deletedNotes.deck(deck.id));
    const unsubscribe = deleted.subscribe(() => {});
    let stop: () => Promise<void> = async () => {};
    await new Promise<void>((resolve, reject) => {
      stop = wireRealtime(editor.engram, queryClient, { deckIds: [deck.id], onReady: resolve, onError: reject });
    });
    await vi.waitFor(() => expect(deleted.getCurrentResult().data).toEqual([]));

    const device = createEngram(supabaseClient());
    await device.auth.signIn(owner.account);
    await device.notes.remove([{ id: note.id, version: note.version }]);
    await vi.waitFor(() => expect(deleted.getCurrentResult().data?.map((entry) => entry.noteId)).toEqual([note.id]));

    await device.deletedNotes.restore([note.id]);
    await vi.waitFor(() => expect(deleted.getCurrentResult().data).toEqual([]));
    await stop();
    unsubscribe();
  });
});
