/** Turns parsed rows into Engram notes through a column mapping, validating each note (docs/product.md §3, §5). */
import { clozeOrdinals } from "../../cloze";
import { type NoteInput, noteInputSchema } from "../../note-validation";
import { isNoteKind, type NoteKind } from "../../notes";
import { type CsvIssue, type ParsedDelimited, rowNumber } from "./parse";

/** Column indexes (0-based); `kind` is a column or one kind for every row. */
export type ColumnMapping = {
  front?: number;
  back?: number;
  text?: number;
  extra?: number;
  tags?: number;
  kind?: number | NoteKind;
};

export type MappedNotes = { notes: NoteInput[]; issues: CsvIssue[] };

const kindNames: Record<string, NoteKind> = {
  basic: "basic",
  reversed: "basic_reversed",
  basic_reversed: "basic_reversed",
  "basic (and reversed card)": "basic_reversed",
  cloze: "cloze",
  type_in: "type_in",
  "basic (type in the answer)": "type_in",
};

/** Reads a kind cell: Engram's names, "reversed", or Anki's stock note type names. */
export function readKind(value: string): NoteKind | null {
  return kindNames[value.trim().toLowerCase()] ?? null;
}

/** Anki's `#html:false`: the text is plain, so it is escaped and its line breaks kept. */
function plainToHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\r\n|\n|\r/g, "<br>");
}

export function mapColumns(parsed: ParsedDelimited, mapping: ColumnMapping): MappedNotes {
  const notes: NoteInput[] = [];
  const issues: CsvIssue[] = [];
  const plain = parsed.anki?.html === false;
  parsed.rows.forEach((row, index) => {
    const row1 = rowNumber(parsed, index);
    const cell = (column: number | undefined) => {
      const value = column === undefined ? "" : (row[column] ?? "");
      return plain ? plainToHtml(value) : value;
    };
    const first = cell(mapping.text ?? mapping.front);
    let kind: NoteKind | null;
    if (typeof mapping.kind === "number") {
      const value = row[mapping.kind] ?? "";
      kind = value.trim() === "" ? (clozeOrdinals(first).length > 0 ? "cloze" : "basic") : readKind(value);
      if (!kind) {
        issues.push({
          row: row1,
          rule: "kind",
          message: `Unknown note type "${value}"; use basic, reversed, type_in or cloze.`,
        });
        return;
      }
    } else if (isNoteKind(mapping.kind)) {
      kind = mapping.kind;
    } else {
      kind = mapping.text !== undefined || clozeOrdinals(first).length > 0 ? "cloze" : "basic";
    }
    const tags = [...(parsed.anki?.tags ?? []), ...(row[mapping.tags ?? -1] ?? "").split(/\s+/u)].filter(
      (tag) => tag !== "",
    );
    const fields =
      kind === "cloze"
        ? { text: cell(mapping.text ?? mapping.front), extra: cell(mapping.extra ?? mapping.back) }
        : { front: cell(mapping.front ?? mapping.text), back: cell(mapping.back ?? mapping.extra) };
    const result = noteInputSchema.safeParse({ kind, fields, tags: [...new Set(tags)] });
    if (result.success) notes.push(result.data);
    else {
      for (const issue of result.error.issues) {
        issues.push({ row: row1, rule: issue.path.join(".") || "note", message: issue.message });
      }
    }
  });
  return { notes, issues };
}

const headerRoles: Record<string, keyof ColumnMapping> = {
  front: "front",
  question: "front",
  back: "back",
  answer: "back",
  text: "text",
  extra: "extra",
  tags: "tags",
  kind: "kind",
  type: "kind",
  notetype: "kind",
};

/** A first guess for the mapping screen: header names, Anki's declared columns, else position. */
export function suggestMapping(parsed: ParsedDelimited): ColumnMapping {
  const mapping: ColumnMapping = {};
  const names = parsed.header ?? parsed.anki?.columns ?? null;
  names?.forEach((name, column) => {
    const role = headerRoles[name.trim().toLowerCase()];
    if (role && mapping[role] === undefined) mapping[role] = column;
  });
  if (parsed.anki?.tagsColumn !== undefined) mapping.tags ??= parsed.anki.tagsColumn;
  if (parsed.anki?.notetypeColumn !== undefined) mapping.kind ??= parsed.anki.notetypeColumn;
  if (mapping.front !== undefined || mapping.text !== undefined) return mapping;
  const reserved = new Set(
    [mapping.tags, mapping.kind, mapping.back, mapping.extra, parsed.anki?.deckColumn, parsed.anki?.guidColumn].filter(
      (column) => typeof column === "number",
    ),
  );
  const width = parsed.header?.length ?? parsed.rows[0]?.length ?? 0;
  const free = Array.from({ length: width }, (_, column) => column).filter((column) => !reserved.has(column));
  const sample = parsed.rows.slice(0, 50);
  const clozeColumn = free.find((column) => sample.some((row) => clozeOrdinals(row[column] ?? "").length > 0));
  if (clozeColumn !== undefined) {
    mapping.front = clozeColumn;
    const next = free.find((column) => column > clozeColumn);
    if (next !== undefined) mapping.back ??= next;
    return mapping;
  }
  const [front, back] = free;
  if (front !== undefined) mapping.front = front;
  if (back !== undefined) mapping.back ??= back;
  return mapping;
}
