import { describe, expect, test } from "vitest";
import { errorOf, signedIn } from "./support/engram.js";

type User = Awaited<ReturnType<typeof signedIn>>;

async function memberOf(owner: User, deckId: string, role: "editor" | "viewer") {
  const member = await signedIn(role);
  await member.engram.invites.accept((await owner.engram.invites.create(deckId, { role })).token);
  return member;
}

async function deckWithNotes(owner: User, fronts: string[], back = "a <b>measure</b>") {
  const deck = await owner.engram.decks.create({ name: "Physics" });
  const notes = [];
  for (const front of fronts) {
    notes.push(await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front, back } }));
  }
  return { deck, notes };
}

describe("find and replace", () => {
  test("a preview counts the notes and fields that would change and writes nothing; apply makes exactly those changes", async () => {
    const owner = await signedIn("owner");
    const { notes } = await deckWithNotes(owner, ["velocity", "density", "mass"]);
    const ids = notes.map((note) => note.id);
    const preview = await owner.engram.findReplace.preview(ids, { find: "(\\w+)ity", replace: "$1ITY", regex: true });
    expect(preview).toMatchObject({ searched: 3, noteCount: 2, fieldCount: 2 });
    expect(preview.changes.map((change) => change.fields.front).sort()).toEqual(["densITY", "velocITY"]);
    expect((await owner.engram.notes.get(ids[0] ?? "")).fields).toEqual({
      front: "velocity",
      back: "a <b>measure</b>",
    });

    expect(await owner.engram.findReplace.apply(preview)).toBe(2);
    const after = await Promise.all(ids.map((id) => owner.engram.notes.get(id)));
    expect(after.map((note) => [note.fields, note.version])).toEqual([
      [{ front: "velocITY", back: "a <b>measure</b>" }, 2],
      [{ front: "densITY", back: "a <b>measure</b>" }, 2],
      [{ front: "mass", back: "a <b>measure</b>" }, 1],
    ]);
  });

  test("one field by name, matching case, leaves the other fields and cases alone", async () => {
    const owner = await signedIn("owner");
    const { notes } = await deckWithNotes(owner, ["Quantity"], "a <b>quantity</b>");
    const preview = await owner.engram.findReplace.preview([notes[0]?.id ?? ""], {
      find: "quantity",
      replace: "amount",
      matchCase: true,
      field: "back",
    });
    expect(preview.changes.map((change) => [change.fields, change.changed])).toEqual([
      [{ front: "Quantity", back: "a <b>amount</b>" }, ["back"]],
    ]);
  });

  test("a note edited after the preview refuses the whole replacement", async () => {
    const owner = await signedIn("owner");
    const { notes } = await deckWithNotes(owner, ["velocity", "density"]);
    const preview = await owner.engram.findReplace.preview(
      notes.map((note) => note.id),
      { find: "ity", replace: "ITY" },
    );
    const edited = notes[1];
    if (!edited) throw new Error("no note");
    await owner.engram.notes.update(edited.id, edited.version, {
      kind: "basic",
      fields: { front: "density, edited", back: "x" },
    });
    expect(await errorOf(owner.engram.findReplace.apply(preview))).toMatchObject({
      code: "note/conflict",
      detail: { notes: [{ id: edited.id, version: 2 }] },
    });
    expect((await owner.engram.notes.get(notes[0]?.id ?? "")).fields).toMatchObject({ front: "velocity" });
  });

  test("a viewer may preview but not replace", async () => {
    const owner = await signedIn("owner");
    const { deck, notes } = await deckWithNotes(owner, ["velocity"]);
    const viewer = await memberOf(owner, deck.id, "viewer");
    const preview = await viewer.engram.findReplace.preview([notes[0]?.id ?? ""], { find: "ity", replace: "ITY" });
    expect(preview.noteCount).toBe(1);
    expect(await errorOf(viewer.engram.findReplace.apply(preview))).toMatchObject({ code: "permission-denied" });
  });

  test("an invalid regular expression or an empty search is refused before any request", async () => {
    const owner = await signedIn("owner");
    const id = crypto.randomUUID();
    await expect(
      owner.engram.findReplace.preview([id], { find: "(unclosed", replace: "", regex: true }),
    ).rejects.toMatchObject({ code: "validation", field: "find" });
    await expect(owner.engram.findReplace.preview([id], { find: "", replace: "x" })).rejects.toMatchObject({
      code: "validation",
    });
  });
});
