/** The deck's note types and, for the one opened, how many notes use it and one of them to preview with. */
import type { DeckNoteType } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "../../session/factories.js";

export type { DeckNoteType };

export function useNoteTypes(deckId: string) {
  return useQuery(useEngramQueries().noteTypes.list(deckId));
}

/** The newest note of the type and the count of them all. */
export function useNotesOfType(deckId: string, noteTypeId: string) {
  const page = useQuery(useEngramQueries().notes.list(deckId, { noteTypeId, limit: 1 }));
  const note = page.data?.notes[0];
  return {
    count: page.data?.total,
    sample: note ? (note.fields as Record<string, unknown>) : undefined,
  };
}
