/**
 * Splits a CSV/TSV file into a header and rows with papaparse: the delimiter
 * and header are detected when not given, Anki's `#key:value` text-export
 * lines are honoured, and a ragged file is refused whole (imports are all or nothing).
 */
import Papa from "papaparse";

export const delimiters = [",", "\t", ";", "|"] as const;
export type Delimiter = (typeof delimiters)[number];

/** A problem with one row; `row` is 1-based and counts the header row but not `#` directive lines. */
export type CsvIssue = { row: number; rule: string; message: string };

/** What Anki's own text exports declare in their leading `#key:value` lines. */
export type AnkiTextHeaders = {
  separator?: Delimiter;
  html?: boolean;
  /** 0-based column indexes (Anki writes them 1-based). */
  tagsColumn?: number;
  notetypeColumn?: number;
  deckColumn?: number;
  guidColumn?: number;
  columns?: string[];
  /** `#tags:` — tags every note gets. */
  tags?: string[];
};

export type ParsedDelimited = {
  delimiter: Delimiter;
  header: string[] | null;
  rows: string[][];
  issues: CsvIssue[];
  anki: AnkiTextHeaders | null;
};

export type ParseOptions = { delimiter?: Delimiter; header?: boolean | "auto" };

export class CsvImportError extends Error {
  readonly code = "corrupt-file" as const;
  constructor(
    message: string,
    /** 1-based row numbers, as in `CsvIssue.row`. */
    readonly rows: number[],
  ) {
    super(message);
    this.name = "CsvImportError";
  }
}

export const knownColumnNames = ["front", "back", "tags", "kind", "text", "extra", "question", "answer", "type"];

const separatorNames: Record<string, Delimiter> = {
  tab: "\t",
  comma: ",",
  semicolon: ";",
  pipe: "|",
  "\t": "\t",
  ",": ",",
  ";": ";",
  "|": "|",
};

/** Reads Anki's leading directive lines; returns them and the text after them. */
export function readAnkiHeaders(text: string): { anki: AnkiTextHeaders | null; body: string } {
  const anki: AnkiTextHeaders = {};
  let found = false;
  let rest = text;
  for (;;) {
    const match = /^#([a-z ]+):(.*)(?:\r\n|\n|\r|$)/i.exec(rest);
    if (!match) break;
    found = true;
    rest = rest.slice(match[0].length);
    const key = (match[1] ?? "").trim().toLowerCase();
    const value = match[2] ?? "";
    const column = Number.parseInt(value, 10) - 1;
    if (key === "separator") anki.separator = separatorNames[value.toLowerCase()] ?? separatorNames[value];
    else if (key === "html") anki.html = value.trim().toLowerCase() === "true";
    else if (key === "tags column" && column >= 0) anki.tagsColumn = column;
    else if (key === "notetype column" && column >= 0) anki.notetypeColumn = column;
    else if (key === "deck column" && column >= 0) anki.deckColumn = column;
    else if (key === "guid column" && column >= 0) anki.guidColumn = column;
    else if (key === "tags") anki.tags = value.split(/\s+/u).filter((tag) => tag !== "");
    else if (key === "columns") anki.columns = value.split(anki.separator ?? "\t");
  }
  return { anki: found ? anki : null, body: rest };
}

function parseWith(body: string, delimiter?: Delimiter, preview = 0) {
  return Papa.parse<string[]>(body, {
    delimiter: delimiter ?? "",
    preview,
    delimitersToGuess: [...delimiters],
    skipEmptyLines: "greedy",
  });
}

function counts(rows: string[][]): Map<number, number> {
  const byWidth = new Map<number, number>();
  for (const row of rows) byWidth.set(row.length, (byWidth.get(row.length) ?? 0) + 1);
  return byWidth;
}

/** Rows read to choose a delimiter. */
const previewRows = 500;

/**
 * Papaparse guesses from a preview; among delimiters that give every row the
 * same width (more than one column), the one least used as punctuation wins:
 * "a, b" and "1,5" are text, not columns.
 */
function detect(body: string): Delimiter {
  const guessed = parseWith(body, undefined, previewRows);
  const sample = body.slice(0, 20_000);
  const punctuation = (delimiter: Delimiter) =>
    sample.split(`${delimiter} `).length - 1 + (delimiter === "," ? (sample.match(/\d,\d/g)?.length ?? 0) : 0);
  const consistent = delimiters
    .map((delimiter) => (delimiter === guessed.meta.delimiter ? guessed : parseWith(body, delimiter, previewRows)))
    .filter((result) => {
      const widths = counts(result.data);
      return widths.size === 1 && !widths.has(1);
    })
    .map((result) => ({ result, score: punctuation(result.meta.delimiter as Delimiter) }));
  const fallback = (delimiters as readonly string[]).includes(guessed.meta.delimiter)
    ? (guessed.meta.delimiter as Delimiter)
    : ",";
  if (consistent.length === 0) return fallback;
  const best = Math.min(...consistent.map(({ score }) => score));
  const winners = consistent.filter(({ score }) => score === best);
  const winner = (winners.find(({ result }) => result === guessed) ?? winners[0])?.result;
  return (winner?.meta.delimiter as Delimiter | undefined) ?? fallback;
}

const numeric = /^[-+]?\d+([.,]\d+)?$/;
const markup = /<[a-z][^>]*>|\{\{c\d+::/i;

function cellKind(cell: string): string {
  const value = cell.trim();
  if (value === "") return "empty";
  if (numeric.test(value)) return "number";
  if (markup.test(value)) return "markup";
  return value.length > 40 ? "long" : "short";
}

/** "auto": a first row of known column names, or of short plain names above columns of another kind. */
export function looksLikeHeader(first: string[], rest: string[][]): boolean {
  if (first.some((cell) => knownColumnNames.includes(cell.trim().toLowerCase()))) return true;
  if (rest.length === 0 || first.some((cell) => cellKind(cell) !== "short")) return false;
  if (new Set(first.map((cell) => cell.trim().toLowerCase())).size !== first.length) return false;
  return first.some((_, column) => {
    const kinds = rest.slice(0, 50).map((row) => cellKind(row[column] ?? ""));
    return kinds.filter((kind) => kind !== "short").length > kinds.length / 2;
  });
}

export function parseDelimited(text: string, options: ParseOptions = {}): ParsedDelimited {
  const { anki, body } = readAnkiHeaders(text.replace(/^\uFEFF/, ""));
  const delimiterWanted = options.delimiter ?? anki?.separator;
  const delimiter = delimiterWanted ?? detect(body);
  const result = parseWith(body, delimiter);
  const quoteErrors = result.errors.filter((error) => error.type === "Quotes");
  if (quoteErrors.length > 0) {
    const rows = [...new Set(quoteErrors.map((error) => (error.row ?? 0) + 1))];
    throw new CsvImportError(`Unbalanced quotes near row ${rows.join(", ")}.`, rows);
  }
  const records = result.data;
  const wantHeader = options.header ?? (anki ? false : "auto");
  const hasHeader =
    records.length > 0 && (wantHeader === "auto" ? looksLikeHeader(records[0] ?? [], records.slice(1)) : wantHeader);
  const header = hasHeader ? (records[0] ?? null) : null;
  const rows = hasHeader ? records.slice(1) : records;
  const width = header?.length ?? majorityWidth(records);
  const ragged = records.flatMap((row, index) => (row.length === width ? [] : [index + 1]));
  if (ragged.length > 0) {
    throw new CsvImportError(
      `Every row needs ${width} columns; rows ${ragged.slice(0, 20).join(", ")}${ragged.length > 20 ? ", …" : ""} differ.`,
      ragged,
    );
  }
  return { delimiter, header: header ? header.map((name) => name.trim()) : null, rows, issues: [], anki };
}

function majorityWidth(records: string[][]): number {
  let best = 0;
  let bestCount = -1;
  for (const [width, count] of counts(records)) {
    if (count > bestCount) [best, bestCount] = [width, count];
  }
  return best;
}

/** The row number `CsvIssue.row` uses for `rows[index]`. */
export function rowNumber(parsed: Pick<ParsedDelimited, "header">, index: number): number {
  return index + 1 + (parsed.header ? 1 : 0);
}
