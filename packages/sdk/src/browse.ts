/**
 * The note browser's rows: one sorted page of a deck's notes (notes mode) or
 * cards (cards mode), with the user's own schedules, sorted and paged by the
 * database (`browse_notes`), so any order pages as fast at 100,000 notes as
 * the first page does.
 */
import { z } from "zod/mini";
import type { Json, Tables } from "./database.types.js";
import { filterSchema, type ListedNote, requireVisibleDeck, searchTree } from "./notes.js";
import { run, validate } from "./request.js";
import type { EngramClient } from "./supabase-client.js";

export const browseModes = ["notes", "cards"] as const;
export type BrowseMode = (typeof browseModes)[number];
/** The orders a page can be sorted in, besides `field:<name>` (one field of a note type). */
export const browseSorts = [
  "sort_field",
  "created",
  "modified",
  "deck",
  "tags",
  "due",
  "interval",
  "difficulty",
  "stability",
  "retrievability",
  "lapses",
  "reviews",
] as const;
export type BrowseSort = (typeof browseSorts)[number] | `field:${string}`;
/** A page holds at most this many rows. */
export const maxBrowsePage = 500;
/** Totals are counted up to this many; beyond it a page says `capped`. */
export const browseCountCap = 10_000;

/**
 * One row: the note (in cards mode, the card's note) with the user's own tags
 * on it, its deck's name and number of cards, and the user's own schedule
 * values. In notes mode, as Anki's: `due` the earliest due of the note's
 * studied cards that are not suspended; `interval` (days), `difficulty` (0 to
 * 1), `stability` (days) and `retrievability` (0 to 1) averages over its
 * studied cards; `lapses` and `reviews` sums. In cards mode the card's own,
 * with `card_id`, `ordinal`, `template` (its card type's name), `state` and
 * `suspended`. Values are null for cards not yet studied and for visitors.
 */
export interface BrowseRow extends ListedNote {
  deck_name: string;
  due: string | null;
  interval: number | null;
  difficulty: number | null;
  stability: number | null;
  retrievability: number | null;
  lapses: number | null;
  reviews: number | null;
  card_id?: string;
  ordinal?: number;
  template?: string;
  state?: Tables<"card_states">["state"] | null;
  suspended?: boolean | null;
}

export interface BrowsePage {
  rows: BrowseRow[];
  /** How many notes (or cards) match, up to `browseCountCap`; counted on the first page only (null after). */
  total: number | null;
  /** More than `browseCountCap` match. */
  capped: boolean;
}

const deckIdSchema = z.guid("Unknown deck.");
const browseSchema = z.extend(filterSchema, {
  mode: z._default(z.enum(browseModes, { error: "Browse notes or cards." }), "notes"),
  sort: z._default(
    z.union([z.enum(browseSorts), z.string().check(z.regex(/^field:[^"]{1,100}$/))], { error: "Unknown order." }),
    "created",
  ),
  dir: z._default(z.enum(["asc", "desc"], { error: "Sort ascending or descending." }), "desc"),
  limit: z._default(z.int().check(z.gte(1), z.lte(maxBrowsePage, `A page holds at most ${maxBrowsePage} rows.`)), 100),
  offset: z._default(z.int().check(z.gte(0), z.lte(1_000_000)), 0),
});
export type BrowseOptions = z.input<typeof browseSchema>;

export function createBrowse(supabase: EngramClient) {
  return {
    /**
     * One page of a deck's notes or cards: `search` in Anki's syntax (as
     * `notes.list` takes it; `search/syntax` when it does not parse), `tags`,
     * `kind` and `noteTypeId` as there; `mode` notes (the default) or cards;
     * `sort` one of `browseSorts` or `field:<name>`, `dir` asc or desc (the
     * default), nulls last and ties by id; `limit` up to 500 and `offset`.
     */
    async page(deckId: string, options: BrowseOptions = {}): Promise<BrowsePage> {
      const id = validate(deckIdSchema, deckId);
      const { mode, sort, dir, limit, offset, search, tags, kind, noteTypeId } = validate(browseSchema, options);
      const tree = searchTree(search);
      const page = (await run(
        supabase.rpc("browse_notes", {
          p_deck_id: id,
          ...(tree ? { p_query: tree as unknown as Json } : {}),
          p_mode: mode,
          p_sort: sort,
          p_descending: dir === "desc",
          p_limit: limit,
          p_offset: offset,
          ...(kind ? { p_kind: kind } : {}),
          ...(noteTypeId ? { p_note_type_id: noteTypeId } : {}),
          ...(tags?.length ? { p_tags: tags } : {}),
        }),
      )) as unknown as { rows: BrowseRow[]; total: number | null; capped: boolean | null };
      if (page.total === 0) await requireVisibleDeck(supabase, id);
      return { rows: page.rows, total: page.total, capped: page.capped ?? false };
    },
  };
}
