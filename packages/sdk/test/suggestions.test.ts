import { describe, expect, test, vi } from "vitest";
import type { EngramError } from "../src/errors.js";
import type { SuggestionEvent } from "../src/suggestions.js";
import { type SignedIn, signedIn } from "./support/engram.js";

const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });
const refusal = (call: Promise<unknown>) => call.then(() => null).catch((error: unknown) => error as EngramError);

async function sharedDeck(owner: SignedIn, viewer: SignedIn) {
  const deck = await owner.engram.decks.create({ name: "Physiology" });
  await viewer.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
  const note = await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Heart", back: "Pump" } });
  return { deck, note };
}

describe("suggestions", () => {
  test("a viewer's edit reaches the owner's queue live, and its acceptance reaches the viewer live", async () => {
    const [owner, viewer] = await Promise.all([signedIn("owner"), signedIn("viewer")]);
    const { deck, note } = await sharedDeck(owner, viewer);

    const ownerEvents: SuggestionEvent[] = [];
    const viewerEvents: SuggestionEvent[] = [];
    let ready = 0;
    const stops = [
      owner.engram.suggestions.onDeckChanges(deck.id, (e) => e.type !== "resync" && ownerEvents.push(e), {
        onReady: () => (ready += 1),
      }),
      viewer.engram.suggestions.onOwnChanges((e) => e.type !== "resync" && viewerEvents.push(e), {
        onReady: () => (ready += 1),
      }),
    ];
    await eventually(() => expect(ready).toBe(2));

    const made = await viewer.engram.suggestions.suggest({
      action: "edit",
      noteId: note.id,
      fields: { front: "Heart", back: "A muscular pump" },
      rationale: "More precise",
    });
    await eventually(() =>
      expect(ownerEvents).toContainEqual({ table: "note_suggestions", type: "insert", ids: [made.id] }),
    );
    expect(await owner.engram.suggestions.pendingCount(deck.id)).toBe(1);
    const [queued] = await owner.engram.suggestions.pending(deck.id);
    expect(queued).toMatchObject({
      id: made.id,
      authorName: expect.any(String),
      rationale: "More precise",
      changedSince: false,
      current: { version: 1, fields: { front: "Heart", back: "Pump" } },
    });

    await owner.engram.suggestions.review({ ids: [made.id], decision: "accept" });
    await eventually(() =>
      expect(viewerEvents).toContainEqual({ table: "note_suggestions", type: "update", ids: [made.id] }),
    );
    expect(await viewer.engram.suggestions.mine()).toEqual([
      expect.objectContaining({ id: made.id, status: "accepted", deck_name: "Physiology" }),
    ]);
    expect((await viewer.engram.notes.get(note.id)).fields).toEqual({ front: "Heart", back: "A muscular pump" });
    await Promise.all(stops.map((stop) => stop()));
  });

  test("the queue is the maintainers' alone, and a viewer's direct review is refused", async () => {
    const [owner, viewer] = await Promise.all([signedIn("owner"), signedIn("viewer")]);
    const { deck, note } = await sharedDeck(owner, viewer);
    const made = await viewer.engram.suggestions.suggest({ action: "delete", noteId: note.id, rationale: "Duplicate" });
    expect(await refusal(viewer.engram.suggestions.pending(deck.id))).toMatchObject({ code: "permission-denied" });
    expect(await refusal(viewer.engram.suggestions.review({ ids: [made.id], decision: "accept" }))).toMatchObject({
      code: "permission-denied",
    });
    await owner.engram.suggestions.review({ ids: [made.id], decision: "reject", reason: "Not a duplicate" });
    expect(await viewer.engram.suggestions.mine()).toEqual([
      expect.objectContaining({ status: "rejected", review_reason: "Not a duplicate" }),
    ]);
  });

  test("bad input is refused before anything is sent, and the database's rules name their field", async () => {
    const [owner, viewer] = await Promise.all([signedIn("owner"), signedIn("viewer")]);
    const { deck } = await sharedDeck(owner, viewer);
    expect(
      await refusal(
        viewer.engram.suggestions.suggest({
          action: "create",
          deckId: deck.id,
          kind: "basic",
          fields: { front: "Q", back: "A" },
          rationale: "x".repeat(1001),
        }),
      ),
    ).toMatchObject({ code: "validation", field: "rationale" });
    expect(
      await refusal(
        viewer.engram.suggestions.suggest({
          action: "create",
          deckId: deck.id,
          kind: "basic",
          fields: { front: "", back: "A" },
        }),
      ),
    ).toMatchObject({ code: "validation", rule: "notes_front_required" });
    await owner.engram.decks.update(deck.id, { suggestions_from: "nobody" });
    expect(
      await refusal(
        viewer.engram.suggestions.suggest({
          action: "create",
          deckId: deck.id,
          kind: "basic",
          fields: { front: "Q", back: "A" },
        }),
      ),
    ).toMatchObject({ code: "permission-denied" });
  });
});
