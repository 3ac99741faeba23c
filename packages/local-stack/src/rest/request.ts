/** One API request as the handlers see it, and the steps every handler shares: run, parse, read. */
import type { Stack } from "../stack.js";
import { type Caller, type RunOptions, runAs } from "./context.js";
import { ApiError } from "./errors.js";
import { isPlan, type MediaType, type Preferences, planOptions } from "./preferences.js";
import type { ReadNode } from "./read-plan.js";
import { readSql } from "./read-query.js";
import { contentRange, formatBody, type QueryResult, readStatus, respond, toResult } from "./respond.js";
import { findRelation, type Relation, type SchemaCache } from "./schema-cache.js";
import { Params } from "./sql.js";

/** Everything a handler needs about one request. */
export interface ApiRequest {
  stack: Stack;
  cache: SchemaCache;
  caller: Caller;
  schema: string;
  method: string;
  path: string;
  headers: Headers;
  /** The headers as `request.headers` holds them. */
  headerRecord: Record<string, string>;
  query: URLSearchParams;
  prefs: Preferences;
  media: MediaType;
  stripNulls: boolean;
  rawBody: string;
  /** The body as sent, for a bytea parameter. */
  rawBytes: Uint8Array;
  /** Set for an RPC whose function carries its own statement_timeout. */
  statementTimeout?: string | null;
}

type Row = { total: string | null; page_count: string; body: string; inserted?: string | null; csv?: boolean };

export async function run(
  req: ApiRequest,
  readOnly: boolean,
  sql: string,
  params: Params,
  check?: (r: QueryResult) => void,
): Promise<QueryResult> {
  const options = {
    ...req,
    readOnly,
    rollback: req.prefs.tx === "rollback",
    timezone: req.prefs.timezone,
    statementTimeout: req.statementTimeout ?? null,
  };
  if (isPlan(req.media)) return explain(req, options, sql, params);
  const [row] = await runAs<Row>(
    req.stack,
    options,
    { text: sql, params: params.values },
    check && ((rows) => check(toResult(rows[0]))),
  );
  return toResult(row);
}

/**
 * The plan of the request's statement (PostgREST's db-plan-enabled). With
 * `analyze` the statement runs, so the transaction is always rolled back.
 */
async function explain(req: ApiRequest, options: RunOptions, sql: string, params: Params): Promise<QueryResult> {
  const format = req.media === "plan-json" ? "json" : "text";
  const flags = planOptions(req.headers.get("accept") ?? undefined).map((o) => o.toUpperCase());
  const rows = await runAs<{ "QUERY PLAN": unknown }>(
    req.stack,
    { ...options, rollback: true },
    { text: `explain (format ${format}${flags.map((f) => `, ${f}`).join("")}) ${sql}`, params: params.values },
  );
  const lines = rows.map((r) => r["QUERY PLAN"]);
  const body =
    format === "json"
      ? JSON.stringify(typeof lines[0] === "string" ? JSON.parse(lines[0]) : lines[0])
      : lines.join("\n");
  return { total: null, pageCount: 0, body };
}

/**
 * How deeply a JSON body may nest. The handlers turn bodies back into JSON
 * for SQL with JSON.stringify, which recurses and runs out of stack a few
 * thousand levels down; real rows and arguments stay far below this.
 */
export const maxBodyDepth = 1000;

/** PostgREST's answer to a body it cannot use (PGRST102), for any JSON body. */
export function parseBody(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ApiError(400, "PGRST102", "Empty or invalid json");
  }
  if (nestsDeeperThan(raw, maxBodyDepth)) {
    throw new ApiError(400, "PGRST102", "Empty or invalid json", `JSON nested more than ${maxBodyDepth} levels deep`);
  }
  return body;
}

/** Whether valid JSON text opens more than `max` arrays or objects inside one another: one pass, no recursion. */
function nestsDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i += 1) {
    const code = json.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function relationOf(req: ApiRequest, name: string): Relation {
  const relation = findRelation(req.cache, req.schema, name);
  if (!relation) {
    throw new ApiError(404, "PGRST205", `Could not find the table '${req.schema}.${name}' in the schema cache`);
  }
  return relation;
}

/** `Range: 0-9` (not sent by the clients, honoured like PostgREST) when the URL has no limit/offset. */
export function applyRangeHeader(req: ApiRequest, root: ReadNode): void {
  const match = /^(?:items=)?(\d+)-(\d*)$/.exec(req.headers.get("range") ?? "");
  if (!match || req.query.has("limit") || req.query.has("offset")) return;
  root.offset = Number(match[1]);
  if (match[2]) root.limit = Math.max(0, Number(match[2]) - root.offset + 1);
}

export const preferenceApplied = (prefs: Preferences): Record<string, string> =>
  prefs.applied.length ? { "Preference-Applied": prefs.applied.join(", ") } : {};

/**
 * `Prefer: handling=strict, max-affected=N`: more rows than N fail the
 * request (PGRST124) and roll it back; `affected` says for which requests it counts.
 */
export function maxAffectedCheck(req: ApiRequest, affected: boolean): ((r: QueryResult) => void) | undefined {
  const { strict, maxAffected } = req.prefs;
  if (!strict || maxAffected === null || !affected) return undefined;
  return (r) => {
    if (r.pageCount > maxAffected) {
      throw new ApiError(
        400,
        "PGRST124",
        "Query result exceeds max-affected preference constraint",
        `The query affects ${r.pageCount} rows`,
      );
    }
  };
}

/** Checks run in order on the result before the transaction ends; none means no wait. */
export function allChecks(
  ...checks: (((r: QueryResult) => void) | undefined)[]
): ((r: QueryResult) => void) | undefined {
  const present = checks.filter((c): c is (r: QueryResult) => void => c !== undefined);
  if (present.length === 0) return undefined;
  return (r) => {
    for (const check of present) check(r);
  };
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
