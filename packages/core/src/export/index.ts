export { base91, noteGuid } from "./anki-ids";
export type {
  AnkiCardSpec,
  AnkiCollectionSpec,
  AnkiDeckConfigSpec,
  AnkiDeckSpec,
  AnkiNoteSpec,
  AnkiNoteTypeSpec,
  AnkiRevlogSpec,
  AnkiTemplateSpec,
} from "./anki-package";
export { writeAnkiCollection } from "./anki-package";
export { newCard } from "./anki-schedule";
export { ankiImageOcclusion, ankiStock } from "./anki-stock";
export type {
  ApkgOptions,
  ExportCard,
  ExportDeck,
  ExportNote,
  ExportNoteType,
  ExportPreset,
  ExportReview,
  ExportSchedule,
} from "./apkg";
export { ankiFieldHtml, stockNoteTypeIds, writeApkg } from "./apkg";
export type { CsvNote } from "./csv";
export { csvColumns, writeCsv } from "./csv";
