/** `/rpc/<fn>`: calls a function by GET (query arguments) or POST (JSON body). */
import type { ApiRequest } from "./api-request.js";
import { ApiError } from "./errors.js";
import { operators } from "./filters.js";
import { isObject, parseBody } from "./json-body.js";
import { isPlan } from "./preferences.js";
import { Aliases, buildReadPlan, reserved } from "./read-plan.js";
import { readResponse } from "./read-response.js";
import { contentRange, formatBody, preferenceApplied, respond } from "./respond.js";
import { maxAffectedCheck } from "./result-checks.js";
import { type BodyType, callableFunctions, callSql, findFunction, returnShape, takesWholeBody } from "./rpc.js";
import { run } from "./run-statement.js";
import { Params } from "./sql.js";

export async function rpc(request: ApiRequest, name: string): Promise<Response> {
  let req = request;
  const { method } = req;
  if (!["GET", "HEAD", "POST"].includes(method)) {
    throw new ApiError(405, "PGRST101", `Cannot use the ${method} method on RPC`);
  }
  const post = method === "POST";
  const bodyType = post ? bodyTypeOf(req.headers.get("content-type")) : "json";
  let args: Record<string, unknown> = {};
  let body: unknown;
  const skip = new Set<string>();
  if (post && bodyType === "json") {
    body = parseBody(req.rawBody) ?? {};
    if (isObject(body)) args = body;
  } else if (!post) {
    const argNames = new Set(
      callableFunctions(req.cache, req.schema)
        .filter((f) => f.name === name)
        .flatMap((f) => f.args.map((a) => a.name)),
    );
    for (const [key, value] of req.query) {
      // A parameter named like an argument is that argument, never a filter; any other
      // whose value is no filter (`op.value`) is an argument too, as PostgREST reads it.
      const argument =
        argNames.has(key) || (!reserved.has(key) && key !== "or" && key !== "and" && !isFilterValue(value));
      if (argument) {
        args[key] = value;
        skip.add(key);
      }
    }
  }
  const singleObject = req.prefs.singleObject;
  const fn = findFunction(req.cache, req.schema, name, { post, body: bodyType, keys: Object.keys(args), singleObject });
  if (fn.statementTimeout) req = { ...req, statementTimeout: fn.statementTimeout };
  const wholeBody = post && takesWholeBody(fn, singleObject);
  if (!wholeBody && post && bodyType === "json" && !isObject(body)) {
    throw new ApiError(400, "PGRST102", "Empty or invalid json");
  }
  const params = new Params();
  const text = bodyType === "json" ? JSON.stringify(body) : req.rawBody;
  const call = callSql(fn, args, wholeBody ? { text, bytes: req.rawBytes } : null, params);
  const readOnly = !post || fn.volatility !== "v";
  const shape = returnShape(req.cache, fn);
  if (shape.kind === "rows") {
    const root = buildReadPlan(req.cache, shape.relation, call, req.query, new Aliases(), { skip });
    return readResponse(req, root, readOnly, params, maxAffectedCheck(req, true));
  }
  const sql =
    shape.kind === "setof-scalar"
      ? `select null::text as total, count(*)::text as page_count, coalesce(json_agg(_s.v), '[]')::text as body from ${call} as _s(v)`
      : shape.kind === "void"
        ? `select null::text as total, '0' as page_count, 'null' as body from (select ${call}) as _v`
        : `select null::text as total, '1' as page_count, to_json(${call})::text as body`;
  const result = await run(req, readOnly, sql, params, maxAffectedCheck(req, true));
  if (shape.kind === "void" && !isPlan(req.media)) return respond(204, null, preferenceApplied(req.prefs), "json");
  // Every value a scalar call returns is in the response, so a count is the page's size.
  const total = req.prefs.count ? result.pageCount : null;
  const headers = { "Content-Range": contentRange(0, result.pageCount, total), ...preferenceApplied(req.prefs) };
  const media = req.media === "object" && shape.kind === "scalar" ? "json" : req.media;
  return respond(200, method === "HEAD" ? null : formatBody(media, result), headers, media);
}

/** The body types PostgREST hands to a single unnamed parameter; anything else is read as JSON. */
function bodyTypeOf(contentType: string | null): BodyType {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "text/plain") return "text";
  if (type === "text/xml") return "xml";
  if (type === "application/octet-stream") return "bytea";
  return "json";
}

/** `[not.]op[(…)].value` with a known operator. */
function isFilterValue(value: string): boolean {
  const op = /^(?:not\.)?([a-z]+)(?:\([^)]*\))?\./.exec(value)?.[1];
  return op !== undefined && op in operators;
}
