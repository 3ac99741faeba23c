/**
 * Writes notes as CSV/TSV with a header `kind, front, back, tags`; cloze notes put text and extra in front and back.
 * Notes carrying the exporting user's own My notes (plain text) add a last column `my_notes`.
 */
import Papa from "papaparse";
import type { NoteFields, NoteKind } from "../notes";

export type CsvNote = { kind: NoteKind; fields: NoteFields; tags: string[]; myNotes?: string };

export const csvColumns = ["kind", "front", "back", "tags"] as const;

export function writeCsv(notes: readonly CsvNote[], options: { delimiter?: "," | "\t" | ";" | "|" } = {}): string {
  const withMyNotes = notes.some((note) => note.myNotes);
  const rows = notes.map((note) => {
    const fields = note.fields as Record<string, string>;
    const [first, second] = note.kind === "cloze" ? [fields.text, fields.extra] : [fields.front, fields.back];
    const row = [note.kind, first ?? "", second ?? "", note.tags.join(" ")];
    return withMyNotes ? [...row, note.myNotes ?? ""] : row;
  });
  const header = withMyNotes ? [...csvColumns, "my_notes"] : [...csvColumns];
  return Papa.unparse({ fields: header, data: rows }, { delimiter: options.delimiter ?? ",", newline: "\n" });
}
