/**
 * @engram/sdk/transfer: import, export, the FSRS optimiser and rescheduling.
 * The heavy work (unzipping, SQLite, zstd, training, replaying histories) runs
 * where this module runs — a browser Web Worker or Node — and the server only
 * validates and commits. Kept out of
 * the main entry, which stays small. None of it uses `engram.auth`, so a worker
 * may pass a client made by `createEngramClient` (from `@engram/sdk`), which
 * borrows the page's session through an `accessToken` callback.
 */
export type { ColumnMapping } from "@engram/core/import";
export { type ExportedFile, type ExportOptions, exportDeck } from "./export.js";
export { type AnkiPreview, type CsvPreview, type ImportOptions, importDeck, previewImport } from "./import.js";
export type { ImportPhase, ImportProgress, ImportSummary, ImportTarget } from "./job.js";
export { type Evaluation, type OptimizeOptions, type OptimizeOutcome, optimizeScheduler } from "./optimize.js";
export { type CsvReadOptions, detectFormat, type ImportFile, type ImportFormat, type Wasm } from "./read.js";
export { type RescheduleOptions, type RescheduleOutcome, rescheduleCards } from "./reschedule.js";
export type { Skipped } from "./staged.js";
