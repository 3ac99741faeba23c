/**
 * The Undo beside "Deleted 3 notes.": brings the notes just deleted back from
 * Recently deleted, with their cards and schedules (docs/product.md §3).
 */
import { useMutation } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { restoreErrorMessage } from "../../lib/error-messages.js";
import { useEngramMutations } from "../../session/mutations.js";
import { notesCount } from "./notes-count.js";

export interface Undoable {
  /** The status message the deletion showed; the Undo goes once another replaces it. */
  message: string;
  noteIds: string[];
}

export function UndoDelete({
  deckId,
  noteIds,
  onDone,
}: {
  deckId: string;
  noteIds: string[];
  onDone: (message: string) => void;
}) {
  const restore = useMutation(useEngramMutations().deletedNotes.restore());
  return (
    <button
      type="button"
      className="button secondary small undo-delete"
      disabled={restore.isPending}
      onClick={() =>
        restore.mutate(
          { deckId, noteIds },
          {
            onSuccess: (count) => onDone(`Restored ${notesCount(count)}.`),
            onError: (error) => onDone(restoreErrorMessage(error)),
          },
        )
      }
    >
      <RotateCcw aria-hidden="true" /> {restore.isPending ? "Restoring…" : "Undo"}
    </button>
  );
}
