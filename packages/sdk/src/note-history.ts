/**
 * A note's history, kept by the database: every version with its author,
 * a deck's changes in a period, what others changed since the caller last
 * studied, and bringing back an old version (docs/product.md §3, "Note history").
 */
import { z } from "zod/mini";
import type { Database } from "./database.types.js";
import { EngramError } from "./errors.js";
import { run, runAllPages, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

type HistoryRow = Database["public"]["Functions"]["note_history_of"]["Returns"][number];
/** The note as a revert left it. */
export type RevertedNote = Database["public"]["Functions"]["revert_note"]["Returns"];

export type NoteHistoryAction = "create" | "edit" | "move" | "delete" | "restore" | "revert";

/** One version of a note: the note as that change left it, with the one before it to compare. */
export interface NoteHistoryEntry {
  noteId: string;
  deckId: string;
  version: number;
  action: NoteHistoryAction;
  kind: HistoryRow["kind"];
  noteTypeId: string | null;
  fields: Record<string, string>;
  tags: string[];
  /** The version before this one (null for the first one the caller may read). */
  previousFields: Record<string, string> | null;
  previousTags: string[] | null;
  author: { id: string; name: string | null } | null;
  /** A second author: who suggested the change an editor accepted. */
  coAuthor: { id: string; name: string | null } | null;
  /** For a `revert`: the version it brought back. */
  revertedFrom: number | null;
  createdAt: string;
}

/** What others changed in a deck since a time (by default the caller's last study of it). */
export interface DeckChanges {
  /** The start of the period; null when the caller never studied the deck (then nothing is counted). */
  since: string | null;
  edited: number;
  added: number;
  deleted: number;
  authors: { id: string; name: string | null }[];
}

export interface DeckHistoryOptions {
  /** Changes after this time (ISO); default: since the deck began. */
  since?: string | undefined;
  /** Changes up to this time (ISO); default: now. */
  until?: string | undefined;
  /** 1-200 changes a page; default 50. */
  limit?: number | undefined;
  /** The `nextCursor` of the page before. */
  cursor?: string | undefined;
}

export interface DeckHistoryPage {
  entries: NoteHistoryEntry[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

const noteIdSchema = z.guid("Unknown note.");
const deckIdSchema = z.guid("Unknown deck.");
const versionSchema = z.number().check(z.int("Choose a version."), z.gte(1, "Choose a version."));
const timeSchema = z.iso.datetime({ offset: true, error: "Give a time as an ISO date and time." });
const deckHistoryOptionsSchema = z.object({
  since: z.optional(timeSchema),
  until: z.optional(timeSchema),
  limit: z.optional(
    z.number().check(z.int(), z.gte(1, "A page holds 1 to 200 changes."), z.lte(200, "A page holds 1 to 200 changes.")),
  ),
  cursor: z.optional(z.string()),
});
const cursorSchema = z.tuple([z.string(), z.guid(), z.number().check(z.int())]);

function entryOf(row: HistoryRow): NoteHistoryEntry {
  return {
    noteId: row.note_id,
    deckId: row.deck_id,
    version: row.version,
    action: row.action as NoteHistoryAction,
    kind: row.kind,
    noteTypeId: row.note_type_id,
    fields: row.fields as Record<string, string>,
    tags: row.tags,
    previousFields: (row.previous_fields as Record<string, string> | null) ?? null,
    previousTags: row.previous_tags ?? null,
    author: row.author_id ? { id: row.author_id, name: row.author_name } : null,
    coAuthor: row.co_author_id ? { id: row.co_author_id, name: row.co_author_name } : null,
    revertedFrom: row.reverted_from,
    createdAt: row.created_at,
  };
}

function decodeCursor(cursor: string): [string, string, number] {
  try {
    return cursorSchema.parse(JSON.parse(atob(cursor)));
  } catch (cause) {
    throw new EngramError("validation", "This page of changes is not known.", { field: "cursor", cause });
  }
}

const encodeCursor = (entry: NoteHistoryEntry) => btoa(JSON.stringify([entry.createdAt, entry.noteId, entry.version]));

export function createNoteHistory(supabase: EngramClient) {
  return {
    /** A note's versions, newest first, with their authors' names (readers of its deck). */
    async list(noteId: string): Promise<NoteHistoryEntry[]> {
      const id = validate(noteIdSchema, noteId);
      // Past the API's 1,000 rows a read, page through them.
      const rows = await runAllPages<HistoryRow>((from, to) =>
        supabase.rpc("note_history_of", { p_note_id: id }).range(from, to),
      );
      return rows.map(entryOf);
    },

    /**
     * What others than the caller changed in the deck since `since`, or since
     * the caller last answered one of its cards: notes edited, added and
     * deleted, and who did it.
     */
    async deckChanges(deckId: string, since?: string): Promise<DeckChanges> {
      const id = validate(deckIdSchema, deckId);
      const from = since === undefined ? undefined : validate(timeSchema, since);
      await currentUserId(supabase);
      const result = await run(supabase.rpc("deck_changes", { p_deck_id: id, ...(from ? { p_since: from } : {}) }));
      return result as unknown as DeckChanges;
    },

    /** The deck's changes in a period, newest first, a page at a time. */
    async deckHistory(deckId: string, options: DeckHistoryOptions = {}): Promise<DeckHistoryPage> {
      const id = validate(deckIdSchema, deckId);
      const { since, until, limit = 50, cursor } = validate(deckHistoryOptionsSchema, options);
      const after = cursor ? decodeCursor(cursor) : undefined;
      const rows = await run(
        supabase.rpc("deck_history", {
          p_deck_id: id,
          p_limit: limit,
          ...(since ? { p_since: since } : {}),
          ...(until ? { p_until: until } : {}),
          ...(after ? { p_after_at: after[0], p_after_note_id: after[1], p_after_version: after[2] } : {}),
        }),
      );
      const entries = rows.map(entryOf);
      const last = entries.at(-1);
      return { entries, nextCursor: entries.length === limit && last ? encodeCursor(last) : null };
    },

    /**
     * Brings back `version` of the note as a new version (owners and editors).
     * `baseVersion` is the note's version as the caller sees it: if it changed
     * since, nothing is saved (`note/conflict`, `detail` `{ version }`). A
     * version whose note type's fields changed since is refused
     * (`note-history/type-changed`).
     */
    async revert(noteId: string, version: number, baseVersion: number): Promise<RevertedNote> {
      const id = validate(noteIdSchema, noteId);
      const to = validate(versionSchema, version);
      const base = validate(versionSchema, baseVersion);
      await currentUserId(supabase);
      try {
        return await run(supabase.rpc("revert_note", { p_note_id: id, p_version: to, p_base_version: base }));
      } catch (error) {
        if (
          error instanceof EngramError &&
          error.code === "conflict" &&
          (error.detail as { reason?: string } | undefined)?.reason === "note_type_changed"
        ) {
          throw new EngramError(
            "note-history/type-changed",
            "This version's note type has changed since, so it cannot be brought back.",
            { detail: error.detail, cause: error.cause },
          );
        }
        throw error;
      }
    },
  };
}
