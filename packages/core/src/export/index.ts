export { base91, noteGuid } from "./anki-ids";
export type { ApkgOptions, ExportCard, ExportDeck, ExportNote, ExportReview, ExportSchedule } from "./apkg";
export { ankiFieldHtml, writeApkg } from "./apkg";
export type { CsvNote } from "./csv";
export { csvColumns, writeCsv } from "./csv";
