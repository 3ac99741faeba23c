/**
 * The shape an import is staged in under its `import_jobs` row: the payload of
 * `stage_import`, read by `finish_import` (supabase/migrations/*_imports.sql).
 */
import type { CardSchedule, CardState, NoteFields, NoteKind } from "@engram/core";

/**
 * One answer, as a tuple: a history of 100,000 answers stages in half the bytes
 * of objects with these keys (finish_import still reads either).
 */
export type StagedReview = [
  client_review_id: string,
  rating: 1 | 2 | 3 | 4,
  state: CardState,
  due: string,
  stability: number,
  difficulty: number,
  elapsed_days: number,
  last_elapsed_days: number,
  scheduled_days: number,
  learning_steps: number,
  reviewed_at: string,
  duration_ms: number,
];

export type StagedSchedule = Omit<CardSchedule, "due" | "last_review"> & { due: string; last_review: string | null };

export type StagedCard = {
  ordinal: number;
  suspended: boolean;
  buried_until: string | null;
  schedule: StagedSchedule | null;
  reviews: StagedReview[];
};

/**
 * A package's note type, staged in the first batch (`note_types`): finish_import
 * finds the target deck's note type of the same definition (by name, or by Anki's
 * id) or creates it, and custom notes name it by `key`.
 */
export type StagedNoteType = {
  key: string;
  name: string;
  kind: "standard" | "cloze";
  fields: string[];
  templates: { name: string; front: string; back: string }[];
  css: string;
  source_id: number | null;
};

/**
 * A package's deck option group, staged in the first batch (`presets`):
 * finish_import finds the user's preset of the same Anki id (or name and
 * options) or creates it, and each deck it makes takes the preset its
 * `deck_presets` entry names by `key`.
 */
export type StagedPreset = {
  key: string;
  name: string;
  new_per_day: number | null;
  reviews_per_day: number | null;
  leech_threshold: number;
  leech_action: "suspend" | "tag_only";
  bury_new: boolean;
  bury_reviews: boolean;
  bury_interday_learning: boolean;
  source_id: number | null;
};

/** The preset of the deck at `deck` (a path under the import's deck; empty: the import's deck itself). */
export type StagedDeckPreset = { deck: string[]; preset: string };

export type StagedNote = {
  /**
   * Where the note came from, so a second import of it updates or skips instead of
   * duplicating: an Anki guid as it is, or a key with a space (which Anki's base-91
   * guids never hold) for a CSV row or one card of a custom note type.
   */
  guid: string | null;
  kind: NoteKind;
  fields: NoteFields | Record<string, string>;
  tags: string[];
  cards: StagedCard[];
  /** A custom note's note type: the `key` of one of the job's staged note types. */
  note_type?: string;
  /**
   * A deck-tree import (`deck_tree`): the note's Anki deck path as names, the
   * deck under the import's deck it goes to (made if missing).
   */
  deck?: string[];
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

/**
 * The server takes a batch of at most 4 MiB of JSON and 1,000 batches a job
 * (`private.import_limits`): batches of up to 1,000 notes and 500 KB, counted
 * in UTF-8 bytes as the server counts them, keep well under the first and
 * reach the second only past more notes than an import may hold. Storing a
 * batch holds the embedded database, which runs one statement at a time: at
 * 1 MB a call kept everyone else waiting up to 1.2 s on two cores, at 500 KB
 * up to 0.6 s (bench/transfer.ts), for the same import time.
 */
const maxBatchNotes = 1000;
const maxBatchBytes = 500_000;

/** The UTF-8 length of a string, without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair is one code point of four bytes.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Splits notes into stage_import payloads, each at most `maxBatchNotes` notes and about `maxBatchBytes` of JSON. */
export function batches(notes: readonly StagedNote[]): StagedNote[][] {
  const result: StagedNote[][] = [];
  let current: StagedNote[] = [];
  let bytes = 0;
  for (const note of notes) {
    const size = utf8Bytes(JSON.stringify(note));
    if (current.length > 0 && (current.length >= maxBatchNotes || bytes + size > maxBatchBytes)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(note);
    bytes += size;
  }
  if (current.length > 0) result.push(current);
  return result;
}
