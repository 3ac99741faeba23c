/**
 * Importing a deck: the file is read and mapped on the device (in a browser
 * worker or in Node), then committed by the server in one transaction.
 */
import type { ColumnMapping } from "@engram/core/import";
import { suggestMapping } from "@engram/core/import";
import { z } from "zod/mini";
import type { Engram } from "../client.js";
import { EngramError } from "../errors.js";
import { validate } from "../request.js";
import type { SvgRasterizer } from "../storage/svg.js";
import { ankiDeckNames, stageAnkiNotes, stageAnkiNoteTypes, stageAnkiPresets } from "./anki.js";
import { stageCsvNotes } from "./csv.js";
import { newJobId } from "./ids.js";
import {
  type ImportNotices,
  type ImportProgress,
  type ImportSummary,
  type ImportTarget,
  type JobInput,
  runImportJob,
} from "./job.js";
import { type CsvReadOptions, formatOf, type ImportFile, readDelimited, readPackage, type Wasm } from "./read.js";
import { SkipTally, type StagedNote, type StagedNoteType } from "./staged.js";

export type ImportOptions = {
  target: ImportTarget;
  /** Notes already in the deck from an earlier import of the same file: updated or left as they are (default). */
  existing?: "update" | "skip";
  /** Anki only: bring the review history into review_logs and the current schedule into card_states. */
  includeSchedule?: boolean;
  /**
   * Anki only: keep the package's deck tree, one subdeck under the target per
   * Anki deck, each note in its card's deck (the target's owner only). Off,
   * every note goes to the target with its deck path as a tag. By default on
   * when the package's notes are in several decks.
   */
  deckTree?: boolean;
  /**
   * Anki only: bring the package's option groups as presets of the decks the
   * import makes. Off (default, as Anki's "Import deck presets"), those decks
   * take each member's own limits.
   */
  includePresets?: boolean;
  csv?: CsvReadOptions & { mapping?: ColumnMapping };
  /** The id of an earlier attempt, to retry it; it lands once. */
  jobId?: string;
  wasm?: Wasm;
  /**
   * Draws the package's SVG pictures as PNG (no bucket takes SVG); the notes then
   * name the PNG. Without it, or where it fails, an SVG is skipped as `svg-not-converted`.
   */
  rasterizeSvg?: SvgRasterizer;
  /** Cancels the import; nothing is left behind. */
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
};

export type AnkiPreview = {
  format: "apkg" | "colpkg";
  ankiFormat: "anki2" | "anki21" | "anki21b";
  deckNames: string[];
  suggestedDeckName: string;
  notes: number;
  cards: number;
  media: number;
  reviews: number;
  /**
   * `kept`: its notes come in as notes of this note type (its fields, templates and
   * CSS); otherwise they become Engram's built-in kind of the same name. `droppedMarkup`:
   * what its templates hold that cards never show (`<script>`…).
   */
  noteTypes: { name: string; kind: "normal" | "cloze"; noteCount: number; kept: boolean; droppedMarkup: string[] }[];
  /** Media the notes use that the file does not hold. */
  missingMedia: string[];
  skipped: { reason: string; count: number }[];
};

export type CsvPreview = {
  format: "csv" | "tsv";
  delimiter: string;
  hasHeader: boolean;
  columns: string[];
  sampleRows: string[][];
  rows: number;
  mapping: ColumnMapping;
  suggestedDeckName: string;
};

const optionsSchema = z.object({
  target: z.union([
    z.object({ deckId: z.guid("Choose a deck.") }),
    z.object({
      newDeckName: z
        .string()
        .check(
          z.trim(),
          z.minLength(1, "Name the new deck."),
          z.maxLength(120, "Deck names can be at most 120 characters."),
        ),
    }),
  ]),
  existing: z._default(z.enum(["update", "skip"]), "skip"),
  includeSchedule: z._default(z.boolean(), false),
  deckTree: z.optional(z.boolean()),
  includePresets: z._default(z.boolean(), false),
  jobId: z.optional(z.guid("Unknown import.")),
});

function baseName(name: string): string {
  const bare = name
    .replace(/^.*[\\/]/, "")
    .replace(/\.[^.]+$/, "")
    .replace(/\.colpkg$/i, "");
  return bare.trim().slice(0, 120) || "Imported deck";
}

export async function previewImport(
  file: ImportFile,
  options: { wasm?: Wasm; csv?: CsvReadOptions } = {},
): Promise<AnkiPreview | CsvPreview> {
  const format = formatOf(file);
  if (format === "csv" || format === "tsv") {
    const parsed = readDelimited(file, options.csv);
    const width = parsed.header?.length ?? parsed.rows[0]?.length ?? 0;
    return {
      format,
      delimiter: parsed.delimiter,
      hasHeader: parsed.header !== null,
      columns: parsed.header ?? Array.from({ length: width }, (_, index) => `Column ${index + 1}`),
      sampleRows: parsed.rows.slice(0, 5),
      rows: parsed.rows.length,
      mapping: suggestMapping(parsed),
      suggestedDeckName: baseName(file.name),
    };
  }
  const pkg = await readPackage(file, options.wasm);
  const deckNames = ankiDeckNames(pkg);
  const single = deckNames.length === 1 && deckNames[0] !== "Default" ? deckNames[0] : undefined;
  return {
    format,
    ankiFormat: pkg.format,
    deckNames,
    suggestedDeckName: (single ?? baseName(file.name)).slice(0, 120),
    notes: pkg.notes.length,
    cards: pkg.notes.reduce((sum, note) => sum + note.cards.length, 0),
    media: pkg.media.length,
    reviews: pkg.reviews.length,
    noteTypes: pkg.noteTypes
      .filter((type) => type.noteCount > 0)
      .map(({ name, kind, noteCount, kept, droppedMarkup }) => ({ name, kind, noteCount, kept, droppedMarkup })),
    missingMedia: pkg.missingMedia,
    skipped: pkg.skipped,
  };
}

export async function importDeck(engram: Engram, file: ImportFile, options: ImportOptions): Promise<ImportSummary> {
  const checked = validate(optionsSchema, options);
  const format = formatOf(file);
  const skipped = new SkipTally();
  const progress = options.onProgress;
  progress?.({ phase: "reading", done: 0, total: 1 });
  const jobId = checked.jobId ?? newJobId();
  let notes: StagedNote[];
  let media: { name: string; data: Uint8Array }[] = [];
  let noteTypes: StagedNoteType[] = [];
  let presets: JobInput["presets"];
  let notices: ImportNotices = { missingMedia: [], droppedMarkup: [] };
  let deckTree = false;
  if (format === "csv" || format === "tsv") {
    const parsed = readDelimited(file, options.csv);
    notes = await stageCsvNotes(parsed, options.csv?.mapping ?? suggestMapping(parsed), skipped);
  } else {
    const pkg = await readPackage(file, options.wasm);
    skipped.addAll(pkg.skipped);
    // Review ids are keyed to the target deck (or, for a new deck, to the job), so
    // re-importing into a deck adds no history twice, and a copy in another deck gets its own.
    const deckKey = "deckId" in checked.target ? checked.target.deckId : jobId;
    deckTree = checked.deckTree ?? ankiDeckNames(pkg).length > 1;
    noteTypes = stageAnkiNoteTypes(pkg, skipped);
    if (checked.includePresets) presets = stageAnkiPresets(pkg, deckTree);
    notes = await stageAnkiNotes(
      pkg,
      { includeSchedule: checked.includeSchedule, deckKey, deckTree },
      skipped,
      noteTypes,
    );
    media = pkg.media;
    const staged = new Set(noteTypes.map((type) => type.name));
    notices = {
      missingMedia: pkg.missingMedia,
      droppedMarkup: pkg.noteTypes
        .filter((type) => staged.has(type.name) && type.droppedMarkup.length > 0)
        .map((type) => ({ noteType: type.name, markup: type.droppedMarkup })),
    };
  }
  options.signal?.throwIfAborted();
  if (notes.length === 0) {
    throw new EngramError("validation", "This file holds no notes Engram can import.", { field: "file" });
  }
  progress?.({ phase: "reading", done: 1, total: 1 });
  return runImportJob(engram.supabase, {
    jobId,
    source: format === "csv" || format === "tsv" ? "csv" : "apkg",
    target: checked.target,
    existing: checked.existing,
    deckTree,
    notes,
    noteTypes,
    ...(presets ? { presets } : {}),
    notices,
    media,
    skipped,
    ...(options.rasterizeSvg ? { rasterizeSvg: options.rasterizeSvg } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(progress ? { onProgress: progress } : {}),
  });
}
