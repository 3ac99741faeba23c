/** Tables and views: GET/HEAD reads, POST inserts and upserts, PATCH, PUT and DELETE. */
import { type ApiRequest, relationOf } from "./api-request.js";
import { parseCsv } from "./csv.js";
import { ApiError } from "./errors.js";
import { isObject, parseBody } from "./json-body.js";
import { isPlan } from "./preferences.js";
import { Aliases, buildReadPlan, qualifiedFrom, type ReadNode } from "./read-plan.js";
import { readSql } from "./read-query.js";
import { applyRangeHeader, readResponse } from "./read-response.js";
import { contentRange, formatBody, preferenceApplied, type QueryResult, respond } from "./respond.js";
import { allChecks, maxAffectedCheck } from "./result-checks.js";
import { returnedColumns, returningSql } from "./returning.js";
import { run } from "./run-statement.js";
import type { Relation } from "./schema-cache.js";
import { Params } from "./sql.js";
import { checkColumns, deleteSql, insertedSql, insertSql, payloadColumns, updateSql } from "./write-query.js";

export async function table(req: ApiRequest, name: string): Promise<Response> {
  const relation = relationOf(req, name);
  const aliases = new Aliases();
  switch (req.method) {
    case "GET":
    case "HEAD": {
      const root = buildReadPlan(req.cache, relation, qualifiedFrom(relation), req.query, aliases);
      applyRangeHeader(req, root);
      return readResponse(req, root, true);
    }
    case "POST":
      return insert(req, relation, aliases);
    case "PATCH":
    case "DELETE":
      return updateOrDelete(req, relation, aliases);
    case "PUT":
      return put(req, relation, aliases);
    default:
      throw new ApiError(405, "PGRST117", `Unsupported HTTP method: ${req.method}`);
  }
}

/**
 * Runs a data-modifying statement and reads what it returned through the
 * request's select. The source is always read, so the statement has run
 * (and counted what it inserted) before the counts are taken.
 */
async function mutate(req: ApiRequest, root: ReadNode, mutation: string, params: Params) {
  const wantBody = req.prefs.return === "representation";
  const source: ReadNode = { ...root, from: "pgrst_source", conditions: [], limit: null, offset: null };
  // Without a representation only an insert's primary key is read back (for Location).
  const locates = req.prefs.return === "headers-only" && req.method === "POST";
  const keyItems = root.relation.primaryKey.map((column) => ({
    type: "column" as const,
    alias: null,
    field: { column, path: [] },
    cast: null,
  }));
  const options = {
    count: true,
    maxRows: null,
    stripNulls: req.stripNulls,
    csv: wantBody && req.media === "csv",
    geojson: wantBody && req.media === "geojson",
  };
  const select = wantBody
    ? readSql(source, params, options)
    : locates
      ? readSql({ ...source, items: keyItems, embeds: new Map(), order: [] }, params, options)
      : "select count(*)::text as total, count(*)::text as page_count, '[]' as body from pgrst_source";
  const sql = `with pgrst_source as (${mutation}) select _m.*, ${insertedSql} as inserted from (${select}) as _m`;
  const single = wantBody && req.media === "object";
  // A check waits for the rows before the transaction ends: only when one can fail.
  const check = allChecks(
    single ? (r: QueryResult) => formatBody("object", r) : undefined,
    maxAffectedCheck(req, req.method === "PATCH" || req.method === "DELETE"),
  );
  return run(req, false, sql, params, check);
}

function writeResponse(
  req: ApiRequest,
  status: number,
  result: QueryResult,
  range: string,
  relation: Relation,
): Response {
  const headers: Record<string, string> = { "Content-Range": range, ...preferenceApplied(req.prefs) };
  if (req.prefs.return === "representation" || isPlan(req.media)) {
    return respond(status, formatBody(req.media, result), headers, req.media);
  }
  if (req.prefs.return === "headers-only" && req.method === "POST") {
    const [first] = JSON.parse(result.body) as Record<string, unknown>[];
    if (first && relation.primaryKey.length) {
      const query = relation.primaryKey.map((k) => `${k}=eq.${encodeURIComponent(String(first[k]))}`).join("&");
      headers.Location = `/${relation.name}?${query}`;
    }
  }
  // Without a body an update is 204; an insert keeps its status (201, or 200 for a merge that inserted nothing).
  return respond(status === 200 && req.method !== "POST" ? 204 : status, null, headers, req.media);
}

async function insert(req: ApiRequest, relation: Relation, aliases: Aliases): Promise<Response> {
  const csv = /^text\/csv\b/i.test(req.headers.get("content-type") ?? "");
  const body = csv ? parseCsv(req.rawBody) : parseBody(req.rawBody);
  const rows = Array.isArray(body) ? body : isObject(body) ? [body] : null;
  if (!rows?.every(isObject)) throw new ApiError(400, "PGRST102", "Empty or invalid json");
  const columns = payloadColumns(relation, rows, req.query.get("columns"));
  const onConflictParam = req.query.get("on_conflict");
  const onConflict = onConflictParam
    ? checkColumns(
        relation,
        onConflictParam.split(",").map((c) => c.trim()),
      )
    : null;
  const root = buildReadPlan(req.cache, relation, "pgrst_source", withoutFilters(req.query), aliases);
  // A merging upsert that inserted nothing answers 200, as PostgREST 12.
  const countInserted = req.prefs.resolution === "merge-duplicates";
  const params = new Params();
  const returning = returningSql(returnedColumns(root, req.prefs), null);
  const sql = insertSql(relation, rows, { columns, prefs: req.prefs, onConflict, returning, countInserted }, params);
  const result = await mutate(req, root, sql, params);
  const total = req.prefs.count ? result.total : null;
  const status = result.inserted === 0 ? 200 : 201;
  return writeResponse(req, status, result, `*/${total ?? "*"}`, relation);
}

// Inserts only take select, columns and on_conflict from the URL.
function withoutFilters(query: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  const select = query.get("select");
  if (select !== null) kept.set("select", select);
  return kept;
}

async function updateOrDelete(req: ApiRequest, relation: Relation, aliases: Aliases): Promise<Response> {
  const root = buildReadPlan(req.cache, relation, "pgrst_source", req.query, aliases);
  const params = new Params();
  const returning = returningSql(returnedColumns(root, req.prefs), root.alias);
  let sql: string;
  if (req.method === "PATCH") {
    const body = parseBody(req.rawBody);
    if (!isObject(body)) throw new ApiError(400, "PGRST102", "Empty or invalid json");
    const columns = req.query.has("columns")
      ? payloadColumns(relation, [body], req.query.get("columns"))
      : checkColumns(relation, Object.keys(body));
    if (columns.length === 0) {
      const empty: QueryResult = { total: req.prefs.count ? 0 : null, pageCount: 0, body: "[]" };
      return writeResponse(req, 200, empty, contentRange(0, 0, empty.total), relation);
    }
    sql = updateSql(root, body, columns, returning, params);
  } else sql = deleteSql(root, returning, params);
  const result = await mutate(req, root, sql, params);
  const total = req.prefs.count ? result.total : null;
  const range = req.method === "DELETE" ? `*/${total ?? "*"}` : contentRange(0, result.pageCount, total);
  return writeResponse(req, 200, result, range, relation);
}

/** PUT: a single-row upsert addressed by `pk=eq.value` for every primary-key column. */
async function put(req: ApiRequest, relation: Relation, aliases: Aliases): Promise<Response> {
  const pk = relation.primaryKey;
  const filters = [...req.query.keys()].filter((k) => !["select", "columns"].includes(k));
  const values = new Map(pk.map((k) => [k, /^eq\.(.*)$/s.exec(req.query.get(k) ?? "")?.[1]]));
  if (pk.length === 0 || filters.length !== pk.length || [...values.values()].some((v) => v === undefined)) {
    throw new ApiError(405, "PGRST105", "Filters must include all and only primary key columns with 'eq' operators");
  }
  const body = parseBody(req.rawBody);
  const row = Array.isArray(body) && body.length === 1 ? body[0] : body;
  if (!isObject(row)) throw new ApiError(400, "PGRST102", "Empty or invalid json");
  if (pk.some((k) => String(row[k]) !== values.get(k))) {
    throw new ApiError(400, "PGRST115", "Payload values do not match URL in primary key column(s)");
  }
  const columns = checkColumns(relation, Object.keys(row));
  const root = buildReadPlan(req.cache, relation, "pgrst_source", withoutFilters(req.query), aliases);
  const params = new Params();
  const prefs = { ...req.prefs, resolution: "merge-duplicates" as const };
  const returning = returningSql(returnedColumns(root, req.prefs), null);
  const sql = insertSql(relation, [row], { columns, prefs, onConflict: pk, returning, countInserted: true }, params);
  const result = await mutate(req, root, sql, params);
  // PUT creates (201) or replaces (200).
  return writeResponse(
    req,
    result.inserted ? 201 : 200,
    result,
    contentRange(0, result.pageCount, req.prefs.count ? result.total : null),
    relation,
  );
}
