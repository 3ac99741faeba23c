/** What reading an Anki package returns, shaped for Engram's notes, cards and review logs. */
import type { ImageOcclusionFields } from "../../image-occlusion";
import type { BasicFields, ClozeFields, NoteType } from "../../notes";

export type AnkiFormat = "anki2" | "anki21" | "anki21b";

export type AnkiReadOptions = {
  /** The sql.js wasm bytes, when the caller has them (a browser worker). */
  wasmBinary?: ArrayBuffer;
  /** Where sql.js finds `sql-wasm.wasm` (a browser worker passes a URL). */
  locateFile?: (file: string) => string;
  /** Most bytes the package may unpack to, all members and zstd streams together. Default 1 GiB. */
  maxUncompressedBytes?: number;
};

export type AnkiDeck = {
  ankiDeckId: number;
  name: string;
  /** The id of the option group (`AnkiPackage.deckConfigs`) the deck studies with; null for a filtered deck. */
  configId: number | null;
};

/**
 * An Anki deck option group ("preset"), as much of it as Engram keeps: daily
 * limits (0–9999), the leech threshold (1–99; larger ones are cut to 99) and
 * action, and burying of siblings. Missing or unreadable values take Anki's defaults.
 */
export type AnkiDeckConfig = {
  id: number;
  name: string;
  newPerDay: number;
  reviewsPerDay: number;
  leechThreshold: number;
  leechAction: "suspend" | "tag_only";
  buryNew: boolean;
  buryReviews: boolean;
  buryInterdayLearning: boolean;
};

export type AnkiCardTemplate = { name: string; front: string; back: string };

export type AnkiNoteTypeSummary = {
  ankiNoteTypeId: number;
  name: string;
  kind: "normal" | "cloze";
  fields: string[];
  /** Template names, in card order. */
  templates: string[];
  /** The templates whole: Anki's qfmt as `front`, afmt as `back`. */
  cardTemplates: AnkiCardTemplate[];
  css: string;
  /** Anki's OriginalStockKind: 1–5 the stock types, 6 image occlusion, 0 the user's own (or unknown). */
  originalStockKind: number;
  noteCount: number;
  /** True when its notes are imported as `custom` notes of this note type (not mapped to a built-in kind). */
  kept: boolean;
  /** Markup its templates hold that cards never show (scripts, frames, forms…), by tag name. */
  droppedMarkup: string[];
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

type AnkiNoteBase = {
  ankiNoteId: number;
  guid: string;
  deckName: string;
  /** The Anki note's fields as stored, by field name. */
  rawFields: Record<string, string>;
  tags: string[];
  ankiNoteTypeId: number;
  ankiNoteTypeName: string;
  cards: AnkiCard[];
};

/**
 * One Engram note, from one Anki note. Stock note types map to Engram's built-in
 * kinds; any other note type is kept: a `custom` note whose fields are the Anki
 * fields by name, with its note type.
 */
export type AnkiNote = AnkiNoteBase &
  (
    | { kind: "basic" | "basic_reversed" | "type_in"; fields: BasicFields }
    | { kind: "cloze"; fields: ClozeFields }
    | { kind: "image_occlusion"; fields: ImageOcclusionFields }
    /** `noteType` is one object for all notes of the type. */
    | { kind: "custom"; fields: Record<string, string>; noteType: NoteType }
  );

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
  /**
   * Every option group in the package, by id. A deck whose group is missing uses
   * group 1 as in Anki, and when that is missing too, Anki's defaults as group 1.
   */
  deckConfigs: AnkiDeckConfig[];
  noteTypes: AnkiNoteTypeSummary[];
  notes: AnkiNote[];
  media: AnkiMedia[];
  /** Media names the notes refer to that the package does not hold, sorted. */
  missingMedia: string[];
  reviews: AnkiReview[];
  skipped: AnkiSkipped[];
};
