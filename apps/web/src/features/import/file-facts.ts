/** Words and limits for the file being imported. */
import { limits } from "@engram/core";
import type { ImportPreview } from "../../transfer/transfer-protocol.js";

export const maxImportBytes = limits.importBytes;
export const acceptedExtensions = ".apkg,.colpkg,.csv,.tsv,.txt";

const number = new Intl.NumberFormat();
export const formatCount = (count: number) => number.format(count);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${number.format(Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString(undefined, { maximumFractionDigits: 1 })} MB`;
}

const ankiFormats = { anki2: "Anki 2.0 format", anki21: "Anki 2.1 format", anki21b: "latest Anki format" } as const;

export function formatLabel(preview: ImportPreview): string {
  switch (preview.format) {
    case "apkg":
      return `Anki deck package (.apkg), ${ankiFormats[preview.ankiFormat]}`;
    case "colpkg":
      return `Anki collection package (.colpkg), ${ankiFormats[preview.ankiFormat]}`;
    case "csv":
      return "Spreadsheet text (CSV)";
    case "tsv":
      return "Tab-separated text (TSV)";
  }
}

export const isAnki = (preview: ImportPreview) => preview.format === "apkg" || preview.format === "colpkg";

export const plural = (count: number, one: string, many: string) => `${formatCount(count)} ${count === 1 ? one : many}`;
