import { describe, expect, test } from "vitest";
import { type SignedIn, signedIn } from "./support/engram.js";

/** An owner's deck with an editor and a viewer joined through invites, and one note by the owner. */
async function sharedNote() {
  const [owner, editor, viewer] = await Promise.all([signedIn("owner"), signedIn("editor"), signedIn("viewer")]);
  await owner.engram.profile.update({ display_name: "Olga" });
  await editor.engram.profile.update({ display_name: "Ed" });
  const deck = await owner.engram.decks.create({ name: "Histology" });
  for (const [user, role] of [
    [editor, "editor"],
    [viewer, "viewer"],
  ] as const) {
    const invite = await owner.engram.invites.create(deck.id, { role });
    await user.engram.invites.accept(invite.token);
  }
  const note = await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "Cell", back: "Unit" } });
  return { owner, editor, viewer, deck, note };
}

const idOf = (user: SignedIn) => user.account.id;

describe("note history", () => {
  test("list gives every version newest first with its author and the version before it", async () => {
    const { owner, editor, viewer, note } = await sharedNote();
    await editor.engram.notes.update(note.id, 1, { kind: "basic", fields: { front: "Cell", back: "Smallest unit" } });
    const history = await viewer.engram.noteHistory.list(note.id);
    expect(history).toEqual([
      expect.objectContaining({
        version: 2,
        action: "edit",
        author: { id: idOf(editor), name: "Ed" },
        coAuthor: null,
        fields: { front: "Cell", back: "Smallest unit" },
        previousFields: { front: "Cell", back: "Unit" },
      }),
      expect.objectContaining({ version: 1, action: "create", author: { id: idOf(owner), name: "Olga" } }),
    ]);
  });

  test("revert brings an old version back as a new one; a viewer and a stale base are refused", async () => {
    const { owner, editor, viewer, note } = await sharedNote();
    await owner.engram.notes.update(note.id, 1, { kind: "basic", fields: { front: "Cell", back: "Wrong" } });
    await expect(viewer.engram.noteHistory.revert(note.id, 1, 2)).rejects.toMatchObject({ code: "permission-denied" });
    await expect(editor.engram.noteHistory.revert(note.id, 1, 1)).rejects.toMatchObject({
      code: "note/conflict",
      detail: { version: 2 },
    });
    const reverted = await editor.engram.noteHistory.revert(note.id, 1, 2);
    expect(reverted).toMatchObject({ version: 3, fields: { front: "Cell", back: "Unit" } });
    const [latest] = await owner.engram.noteHistory.list(note.id);
    expect(latest).toMatchObject({ version: 3, action: "revert", revertedFrom: 1, author: { id: idOf(editor) } });
    await expect(editor.engram.noteHistory.revert(note.id, 0, 3)).rejects.toMatchObject({ code: "validation" });
  });

  test("deckHistory pages newest first, and deckChanges counts others' changes since a time", async () => {
    const { owner, editor, deck, note } = await sharedNote();
    const start = new Date(Date.now() - 1000).toISOString();
    for (let version = 1; version <= 3; version += 1) {
      await editor.engram.notes.update(note.id, version, {
        kind: "basic",
        fields: { front: `Cell ${version}`, back: "U" },
      });
    }
    const first = await owner.engram.noteHistory.deckHistory(deck.id, { limit: 2 });
    expect(first.entries.map((entry) => entry.version)).toEqual([4, 3]);
    const second = await owner.engram.noteHistory.deckHistory(deck.id, { limit: 2, cursor: first.nextCursor ?? "" });
    expect(second.entries.map((entry) => entry.version)).toEqual([2, 1]);
    await expect(owner.engram.noteHistory.deckHistory(deck.id, { cursor: "nonsense" })).rejects.toMatchObject({
      code: "validation",
      field: "cursor",
    });
    expect(await owner.engram.noteHistory.deckChanges(deck.id, start)).toEqual({
      since: expect.any(String),
      edited: 1,
      added: 0,
      deleted: 0,
      authors: [{ id: idOf(editor), name: "Ed" }],
    });
    // Never studied: nothing to report.
    expect(await owner.engram.noteHistory.deckChanges(deck.id)).toMatchObject({ since: null, edited: 0, added: 0 });
  });
});
