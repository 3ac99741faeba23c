/** CSV both ways: responses for `Accept: text/csv`, and `Content-Type: text/csv` bulk inserts. */
import { ApiError } from "./errors.js";

export function toCsv(rows: Record<string, unknown>[]): string {
  const header = Object.keys(rows[0] ?? {});
  const cell = (value: unknown) => {
    if (value === null || value === undefined) return "";
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [header.map(cell).join(","), ...rows.map((row) => header.map((h) => cell(row[h])).join(","))].join("\n");
}

/**
 * Rows of a CSV body keyed by its header line; an unquoted `NULL` is null,
 * as PostgREST reads CSV payloads (every other value is text Postgres parses).
 */
export function parseCsv(text: string): Record<string, string | null>[] {
  const records: (string | null)[][] = [];
  let record: (string | null)[] = [];
  let i = 0;
  const fail = () => new ApiError(400, "PGRST102", "Invalid CSV body");
  while (i <= text.length) {
    let value: string | null;
    if (text[i] === '"') {
      let out = "";
      i++;
      for (;;) {
        if (i >= text.length) throw fail();
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            out += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else out += text[i++];
      }
      value = out;
    } else {
      let end = i;
      while (end < text.length && text[end] !== "," && text[end] !== "\n" && text[end] !== "\r") end++;
      const raw = text.slice(i, end);
      value = raw === "NULL" ? null : raw;
      i = end;
    }
    record.push(value);
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text[i] === "\r") i++;
    if (text[i] === "\n" || i >= text.length) {
      i++;
      if (!(record.length === 1 && record[0] === "")) records.push(record);
      record = [];
      continue;
    }
    throw fail();
  }
  const [header, ...rows] = records;
  if (!header || header.some((h) => h === null)) throw fail();
  return rows.map((row) => {
    if (row.length !== header.length) throw fail();
    return Object.fromEntries(header.map((h, n) => [h as string, row[n] ?? null]));
  });
}
