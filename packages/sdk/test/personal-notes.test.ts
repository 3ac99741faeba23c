import { readAnkiPackage } from "@engram/core/import";
import { describe, expect, test, vi } from "vitest";
import { createEngram } from "../src/client.js";
import type { EngramError } from "../src/errors.js";
import type { TableChange } from "../src/realtime.js";
import { exportDeck } from "../src/transfer/index.js";
import { type SignedIn, signedIn, supabaseClient } from "./support/engram.js";

const refusal = (call: Promise<unknown>) => call.then(() => null).catch((error: unknown) => error as EngramError);
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });

/** A deck of `owner` with one note, shared with `member` as a viewer. */
async function sharedNote(owner: SignedIn, member: SignedIn) {
  const deck = await owner.engram.decks.create({ name: "Pharmacology" });
  const note = await owner.engram.notes.create(deck.id, {
    kind: "basic",
    fields: { front: "Warfarin antidote", back: "Vitamin K" },
    tags: ["anticoagulants"],
  });
  await member.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
  return { deck, note };
}

describe("personalNotes", () => {
  test("a viewer saves, reads, lists and clears their own tags and My notes on a shared note", async () => {
    const [owner, member] = await Promise.all([signedIn("owner"), signedIn("member")]);
    const { deck, note } = await sharedNote(owner, member);

    const saved = await member.engram.personalNotes.save(note.id, { tags: ["exam"], text: "K for Klotting" });
    expect(saved).toMatchObject({ note_id: note.id, deck_id: deck.id, tags: ["exam"], text: "K for Klotting" });
    expect(await member.engram.personalNotes.get(note.id)).toEqual(saved);
    expect(await member.engram.personalNotes.listForDeck(deck.id)).toEqual([saved]);
    // The owner sees none of it.
    expect(await owner.engram.personalNotes.get(note.id)).toBeNull();
    expect(await owner.engram.personalNotes.listForDeck(deck.id)).toEqual([]);

    await member.engram.personalNotes.clear(note.id);
    expect(await member.engram.personalNotes.get(note.id)).toBeNull();
  });

  test("the notes list carries the user's own tags, and its tag filter finds notes by them", async () => {
    const [owner, member] = await Promise.all([signedIn("owner"), signedIn("member")]);
    const { deck, note } = await sharedNote(owner, member);
    await member.engram.personalNotes.save(note.id, { tags: ["tricky"] });

    const mine = await member.engram.notes.list(deck.id, { tags: ["tricky"] });
    expect(mine.notes.map((listed) => [listed.id, listed.tags, listed.my_tags])).toEqual([
      [note.id, ["anticoagulants"], ["tricky"]],
    ]);
    expect((await member.engram.notes.list(deck.id, { tags: ["anticoagulants"] })).total).toBe(1);
    expect((await member.engram.notes.ids(deck.id, { tags: ["tricky"] })).ids).toEqual([note.id]);
    // Another user's personal tags find nothing for the owner.
    expect((await owner.engram.notes.list(deck.id, { tags: ["tricky"] })).total).toBe(0);
    expect((await owner.engram.notes.list(deck.id)).notes[0]?.my_tags).toEqual([]);
  });

  test("bad input is a validation error naming the field, and a note the user cannot read is not found", async () => {
    const [owner, member, stranger] = await Promise.all([signedIn("owner"), signedIn("member"), signedIn("x")]);
    const { note } = await sharedNote(owner, member);
    expect(await refusal(member.engram.personalNotes.save(note.id, { tags: ["two words"] }))).toMatchObject({
      code: "validation",
      field: "tags.0",
    });
    expect(await refusal(member.engram.personalNotes.save(note.id, { text: "x".repeat(20_001) }))).toMatchObject({
      code: "validation",
      field: "text",
    });
    expect(await refusal(stranger.engram.personalNotes.save(note.id, { tags: ["mine"] }))).toMatchObject({
      code: "not-found",
    });
    expect(await member.engram.personalNotes.get(note.id)).toBeNull();
  });

  test("a save reaches the user's other devices by the note's id, and nobody else's", async () => {
    const [owner, member] = await Promise.all([signedIn("owner"), signedIn("member")]);
    const { note } = await sharedNote(owner, member);
    const otherDevice = createEngram(supabaseClient());
    await otherDevice.auth.signIn({ email: member.account.email, password: member.account.password });
    const heard: unknown[] = [];
    const ownerHeard: unknown[] = [];
    let ready = 0;
    const onReady = () => {
      ready += 1;
    };
    const stop = otherDevice.realtime.onOwnPersonalNotes((event) => heard.push(event), { onReady });
    const stopOwner = owner.engram.realtime.onOwnPersonalNotes((event) => ownerHeard.push(event), { onReady });
    await eventually(() => expect(ready).toBe(2));

    await member.engram.personalNotes.save(note.id, { text: "Mnemonic" });
    await eventually(() =>
      expect(heard).toEqual([{ table: "personal_notes", type: "insert", ids: [note.id] } satisfies TableChange]),
    );
    expect(ownerHeard).toEqual([]);
    await Promise.all([stop(), stopOwner()]);
    await otherDevice.supabase.realtime.disconnect();
  });

  test("an export adds the user's own tags to the notes' tags, and CSV carries My notes in its own column", async () => {
    const [owner, member] = await Promise.all([signedIn("owner"), signedIn("member")]);
    const { deck, note } = await sharedNote(owner, member);
    await member.engram.personalNotes.save(note.id, { tags: ["exam", "anticoagulants"], text: "K, for Klotting" });

    const csv = new TextDecoder().decode((await exportDeck(member.engram, deck.id, { format: "csv" })).data);
    expect(csv.split("\n")).toEqual([
      "kind,front,back,tags,my_notes",
      'basic,Warfarin antidote,Vitamin K,anticoagulants exam,"K, for Klotting"',
    ]);
    const apkg = await readAnkiPackage((await exportDeck(member.engram, deck.id, { format: "apkg" })).data);
    expect(apkg.notes.map((exported) => exported.tags)).toEqual([["anticoagulants", "exam"]]);
    // The owner's export is the note as it is.
    const ownerCsv = new TextDecoder().decode((await exportDeck(owner.engram, deck.id, { format: "csv" })).data);
    expect(ownerCsv.split("\n")).toEqual(["kind,front,back,tags", "basic,Warfarin antidote,Vitamin K,anticoagulants"]);
  });
});
