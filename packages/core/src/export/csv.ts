/** Writes notes as CSV/TSV with a header `kind, front, back, tags`; cloze notes put text and extra in front and back. */
import Papa from "papaparse";
import type { NoteFields, NoteKind } from "../notes";

export type CsvNote = { kind: NoteKind; fields: NoteFields; tags: string[] };

export const csvColumns = ["kind", "front", "back", "tags"] as const;

export function writeCsv(notes: readonly CsvNote[], options: { delimiter?: "," | "\t" | ";" | "|" } = {}): string {
  const rows = notes.map((note) => {
    const fields = note.fields as Record<string, string>;
    const [first, second] = note.kind === "cloze" ? [fields.text, fields.extra] : [fields.front, fields.back];
    return [note.kind, first ?? "", second ?? "", note.tags.join(" ")];
  });
  return Papa.unparse({ fields: [...csvColumns], data: rows }, { delimiter: options.delimiter ?? ",", newline: "\n" });
}
