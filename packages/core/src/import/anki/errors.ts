/** The one error type the Anki reader throws; the SDK maps `code` to its own error codes. */
export type AnkiImportErrorCode = "corrupt-file" | "unsupported-format" | "too-large";

export class AnkiImportError extends Error {
  readonly code: AnkiImportErrorCode;

  constructor(code: AnkiImportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AnkiImportError";
    this.code = code;
  }
}

/** Runs `work`, turning anything it throws that is not already ours into a corrupt-file error. */
export function asCorrupt<T>(what: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof AnkiImportError) throw error;
    throw new AnkiImportError("corrupt-file", `${what}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
