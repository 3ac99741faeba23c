/** Reading other apps' files on the device, kept out of the main entry so it stays small. */
export { AnkiImportError, type AnkiImportErrorCode } from "./anki/errors";
export { readAnkiPackage } from "./anki/read-package";
export {
  type ImportedReview,
  type ImportedSchedule,
  type ScheduleFromAnkiOptions,
  scheduleFromAnki,
} from "./anki/schedule";
export type {
  AnkiCard,
  AnkiCardTemplate,
  AnkiDeck,
  AnkiDeckConfig,
  AnkiFormat,
  AnkiMedia,
  AnkiNote,
  AnkiNoteTypeSummary,
  AnkiPackage,
  AnkiReadOptions,
  AnkiReview,
  AnkiSchedule,
  AnkiSkipped,
} from "./anki/types";
export type { ColumnMapping, MappedNotes } from "./csv/map";
export { mapColumns, readKind, suggestMapping } from "./csv/map";
export type { AnkiTextHeaders, CsvIssue, Delimiter, ParsedDelimited, ParseOptions } from "./csv/parse";
export { CsvImportError, delimiters, looksLikeHeader, parseDelimited, readAnkiHeaders } from "./csv/parse";
