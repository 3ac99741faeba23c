/**
 * Reading an import file on the device: the format from its name and first
 * bytes, then the Anki package or the delimited text, with the reader's errors
 * turned into Engram's (`import/corrupt-file`, `import/unsupported-format`,
 * `quota-exceeded`).
 */
import { limits } from "@engram/core";
import {
  AnkiImportError,
  type AnkiPackage,
  CsvImportError,
  type Delimiter,
  delimiters,
  type ParsedDelimited,
  parseDelimited,
  readAnkiPackage,
} from "@engram/core/import";
import { EngramError } from "../errors.js";

export type ImportFormat = "apkg" | "colpkg" | "csv" | "tsv";
export type ImportFile = { name: string; data: Uint8Array };

/** The wasm binaries the readers and the optimiser need, for hosts that serve them (a browser worker). */
export type Wasm = {
  sqlJs?: { locateFile?: (file: string) => string; wasmBinary?: ArrayBuffer };
  fsrs?: ArrayBuffer | ArrayBufferView | URL | string;
};

export type CsvReadOptions = { delimiter?: string; hasHeader?: boolean };

const zipMagic = [0x50, 0x4b, 0x03, 0x04];

function isZip(data: Uint8Array | undefined): boolean {
  return data !== undefined && zipMagic.every((byte, index) => data[index] === byte);
}

/** The format by extension, confirmed by the zip signature when bytes are given; null when unknown. */
export function detectFormat(file: { name: string; data?: Uint8Array }): ImportFormat | null {
  const extension = file.name.toLowerCase().split(".").pop() ?? "";
  if (extension === "apkg" || extension === "colpkg") return file.data && !isZip(file.data) ? null : extension;
  if (extension === "tsv" || extension === "txt") return "tsv";
  if (extension === "csv") return "csv";
  return isZip(file.data) ? "apkg" : null;
}

export function checkSize(file: ImportFile): void {
  if (file.data.byteLength > limits.importBytes) {
    throw new EngramError("quota-exceeded", `Imports can be at most ${limits.importBytes / 1024 / 1024} MB.`, {
      field: "file",
      rule: "max_size",
      detail: { size: file.data.byteLength, limit: limits.importBytes },
    });
  }
}

export function formatOf(file: ImportFile): ImportFormat {
  checkSize(file);
  const format = detectFormat(file);
  if (!format) {
    throw new EngramError(
      "import/unsupported-format",
      "Engram imports Anki packages (.apkg, .colpkg) and CSV or TSV text files.",
      { field: "file" },
    );
  }
  return format;
}

export function fromReaderError(error: unknown): EngramError {
  if (error instanceof EngramError) return error;
  if (error instanceof AnkiImportError) {
    if (error.code === "too-large") return new EngramError("quota-exceeded", error.message, { cause: error });
    return new EngramError(`import/${error.code}`, error.message, { cause: error });
  }
  if (error instanceof CsvImportError) {
    return new EngramError("import/corrupt-file", error.message, { cause: error, detail: { rows: error.rows } });
  }
  return new EngramError("import/corrupt-file", "This file could not be read.", { cause: error });
}

export async function readPackage(file: ImportFile, wasm: Wasm = {}): Promise<AnkiPackage> {
  try {
    return await readAnkiPackage(file.data, wasm.sqlJs ?? {});
  } catch (error) {
    throw fromReaderError(error);
  }
}

function asDelimiter(value: string | undefined): Delimiter | undefined {
  if (value === undefined) return undefined;
  const found = delimiters.find((delimiter) => delimiter === value);
  if (!found) throw new EngramError("validation", "Choose comma, tab, semicolon or pipe.", { field: "delimiter" });
  return found;
}

export function readDelimited(file: ImportFile, options: CsvReadOptions = {}): ParsedDelimited {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(file.data);
  } catch (error) {
    throw new EngramError("import/corrupt-file", "This file is not UTF-8 text.", { cause: error });
  }
  const delimiter = asDelimiter(options.delimiter) ?? (file.name.toLowerCase().endsWith(".tsv") ? "\t" : undefined);
  try {
    return parseDelimited(text, {
      ...(delimiter ? { delimiter } : {}),
      header: options.hasHeader ?? "auto",
    });
  } catch (error) {
    throw fromReaderError(error);
  }
}
