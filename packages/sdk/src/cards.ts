/** Cards (generated from notes) and the user's own schedule for them: read, suspend, bury, flag. */
import { z } from "zod/mini";
import type { Tables } from "./database.types.js";
import { EngramError } from "./errors.js";
import { maxBulkNotes } from "./notes.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

export type Card = Tables<"cards">;
/** The user's FSRS schedule for one card (nobody reads anyone else's). */
export type ScheduleRow = Tables<"card_states">;
/** A card with the user's schedule for it; null for someone who is not a member (a public deck's reader). */
export type CardWithSchedule = Card & { schedule: ScheduleRow | null };

export const maxBulkCards = 1000;

/** Anki's flags by number (0 is none): red, orange, green, blue, pink, turquoise, purple. */
export const cardFlags = [1, 2, 3, 4, 5, 6, 7] as const;
export type CardFlag = 0 | (typeof cardFlags)[number];

/** A card's schedule version and bury after a bury or unbury (answers computed from an older version are refused). */
export type BuriedCard = { card_id: string; version: number; buried_until: string | null };

const noteIdSchema = z.guid("Unknown note.");
const cardIdsSchema = z.pipe(
  z
    .array(z.guid("Unknown card."))
    .check(
      z.minLength(1, "Choose at least one card."),
      z.maxLength(maxBulkCards, `Choose at most ${maxBulkCards} cards at once.`),
    ),
  z.transform((ids: string[]) => [...new Set(ids)]),
);
const noteIdsSchema = z.pipe(
  z
    .array(z.guid("Unknown note."))
    .check(
      z.minLength(1, "Choose at least one note."),
      z.maxLength(maxBulkNotes, `Choose at most ${maxBulkNotes} notes at once.`),
    ),
  z.transform((ids: string[]) => [...new Set(ids)]),
);
const flagSchema = z
  .int({ error: "A flag is a whole number from 0 to 7." })
  .check(z.gte(0, "A flag is a whole number from 0 to 7."), z.lte(7, "A flag is a whole number from 0 to 7."));
const schedulesSchema = z.object({
  deckId: z.optional(z.guid("Unknown deck.")),
  limit: z._default(z.int().check(z.gte(1), z.lte(1000)), 1000),
  offset: z._default(z.int().check(z.gte(0)), 0),
});

export function createCards(supabase: EngramClient) {
  return {
    /** A note's cards in order, each with the user's schedule. */
    async listForNote(noteId: string): Promise<CardWithSchedule[]> {
      const id = validate(noteIdSchema, noteId);
      // Schedules belong to signed-in users; anonymous readers of a public deck get the cards alone.
      const { data } = await supabase.auth.getSession();
      const rows: CardWithSchedule[] = data.session
        ? (await run(supabase.from("cards").select("*, card_states(*)").eq("note_id", id).order("ordinal"))).map(
            ({ card_states, ...card }) => ({ ...card, schedule: card_states[0] ?? null }),
          )
        : (await run(supabase.from("cards").select("*").eq("note_id", id).order("ordinal"))).map((card) => ({
            ...card,
            schedule: null,
          }));
      // Every note has at least one card, so no cards means no visible note.
      if (rows.length === 0) throw new EngramError("not-found", "This note does not exist or is not shared with you.");
      return rows;
    },

    /** The user's schedules, soonest due first, for one deck or all (read-only: answers go through study). */
    async schedules(options: z.input<typeof schedulesSchema> = {}): Promise<ScheduleRow[]> {
      const { deckId, limit, offset } = validate(schedulesSchema, options);
      await currentUserId(supabase);
      let query = supabase.from("card_states").select("*");
      if (deckId) query = query.eq("deck_id", deckId);
      return run(
        query
          .order("due", { ascending: true })
          .order("card_id", { ascending: true })
          .range(offset, offset + limit - 1),
      );
    },

    /** Suspends cards (they leave the user's queue) or brings them back; returns how many changed. */
    async setSuspended(cardIds: string[], suspended: boolean): Promise<number> {
      const ids = validate(cardIdsSchema, cardIds);
      const flag = validate(z.boolean({ error: "Suspended must be true or false." }), suspended);
      await currentUserId(supabase);
      return run(supabase.rpc("set_suspended", { p_card_ids: ids, p_suspended: flag }));
    },

    /**
     * Buries cards until the user's next study day starts (they leave today's
     * queue), or unburies them. Returns each card's schedule version after it:
     * a bury is a schedule change, so an answer must be computed from the new one.
     */
    async setBuried(cardIds: string[], buried: boolean): Promise<BuriedCard[]> {
      const ids = validate(cardIdsSchema, cardIds);
      const value = validate(z.boolean({ error: "Buried must be true or false." }), buried);
      await currentUserId(supabase);
      return run(supabase.rpc("bury_cards", { p_card_ids: ids, p_buried: value }));
    },

    /** Buries or unburies every card of the notes given, the user's schedule of each (Anki's "bury note"). */
    async setBuriedForNotes(noteIds: string[], buried: boolean): Promise<BuriedCard[]> {
      const ids = validate(noteIdsSchema, noteIds);
      const value = validate(z.boolean({ error: "Buried must be true or false." }), buried);
      await currentUserId(supabase);
      const cards = await cardsOfNotes(supabase, ids);
      return run(supabase.rpc("bury_cards", { p_card_ids: cards, p_buried: value }));
    },

    /**
     * Sets the user's flag on cards (1-7, Anki's colours), or clears it (0).
     * Only the user sees it. Returns how many cards changed.
     */
    async setFlag(cardIds: string[], flag: CardFlag): Promise<number> {
      const ids = validate(cardIdsSchema, cardIds);
      const value = validate(flagSchema, flag);
      await currentUserId(supabase);
      return run(supabase.rpc("set_flag", { p_card_ids: ids, p_flag: value }));
    },

    /**
     * Suspends or unsuspends every card of the notes given, in one change (the
     * browser's bulk action); returns how many schedules changed.
     */
    async setSuspendedForNotes(noteIds: string[], suspended: boolean): Promise<number> {
      const ids = validate(noteIdsSchema, noteIds);
      const flag = validate(z.boolean({ error: "Suspended must be true or false." }), suspended);
      await currentUserId(supabase);
      const cards = await cardsOfNotes(supabase, ids);
      return run(supabase.rpc("set_suspended", { p_card_ids: cards, p_suspended: flag }));
    },
  };
}

/** The ids of the notes' cards; `not-found` when a note has none the user can see. */
async function cardsOfNotes(supabase: EngramClient, noteIds: string[]): Promise<string[]> {
  const cards = await run(supabase.from("cards").select("id, note_id").in("note_id", noteIds));
  // Every note has a card, so a note without any is one the user cannot see.
  if (new Set(cards.map((card) => card.note_id)).size < noteIds.length) {
    throw new EngramError("not-found", "Some of these notes do not exist or are not shared with you.", {
      field: "note_ids",
    });
  }
  return cards.map((card) => card.id);
}
