/**
 * The shape an import is staged in under its `import_jobs` row: the payload of
 * `stage_import`, read by `finish_import` (supabase/migrations/*_imports.sql).
 */
import type { CardSchedule, CardState, NoteFields, NoteKind } from "@engram/core";

export type StagedReview = {
  client_review_id: string;
  rating: 1 | 2 | 3 | 4;
  state: CardState;
  due: string;
  stability: number;
  difficulty: number;
  elapsed_days: number;
  last_elapsed_days: number;
  scheduled_days: number;
  learning_steps: number;
  reviewed_at: string;
  duration_ms: number;
};

export type StagedSchedule = Omit<CardSchedule, "due" | "last_review"> & { due: string; last_review: string | null };

export type StagedCard = {
  ordinal: number;
  suspended: boolean;
  buried_until: string | null;
  schedule: StagedSchedule | null;
  reviews: StagedReview[];
};

export type StagedNote = {
  /**
   * Where the note came from, so a second import of it updates or skips instead of
   * duplicating: an Anki guid as it is, or a key with a space (which Anki's base-91
   * guids never hold) for a CSV row or one card of a custom note type.
   */
  guid: string | null;
  kind: NoteKind;
  fields: NoteFields;
  tags: string[];
  cards: StagedCard[];
};

export type Skipped = { reason: string; count: number };

/** Counts skipped things by reason, in the order first seen. */
export class SkipTally {
  readonly #counts = new Map<string, number>();

  add(reason: string, count = 1): void {
    if (count > 0) this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + count);
  }

  addAll(skipped: readonly Skipped[]): void {
    for (const { reason, count } of skipped) this.add(reason, count);
  }

  list(): Skipped[] {
    return [...this.#counts].map(([reason, count]) => ({ reason, count }));
  }
}

/** The server refuses payloads over 8 MB; batches stay well under it and small enough to retry cheaply. */
const maxBatchNotes = 1000;
const maxBatchChars = 2_000_000;

/** Splits notes into stage_import payloads, each at most `maxBatchNotes` notes and about `maxBatchChars` of JSON. */
export function batches(notes: readonly StagedNote[]): StagedNote[][] {
  const result: StagedNote[][] = [];
  let current: StagedNote[] = [];
  let chars = 0;
  for (const note of notes) {
    const size = JSON.stringify(note).length;
    if (current.length > 0 && (current.length >= maxBatchNotes || chars + size > maxBatchChars)) {
      result.push(current);
      current = [];
      chars = 0;
    }
    current.push(note);
    chars += size;
  }
  if (current.length > 0) result.push(current);
  return result;
}
