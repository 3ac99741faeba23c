/**
 * `engram.suggestions`: proposed edits, new notes and deletions, with a
 * rationale, that a deck's owner and editors accept or reject
 * (docs/product.md §4, "Suggestions"). Who may suggest is the deck's
 * `suggestions_from`; the database checks the contents as it checks a note's.
 */
import { z } from "zod/mini";
import type { Enums, Tables } from "./database.types.js";
import { toEngramError } from "./errors.js";
import type { TableChange } from "./realtime/changes.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

/** A note's fields by name, as text. */
export type SuggestedFields = Record<string, string>;

export type SuggestionAction = Enums<"suggestion_action">;
export type SuggestionStatus = Enums<"suggestion_status">;
export type SuggestionsFrom = Enums<"suggestions_from">;
/** Why a suggestion closed without a review. */
export type SuggestionClosedBecause = "withdrawn" | "note_deleted" | "not_allowed";

/** A suggestion as stored: what it proposes, the note as its author saw it, and its outcome. */
export type Suggestion = Omit<Tables<"note_suggestions">, "fields" | "base_fields" | "closed_because"> & {
  fields: SuggestedFields | null;
  base_fields: SuggestedFields | null;
  closed_because: SuggestionClosedBecause | null;
};

/** One of the user's own suggestions, with its deck's name (null once the deck is out of reach). */
export type MySuggestion = Suggestion & { deck_name: string | null };

/** A suggestion in a deck's review queue, beside the note as it is now (null for a new note, or a deleted one). */
export interface PendingSuggestion {
  id: string;
  deckId: string;
  noteId: string | null;
  authorId: string;
  authorName: string;
  action: SuggestionAction;
  kind: Tables<"notes">["kind"];
  noteTypeId: string | null;
  fields: SuggestedFields | null;
  tags: string[] | null;
  rationale: string;
  createdAt: string;
  base: { version: number; fields: SuggestedFields; tags: string[] } | null;
  current: { version: number; fields: SuggestedFields; tags: string[] } | null;
  /** The note changed since the suggestion was made: show base, current and suggested. */
  changedSince: boolean;
}

export type SuggestionInput =
  | { action: "edit"; noteId: string; fields: SuggestedFields; tags?: string[]; rationale?: string }
  | {
      action: "create";
      deckId: string;
      kind: Tables<"notes">["kind"];
      noteTypeId?: string | null;
      fields: SuggestedFields;
      tags?: string[];
      rationale?: string;
    }
  | { action: "delete"; noteId: string; rationale?: string };

export interface ReviewInput {
  ids: string[];
  decision: "accept" | "reject";
  /** Shown to the suggester; at most 1,000 characters. */
  reason?: string | null;
  /** What to accept instead of what a suggestion proposes, by suggestion id. */
  edits?: Record<string, { fields?: SuggestedFields; tags?: string[] }>;
}

/** The most suggestions one review takes (all or nothing). */
export const maxReviewedSuggestions = 200;
export const maxRationaleLength = 1000;

/** The deck's suggestions changed (made, reviewed, closed); `ids` are the suggestions'. */
export type SuggestionEvent = TableChange<"note_suggestions">;

const idSchema = z.guid("Unknown id.");
const rationaleSchema = z._default(
  z
    .string({ error: "The rationale must be text." })
    .check(z.maxLength(maxRationaleLength, `Use at most ${maxRationaleLength} characters.`)),
  "",
);
const fieldsSchema = z.record(z.string(), z.string({ error: "Fields are text." }));
const tagsSchema = z.optional(z.array(z.string()));
const inputSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("edit"),
    noteId: idSchema,
    fields: fieldsSchema,
    tags: tagsSchema,
    rationale: rationaleSchema,
  }),
  z.object({
    action: z.literal("create"),
    deckId: idSchema,
    kind: z.enum(["basic", "basic_reversed", "cloze", "type_in", "custom", "image_occlusion"]),
    noteTypeId: z.nullish(idSchema),
    fields: fieldsSchema,
    tags: tagsSchema,
    rationale: rationaleSchema,
  }),
  z.object({ action: z.literal("delete"), noteId: idSchema, rationale: rationaleSchema }),
]);
const reviewSchema = z.object({
  ids: z
    .array(idSchema)
    .check(
      z.minLength(1, "Choose at least one suggestion."),
      z.maxLength(maxReviewedSuggestions, `Review at most ${maxReviewedSuggestions} suggestions at once.`),
    ),
  decision: z.enum(["accept", "reject"]),
  reason: z.nullish(z.string().check(z.maxLength(maxRationaleLength, `Use at most ${maxRationaleLength} characters.`))),
  edits: z.optional(
    z.record(z.string(), z.object({ fields: z.optional(fieldsSchema), tags: z.optional(z.array(z.string())) })),
  ),
});

type QueueRow = {
  [K in keyof Omit<
    Tables<"note_suggestions">,
    "status" | "closed_because" | "review_reason" | "reviewer_id" | "reviewed_at"
  >]: Tables<"note_suggestions">[K];
} & {
  author_name: string;
  current_version: number | null;
  current_fields: SuggestedFields | null;
  current_tags: string[] | null;
  changed_since: boolean;
};

const toPending = (row: QueueRow): PendingSuggestion => ({
  id: row.id,
  deckId: row.deck_id,
  noteId: row.note_id,
  authorId: row.author_id,
  authorName: row.author_name,
  action: row.action,
  kind: row.kind,
  noteTypeId: row.note_type_id,
  fields: row.fields as SuggestedFields | null,
  tags: row.tags,
  rationale: row.rationale,
  createdAt: row.created_at,
  base:
    row.base_version === null
      ? null
      : { version: row.base_version, fields: row.base_fields as SuggestedFields, tags: row.base_tags ?? [] },
  current:
    row.current_version === null
      ? null
      : { version: row.current_version, fields: row.current_fields ?? {}, tags: row.current_tags ?? [] },
  changedSince: row.changed_since,
});

const mineLimit = 200;

export function createSuggestions(supabase: EngramClient) {
  return {
    /**
     * Proposes a change. Throws `permission-denied` when the deck takes no
     * suggestions from the user, `validation` (with `rule` or `field`) for
     * contents a note could not hold or an edit that changes nothing, and
     * `quota-exceeded` (`field` `pending` or `rate`) past 100 waiting in a deck
     * or 20 a minute.
     */
    async suggest(input: SuggestionInput): Promise<Suggestion> {
      const value = validate(inputSchema, input);
      const args =
        value.action === "create"
          ? {
              p_action: value.action,
              p_deck_id: value.deckId,
              p_kind: value.kind,
              ...(value.noteTypeId ? { p_note_type_id: value.noteTypeId } : {}),
              p_fields: value.fields,
              p_tags: value.tags ?? [],
              p_rationale: value.rationale,
            }
          : value.action === "edit"
            ? {
                p_action: value.action,
                p_note_id: value.noteId,
                p_fields: value.fields,
                ...(value.tags ? { p_tags: value.tags } : {}),
                p_rationale: value.rationale,
              }
            : { p_action: value.action, p_note_id: value.noteId, p_rationale: value.rationale };
      return (await run(supabase.rpc("suggest_note_change", args).single())) as Suggestion;
    },

    /** Takes back one of the user's pending suggestions. */
    async withdraw(id: string): Promise<Suggestion> {
      const suggestionId = validate(idSchema, id);
      return (await run(supabase.rpc("withdraw_suggestion", { p_id: suggestionId }).single())) as Suggestion;
    },

    /**
     * A deck's review queue, oldest first, for its owner and editors
     * (`permission-denied` for anyone else).
     */
    async pending(deckId: string): Promise<PendingSuggestion[]> {
      const id = validate(idSchema, deckId);
      const rows = await run(supabase.rpc("pending_suggestions", { p_deck_id: id }));
      return (rows as unknown as QueueRow[]).map(toPending);
    },

    /** How many suggestions wait for review in a deck (0 for those who cannot review them). */
    async pendingCount(deckId: string): Promise<number> {
      const id = validate(idSchema, deckId);
      const result = await supabase
        .from("note_suggestions")
        .select("id", { count: "exact", head: true })
        .eq("deck_id", id)
        .eq("status", "pending");
      if (result.error) await run(Promise.resolve(result));
      return result.count ?? 0;
    },

    /** The user's own suggestions, newest first (the latest 200), with their outcomes. */
    async mine(): Promise<MySuggestion[]> {
      const userId = await currentUserId(supabase);
      const rows = await run(
        supabase
          .from("note_suggestions")
          .select("*, decks(name)")
          .eq("author_id", userId)
          .order("created_at", { ascending: false })
          .order("id")
          .limit(mineLimit),
      );
      return (rows as unknown as (Suggestion & { decks: { name: string } | null })[]).map(({ decks, ...row }) => ({
        ...row,
        deck_name: decks?.name ?? null,
      }));
    },

    /**
     * Accepts or rejects suggestions, all or nothing. Throws `conflict` with
     * `detail.suggestions` ([{id, status}]) when some are no longer pending,
     * and with `detail.conflicts` ([{id, fields}]) when an edit changes fields
     * changed since in the note: edit those suggestions (`edits`) first.
     */
    async review(input: ReviewInput): Promise<Suggestion[]> {
      const value = validate(reviewSchema, input);
      const rows = await run(
        supabase.rpc("review_suggestions", {
          p_ids: value.ids,
          p_decision: value.decision,
          ...(value.reason ? { p_reason: value.reason } : {}),
          ...(value.edits && Object.keys(value.edits).length > 0 ? { p_edits: value.edits } : {}),
        }),
      );
      return rows as unknown as Suggestion[];
    },
  };
}
