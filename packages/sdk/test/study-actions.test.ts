import { createScheduler, Rating } from "@engram/core";
import { describe, expect, test } from "vitest";
import { signedIn } from "./support/engram.js";

// Acting on the card being studied (docs/product.md §2): bury, flag and mark
// change only the user's own schedules and tags; the session takes buried and
// suspended cards out and puts them back on undo.

const scheduler = createScheduler();

/** A deck of Olivia's with a reversed note and a basic one, studied by Mia, a viewer. */
async function studiedDeck() {
  const owner = await signedIn("olivia");
  const deck = await owner.engram.decks.create({ name: "Pharmacology" });
  const pair = await owner.engram.notes.create(deck.id, {
    kind: "basic_reversed",
    fields: { front: "aspirin", back: "COX inhibitor" },
  });
  const single = await owner.engram.notes.create(deck.id, { kind: "basic", fields: { front: "a", back: "b" } });
  const member = await signedIn("mia");
  await member.engram.invites.accept((await owner.engram.invites.create(deck.id, { role: "viewer" })).token);
  return { owner, member, deck, pair, single };
}

describe("study actions", () => {
  test("flags are the user's own, cleared with 0; a flag outside 0-7 is refused before any request", async () => {
    const { owner, member, single } = await studiedDeck();
    const card = single.cards[0]?.id ?? "";
    expect(await member.engram.cards.setFlag([card], 4)).toBe(1);
    expect((await member.engram.cards.listForNote(single.id))[0]?.schedule?.flag).toBe(4);
    expect((await owner.engram.cards.listForNote(single.id))[0]?.schedule?.flag ?? 0).toBe(0);
    await expect(member.engram.cards.setFlag([card], 8 as never)).rejects.toMatchObject({ code: "validation" });
    expect((await member.engram.cards.listForNote(single.id))[0]?.schedule?.flag).toBe(4);
    expect(await member.engram.cards.setFlag([card], 0)).toBe(1);
    expect((await member.engram.cards.listForNote(single.id))[0]?.schedule?.flag).toBe(0);
  });

  test("burying a note's cards takes them out of today's queue until they are unburied", async () => {
    const { member, deck, pair } = await studiedDeck();
    const buried = await member.engram.cards.setBuriedForNotes([pair.id], true);
    expect(buried.map((row) => row.card_id).sort()).toEqual(pair.cards.map((c) => c.id).sort());
    expect(buried.every((row) => row.buried_until !== null)).toBe(true);
    const queue = await member.engram.study.queue({ deckId: deck.id });
    expect(queue.map((card) => card.note.id)).not.toContain(pair.id);
    const back = await member.engram.cards.setBuried(
      pair.cards.map((c) => c.id),
      false,
    );
    expect(back.every((row) => row.buried_until === null)).toBe(true);
    expect((await member.engram.study.queue({ deckId: deck.id })).map((card) => card.note.id)).toContain(pair.id);
  });

  test("a stranger's bury is not found and changes nothing", async () => {
    const { member, single } = await studiedDeck();
    const stranger = await signedIn("stranger");
    const card = single.cards[0]?.id ?? "";
    await expect(stranger.engram.cards.setBuried([card], true)).rejects.toMatchObject({ code: "not-found" });
    expect((await member.engram.cards.listForNote(single.id))[0]?.schedule?.buried_until).toBeNull();
  });

  test("marking a note adds the user's own tag, keeps their other tags and My notes, and unmarking takes it off", async () => {
    const { owner, member, single } = await studiedDeck();
    await member.engram.personalNotes.save(single.id, { tags: ["exam"], text: "ask in class" });
    expect(await member.engram.personalNotes.setMarked(single.id, true)).toMatchObject({
      tags: ["exam", "marked"],
      text: "ask in class",
    });
    expect(await owner.engram.personalNotes.get(single.id)).toBeNull();
    expect((await owner.engram.notes.get(single.id)).tags).toEqual([]);
    expect(await member.engram.personalNotes.setMarked(single.id, false)).toMatchObject({ tags: ["exam"] });
  });

  test("a session takes a buried card out at once and, undone, shows it again and answers it at its new version", async () => {
    const { member, deck } = await studiedDeck();
    const session = await member.engram.study.session({ deckId: deck.id, scheduler });
    try {
      const shown = session.current?.card;
      if (!shown) throw new Error("no card");
      const [buried] = await member.engram.cards.setBuried([shown.card_id], true);
      const removed = session.remove([shown.card_id]);
      expect(removed.map((card) => card.card_id)).toEqual([shown.card_id]);
      expect(session.current?.card.card_id).not.toBe(shown.card_id);
      const countBefore = session.counts.new;

      const [unburied] = await member.engram.cards.setBuried([shown.card_id], false);
      expect(unburied?.version).toBe((buried?.version ?? 0) + 1);
      session.restore(removed, new Map([[shown.card_id, unburied?.version ?? 0]]));
      expect(session.current?.card.card_id).toBe(shown.card_id);
      expect(session.counts.new).toBe(countBefore + 1);
      session.answer(Rating.good);
      await session.flush();
      expect(session.getState().failures).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
