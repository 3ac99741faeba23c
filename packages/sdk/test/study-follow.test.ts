import { createScheduler } from "@engram/core";
import { describe, expect, test } from "vitest";
import { createEngram, type Engram } from "../src/client.js";
import type { LeftElsewhere, ReviewSession } from "../src/study/index.js";
import { type SignedIn, signedIn, supabaseClient } from "./support/engram.js";

// An open review session follows the user's schedule changes made on another
// device (docs/product.md §2): cards suspended or buried there leave it, and
// a card the user brought back here is never taken out by an older read.

const scheduler = createScheduler();

/** A deck of three basic notes, studied by the user. */
async function deckOfThree(user: SignedIn) {
  const deck = await user.engram.decks.create({ name: "Elsewhere" });
  const notes = [];
  for (const front of ["one", "two", "three"]) {
    notes.push(await user.engram.notes.create(deck.id, { kind: "basic", fields: { front, back: `${front}!` } }));
  }
  return { deck, notes };
}

/** The same account on a second client, reading through `fetch`. */
async function secondDevice(user: SignedIn, fetchImpl?: typeof fetch): Promise<Engram> {
  const supabase = supabaseClient(fetchImpl ? { global: { fetch: fetchImpl } } : {});
  const { error } = await supabase.auth.signInWithPassword({
    email: user.account.email,
    password: user.account.password,
  });
  if (error) throw error;
  return createEngram(supabase);
}

/** Every `left-elsewhere` event of the session, and a promise for the moment a card has left. */
function leavings(session: ReviewSession) {
  const seen: LeftElsewhere[] = [];
  const waiting: { cardId: string; resolve: (left: LeftElsewhere) => void }[] = [];
  session.subscribe((event) => {
    if (event.type !== "left-elsewhere") return;
    seen.push(...event.cards);
    for (const waiter of [...waiting]) {
      const left = event.cards.find((entry) => entry.card.card_id === waiter.cardId);
      if (!left) continue;
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(left);
    }
  });
  return {
    seen,
    of: (cardId: string) => new Promise<LeftElsewhere>((resolve) => waiting.push({ cardId, resolve })),
  };
}

/** Starts following and resolves once the subscription is live. */
function follow(device: Engram, session: ReviewSession) {
  return new Promise<() => Promise<void>>((resolve, reject) => {
    const stop = device.study.followSchedules(session, {
      onReady: () => resolve(stop),
      onError: reject,
    });
  });
}

/**
 * A fetch that can hold the answers of schedule reads: the read is made at
 * once (it sees the database as it is then) but its answer reaches the
 * caller only when released, as a slow network would deliver it.
 */
function slowScheduleReads() {
  let hold = false;
  const completed: (() => void)[] = [];
  const heldWaiters: ((held: { body: string; release: () => void }) => void)[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!url.includes("/rest/v1/card_states")) return response;
    if (hold) {
      hold = false;
      const body = await response.clone().text();
      await new Promise<void>((release) => heldWaiters.shift()?.({ body, release }));
    }
    for (const done of completed.splice(0)) queueMicrotask(done);
    return response;
  };
  return {
    fetchImpl,
    /** The next schedule read's answer has been handed over. */
    nextRead: () => new Promise<void>((resolve) => completed.push(resolve)),
    /** Holds the next schedule read's answer; resolves with it once it is held. */
    holdNext: () =>
      new Promise<{ body: string; release: () => void }>((resolve) => {
        hold = true;
        heldWaiters.push(resolve);
      }),
  };
}

describe("a session follows schedules changed elsewhere", () => {
  test("cards suspended or note-buried on another device leave the open session; the next card shows", async () => {
    const phone = await signedIn("follow");
    const { deck, notes } = await deckOfThree(phone);
    const laptop = await secondDevice(phone);
    const session = await laptop.study.session({ deckId: deck.id, scheduler });
    const left = leavings(session);
    const stop = await follow(laptop, session);
    try {
      const shown = session.current?.card;
      if (!shown) throw new Error("no card");
      const other = notes.find((note) => note.id !== shown.note.id && note.cards[0]);
      const otherCard = other?.cards[0]?.id ?? "";
      expect(session.cardIds()).toHaveLength(3);

      const suspended = left.of(shown.card_id);
      expect(await phone.engram.cards.setSuspended([shown.card_id], true)).toBe(1);
      expect(await suspended).toMatchObject({ reason: "suspended", card: { card_id: shown.card_id } });
      expect(session.current?.card.card_id).not.toBe(shown.card_id);
      expect(session.current).not.toBeNull();

      const buried = left.of(otherCard);
      await phone.engram.cards.setBuriedForNotes([other?.id ?? ""], true);
      expect(await buried).toMatchObject({ reason: "buried" });
      expect(session.cardIds()).toHaveLength(1);
      expect(session.cardIds()).not.toContain(otherCard);
      expect(session.counts.new).toBe(1);
      expect(left.seen.map((entry) => entry.card.card_id).sort()).toEqual([shown.card_id, otherCard].sort());

      // Unsuspended there, the card does not come back: the session's cards were chosen when it started.
      const leftCard = session.current?.card.card_id ?? "";
      const lastOne = left.of(leftCard);
      await phone.engram.cards.setSuspended([shown.card_id], false);
      await phone.engram.cards.setSuspended([leftCard], true);
      await lastOne;
      expect(session.cardIds()).toEqual([]);
      expect(session.getState().done).toBe(true);
    } finally {
      await stop();
      await session.close();
    }
  });

  test("a read that started before an undo here does not take out the card the user brought back", async () => {
    const phone = await signedIn("follow-undo");
    const { deck, notes } = await deckOfThree(phone);
    const reads = slowScheduleReads();
    const laptop = await secondDevice(phone, reads.fetchImpl);
    const session = await laptop.study.session({ deckId: deck.id, scheduler });
    const left = leavings(session);
    const firstCheck = reads.nextRead();
    const stop = await follow(laptop, session);
    try {
      await firstCheck;
      const shown = session.current?.card;
      if (!shown) throw new Error("no card");

      // The phone suspends the card: the laptop reads its schedule, whose answer is slow to arrive.
      const held = reads.holdNext();
      await phone.engram.cards.setSuspended([shown.card_id], true);
      const stale = await held;
      expect(stale.body).toContain('"suspended":true');

      // Meanwhile on the laptop the user suspends the card too, then undoes it.
      const removed = session.remove([shown.card_id]);
      await laptop.cards.setSuspended([shown.card_id], true);
      await laptop.cards.setSuspended([shown.card_id], false);
      session.restore(removed);
      expect(session.current?.card.card_id).toBe(shown.card_id);

      // The old answer arrives; a later bury on the phone shows the follower went past it.
      stale.release();
      const other = notes.find((note) => note.id !== shown.note.id)?.cards[0]?.id ?? "";
      const buried = left.of(other);
      await phone.engram.cards.setBuried([other], true);
      await buried;
      expect(left.seen.map((entry) => entry.card.card_id)).toEqual([other]);
      expect(session.current?.card.card_id).toBe(shown.card_id);
      expect(session.cardIds()).toContain(shown.card_id);
    } finally {
      await stop();
      await session.close();
    }
  });
});
