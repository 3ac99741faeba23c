/** A read's answer: the rows of a read plan with PostgREST's status, Content-Range and body. */
import type { ApiRequest } from "./api-request.js";
import type { ReadNode } from "./read-plan.js";
import { readSql } from "./read-query.js";
import { contentRange, formatBody, preferenceApplied, type QueryResult, readStatus, respond } from "./respond.js";
import { allChecks } from "./result-checks.js";
import { run } from "./run-statement.js";
import { Params } from "./sql.js";

/** `Range: 0-9` (not sent by the clients, honoured like PostgREST) when the URL has no limit/offset. */
export function applyRangeHeader(req: ApiRequest, root: ReadNode): void {
  const match = /^(?:items=)?(\d+)-(\d*)$/.exec(req.headers.get("range") ?? "");
  if (!match || req.query.has("limit") || req.query.has("offset")) return;
  root.offset = Number(match[1]);
  if (match[2]) root.limit = Math.max(0, Number(match[2]) - root.offset + 1);
}

export async function readResponse(
  req: ApiRequest,
  root: ReadNode,
  readOnly: boolean,
  params = new Params(),
  affectedCheck?: (r: QueryResult) => void,
): Promise<Response> {
  const sql = readSql(root, params, {
    count: req.prefs.count !== null,
    maxRows: req.stack.config.api.maxRows,
    stripNulls: req.stripNulls,
    csv: req.media === "csv",
    geojson: req.media === "geojson",
  });
  // Only a single-object response can still fail once the rows are in (and a check waits for them).
  const check = allChecks(
    req.media === "object" ? (r: QueryResult) => formatBody("object", r) : undefined,
    affectedCheck,
  );
  const result = await run(req, readOnly, sql, params, check);
  const lower = root.offset ?? 0;
  const status = readStatus(lower, result.pageCount, result.total);
  const headers = {
    "Content-Range": contentRange(lower, result.pageCount, result.total),
    ...preferenceApplied(req.prefs),
  };
  return respond(status, req.method === "HEAD" ? null : formatBody(req.media, result), headers, req.media);
}
