/**
 * Custom study: studying outside today's schedule (docs/product.md, "Custom
 * study"). Cards due in the next days, cards forgotten lately and cards a
 * search finds come from custom_study_cards; more new cards today is
 * extend_study_day, after which the normal queue gives them.
 */
import { parseSearch, SearchSyntaxError } from "@engram/core";
import { z } from "zod/mini";
import type { Json } from "../database.types.js";
import { EngramError } from "../errors.js";
import { run, validate } from "../request.js";
import type { EngramClient } from "../supabase-client.js";
import { type StudyCard, studyCardFromRow } from "./cards.js";
import { withNoteTypes } from "./queue.js";

/** The most cards one custom session takes. */
export const customStudyLimit = 1000;

const deckId = z.optional(z.guid("Unknown deck."));
const days = z
  .number("Give the number of days.")
  .check(z.int("Give a whole number of days."), z.gte(1, "Give at least 1 day."), z.lte(365, "Give at most 365 days."));
const limit = z._default(
  z
    .number("Give the number of cards.")
    .check(
      z.int("Give a whole number of cards."),
      z.gte(1, "Take at least 1 card."),
      z.lte(customStudyLimit, `Take at most ${customStudyLimit} cards.`),
    ),
  customStudyLimit,
);

const customSchema = z.discriminatedUnion(
  "mode",
  [
    z.object({ mode: z.literal("ahead"), deckId, days, limit }),
    z.object({ mode: z.literal("forgotten"), deckId, days, limit }),
    z.object({
      mode: z.literal("search"),
      deckId,
      search: z
        .string("Give a search.")
        .check(z.trim(), z.minLength(1, "Give a search."), z.maxLength(1000, "A search is at most 1000 characters.")),
      limit,
    }),
  ],
  "Choose ahead, forgotten or search.",
);

/**
 * A custom session's cards: `ahead` — cards studied before and due within
 * `days` days, earliest first; `forgotten` — cards answered Again in the last
 * `days` days; `search` — the cards of the notes an Anki-syntax search finds.
 * In `deckId` and its subdecks (every deck when left out).
 */
export type CustomStudyOptions = z.input<typeof customSchema>;
export type CustomStudyMode = CustomStudyOptions["mode"];

/** The cards, in study order, and how many matched before the limit. */
export type CustomStudyCards = { cards: StudyCard[]; matched: number };

export async function fetchCustomCards(supabase: EngramClient, options: CustomStudyOptions): Promise<CustomStudyCards> {
  const input = validate(customSchema, options);
  const rows = await run(
    supabase.rpc("custom_study_cards", {
      // null studies every deck (the generated type misses that the argument may be null)
      p_deck_id: input.deckId ?? (null as unknown as string),
      p_mode: input.mode,
      ...(input.mode === "search" ? { p_query: searchTree(input.search) as unknown as Json } : { p_days: input.days }),
      p_limit: input.limit,
    }),
  );
  return { cards: await withNoteTypes(supabase, rows.map(studyCardFromRow)), matched: rows[0]?.matched ?? 0 };
}

const extendSchema = z.object({
  deckId: z.guid("Unknown deck."),
  extraNew: z
    .number("Give the number of new cards.")
    .check(
      z.int("Give a whole number of new cards."),
      z.gte(1, "Add at least 1 new card."),
      z.lte(9999, "Add at most 9999 new cards."),
    ),
});

/** Adds new cards to the deck's limit for today; returns today's extra new cards for the deck. */
export async function extendToday(supabase: EngramClient, deckId: string, extraNew: number): Promise<number> {
  const input = validate(extendSchema, { deckId, extraNew });
  return run(supabase.rpc("extend_study_day", { p_deck_id: input.deckId, p_extra_new: input.extraNew }));
}

function searchTree(search: string) {
  try {
    return parseSearch(search);
  } catch (error) {
    if (!(error instanceof SearchSyntaxError)) throw error;
    throw new EngramError("search/syntax", error.message, { detail: { kind: error.kind, at: error.at }, cause: error });
  }
}
