/**
 * The messages between the screens and the transfer worker. Types only: both
 * sides import it and neither pulls the other's code.
 */
import type {
  AnkiPreview,
  ColumnMapping,
  CsvPreview,
  Evaluation,
  ImportOptions,
  ImportSummary,
  RescheduleOutcome,
} from "@engram/sdk/transfer";

export type { AnkiPreview, ColumnMapping, CsvPreview, Evaluation, ImportSummary, RescheduleOutcome };
export type ImportPreview = AnkiPreview | CsvPreview;
export type ImportProgress = Parameters<NonNullable<ImportOptions["onProgress"]>>[0];
export type CsvOptions = { delimiter?: string; hasHeader?: boolean };

/** What the import screen chooses; the worker adds the wasm, the signal and the progress callback. */
export type ImportChoices = Pick<
  ImportOptions,
  "target" | "existing" | "includeSchedule" | "includePresets" | "deckTree" | "csv" | "jobId"
>;

export type ExportFormat = "apkg" | "csv";
export type ExportChoices = { format: ExportFormat; includeSchedule?: boolean };
export type ExportedFile = { name: string; mime: string; data: Uint8Array };

export type OptimiseResult = {
  parameters: number[];
  before: Evaluation;
  after: Evaluation;
  reviews: number;
  saved: boolean;
};

/** A File is structured-cloned by reference to its bytes: the worker reads it, not the page. */
export type Operation =
  | { kind: "preview"; file: File; csv?: CsvOptions }
  | { kind: "import"; file: File; options: ImportChoices }
  | { kind: "export"; deckId: string; options: ExportChoices }
  | { kind: "optimise" }
  | { kind: "reschedule"; parameters: number[] | null };

export type OperationResult = {
  preview: ImportPreview;
  import: ImportSummary;
  export: ExportedFile;
  optimise: OptimiseResult;
  reschedule: RescheduleOutcome;
};

export type Progress = { phase: ImportProgress["phase"] | "training"; done: number; total: number };

/** An EngramError flattened for postMessage; the page rebuilds it. */
export type SerialisedError = { code: string; message: string; field?: string; rule?: string; detail?: unknown };

/**
 * An SVG from a package goes to the page to be drawn as PNG (Chromium cannot
 * decode SVG in a worker); the page answers the PNG, or null when it cannot.
 */
export type ToWorker =
  | { type: "run"; id: number; operation: Operation }
  | { type: "cancel"; id: number }
  | { type: "token"; requestId: number; token: string | null }
  | { type: "png"; requestId: number; png: Blob | null };

export type FromWorker =
  | { type: "progress"; id: number; progress: Progress }
  | { type: "done"; id: number; result: OperationResult[keyof OperationResult] }
  | { type: "failed"; id: number; error: SerialisedError }
  | { type: "token-request"; requestId: number }
  | { type: "svg-request"; requestId: number; svg: Uint8Array };
