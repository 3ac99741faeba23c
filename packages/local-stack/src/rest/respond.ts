/** Statuses, Content-Range and bodies in PostgREST's shapes. */

import { toCsv } from "./csv.js";
import { ApiError, type ErrorBody } from "./errors.js";
import { contentTypeOf, isPlan, type MediaType, type Preferences } from "./preferences.js";

export interface QueryResult {
  total: number | null;
  pageCount: number;
  /** JSON text of the rows (an array). */
  body: string;
  /** How many rows an upsert inserted, when it tells. */
  inserted?: number | null;
  /** The body is already CSV text (a read rendered for text/csv). */
  csv?: boolean;
}

export function toResult(
  row: { total: string | null; page_count: string; body: string; inserted?: string | null; csv?: boolean } | undefined,
): QueryResult {
  return {
    total: row?.total == null ? null : Number(row.total),
    pageCount: Number(row?.page_count ?? 0),
    body: row?.body ?? "[]",
    inserted: row?.inserted == null ? null : Number(row.inserted),
    csv: row?.csv === true,
  };
}

/** `first-last/total` as RangeQuery.hs `contentRangeH`. */
export function contentRange(lower: number, pageCount: number, total: number | null): string {
  const upper = lower + pageCount - 1;
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : "*";
  return `${range}/${total ?? "*"}`;
}

/** `Preference-Applied`: the preferences the request asked for and got. */
export const preferenceApplied = (prefs: Preferences): Record<string, string> =>
  prefs.applied.length ? { "Preference-Applied": prefs.applied.join(", ") } : {};

/** 200, 206 when the page is partial, 416 past the end (RangeQuery.hs `rangeStatus`). */
export function readStatus(lower: number, pageCount: number, total: number | null): number {
  if (total === null) return 200;
  if (lower > total) {
    throw new ApiError(
      416,
      "PGRST103",
      "Requested range not satisfiable",
      `An offset of ${lower} was requested, but there are only ${total} rows.`,
      null,
      {
        "Content-Range": `*/${total}`,
      },
    );
  }
  return pageCount < total ? 206 : 200;
}

/** The body for the negotiated media type; `object` insists on exactly one row (PGRST116). */
export function formatBody(media: MediaType, result: QueryResult): string {
  if (media === "object") {
    if (result.pageCount !== 1) {
      throw new ApiError(
        406,
        "PGRST116",
        "Cannot coerce the result to a single JSON object",
        `The result contains ${result.pageCount} rows`,
      );
    }
    return result.body.trim().slice(1, -1).trim();
  }
  if (media === "plan-json" || media === "plan-text" || media === "geojson") return result.body;
  if (media === "csv") return result.csv ? result.body : toCsv(JSON.parse(result.body) as Record<string, unknown>[]);
  return result.body;
}

export function respond(
  status: number,
  body: string | null,
  headers: Record<string, string>,
  media: MediaType,
): Response {
  const all = new Headers(headers);
  if (body !== null) all.set("Content-Type", contentTypeOf(media));
  // A plan answers 200 whatever the request would have done.
  return new Response(body, { status: isPlan(media) ? 200 : status, headers: all });
}

export function errorResponse(error: ApiError): Response {
  const body: ErrorBody = error.body;
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...error.headers },
  });
}
