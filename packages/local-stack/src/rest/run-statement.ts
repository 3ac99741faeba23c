/** Runs a request's statement as its caller, or explains it when the client asked for the plan. */
import type { ApiRequest } from "./api-request.js";
import { type RunOptions, runAs } from "./context.js";
import { isPlan, planOptions } from "./preferences.js";
import { type QueryResult, toResult } from "./respond.js";
import type { Params } from "./sql.js";

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
