/**
 * Recently deleted notes: a deck's notes deleted in the last 30 days, kept
 * with their cards, every member's schedule and the answers, and bringing
 * them back (docs/product.md §3, "Recently deleted").
 */
import { z } from "zod/mini";
import type { Database } from "./database.types.js";
import { maxBulkNotes } from "./notes.js";
import { run, runAllPages, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

type DeletedRow = Database["public"]["Functions"]["deleted_notes"]["Returns"][number];

/** A deleted note as the list shows it: what it was, who deleted it and when. */
export interface DeletedNote {
  noteId: string;
  kind: DeletedRow["kind"];
  noteTypeId: string | null;
  /** The note's first field as one line of plain text. */
  sortField: string;
  cardCount: number;
  /** Null once the account that deleted it is gone. */
  deletedBy: { id: string; name: string | null } | null;
  deletedAt: string;
  /** The days before it is gone for good, rounded up: 30 just after the delete, 1 on its last day. */
  daysLeft: number;
}

/** How long a deleted note can be restored (docs/product.md §3). */
export const deletedNoteDays = 30;

const deckIdSchema = z.guid("Unknown deck.");
const noteIdsSchema = z
  .array(z.guid("Unknown note."), { error: "Choose the notes to restore." })
  .check(
    z.minLength(1, "Choose at least one note."),
    z.maxLength(maxBulkNotes, `Choose at most ${maxBulkNotes} notes at once.`),
  );

function deletedNoteOf(row: DeletedRow): DeletedNote {
  // A set-returning function's columns are typed non-null; these may be null.
  const deletedBy = row.deleted_by as string | null;
  return {
    noteId: row.note_id,
    kind: row.kind,
    noteTypeId: (row.note_type_id as string | null) ?? null,
    sortField: row.sort_field,
    cardCount: row.card_count,
    deletedBy: deletedBy ? { id: deletedBy, name: (row.deleted_by_name as string | null) ?? null } : null,
    deletedAt: row.deleted_at,
    daysLeft: row.days_left,
  };
}

export function createDeletedNotes(supabase: EngramClient) {
  return {
    /**
     * The deck's notes deleted in the last 30 days, newest first (its
     * members; viewers too). Others get `not-found`, a public deck's
     * visitors `permission-denied`.
     */
    async list(deckId: string): Promise<DeletedNote[]> {
      const id = validate(deckIdSchema, deckId);
      await currentUserId(supabase);
      const rows = await runAllPages<DeletedRow>((from, to) =>
        supabase.rpc("deleted_notes", { p_deck_id: id }).range(from, to),
      );
      return rows.map(deletedNoteOf);
    },

    /**
     * Brings deleted notes back with their cards, the schedules of those
     * still members of the deck and the answers, all or nothing (owners and
     * editors). Returns how many came back: a note already restored is left
     * as it is, so a retry returns 0. An id that was never deleted, or whose
     * 30 days are over, fails the call with `not-found` (field `note_ids`);
     * a custom note whose note type was deleted since, with `not-found`
     * (field `note_type_id`).
     */
    async restore(noteIds: string[]): Promise<number> {
      const ids = validate(noteIdsSchema, noteIds);
      await currentUserId(supabase);
      return run(supabase.rpc("restore_notes", { p_note_ids: ids }));
    },
  };
}
