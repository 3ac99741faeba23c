/** What reading an Anki package returns, shaped for Engram's notes, cards and review logs. */
import type { NoteFields, NoteKind } from "../../notes";

export type AnkiFormat = "anki2" | "anki21" | "anki21b";

export type AnkiReadOptions = {
  /** The sql.js wasm bytes, when the caller has them (a browser worker). */
  wasmBinary?: ArrayBuffer;
  /** Where sql.js finds `sql-wasm.wasm` (a browser worker passes a URL). */
  locateFile?: (file: string) => string;
  /** Most bytes the package may unpack to, all members and zstd streams together. Default 1 GiB. */
  maxUncompressedBytes?: number;
};

export type AnkiDeck = { ankiDeckId: number; name: string };

export type AnkiNoteTypeSummary = {
  ankiNoteTypeId: number;
  name: string;
  kind: "normal" | "cloze";
  fields: string[];
  templates: string[];
  noteCount: number;
};

/** Anki's own schedule columns, kept so a later step can convert them to FSRS states. */
export type AnkiSchedule = {
  type: number;
  queue: number;
  due: number;
  ivl: number;
  factor: number;
  reps: number;
  lapses: number;
};

export type AnkiCard = {
  ankiCardId: number;
  /** Anki's template or cloze index (0-based). */
  ankiOrdinal: number;
  /** Engram's card ordinal within the mapped note. */
  ordinal: number;
  /** The card's home deck (its original deck when Anki had it in a filtered deck). */
  deckName: string;
  suspended: boolean;
  buried: boolean;
  ankiSchedule: AnkiSchedule;
};

/**
 * One Engram note. A custom Anki note type yields one basic note per card, so several
 * of these can share an `ankiNoteId` and `guid`; each card's `ankiCardId` stays unique.
 */
export type AnkiNote<K extends NoteKind = NoteKind> = {
  ankiNoteId: number;
  guid: string;
  deckName: string;
  kind: K;
  fields: NoteFields<K>;
  /** The Anki note's fields as stored, by field name. */
  rawFields: Record<string, string>;
  tags: string[];
  ankiNoteTypeName: string;
  cards: AnkiCard[];
};

export type AnkiMedia = { name: string; data: Uint8Array; mime: string };

export type AnkiReview = {
  /** The revlog row id: when it was answered, in epoch milliseconds, and unique in the collection. */
  ankiReviewId: number;
  ankiCardId: number;
  reviewedAt: Date;
  /** Anki's ease: 1 again, 2 hard, 3 good, 4 easy. Rows without an answer (ease 0) are skipped. */
  rating: 1 | 2 | 3 | 4;
  durationMs: number;
  /** 0 learn, 1 review, 2 relearn, 3 filtered/cram, 4 manual/rescheduled: only 0–3 should train FSRS. */
  type: number;
  /** Negative values are seconds (learning steps), as in Anki. */
  intervalDays: number;
  lastIntervalDays: number;
  factor: number;
};

export type AnkiSkipped = { reason: string; count: number };

export type AnkiPackage = {
  format: AnkiFormat;
  /**
   * What turning `ankiSchedule` into dates needs: review cards' `due` is a day number
   * counted from `createdAt`'s day, learning cards' `due` is epoch seconds.
   */
  collection: { createdAt: Date; schedulerVersion: number };
  decks: AnkiDeck[];
  noteTypes: AnkiNoteTypeSummary[];
  notes: AnkiNote[];
  media: AnkiMedia[];
  reviews: AnkiReview[];
  skipped: AnkiSkipped[];
};
