/** The data-modifying CTE of POST/PUT/PATCH/DELETE; the caller reads its RETURNING rows like a table. */
import { ApiError } from "./errors.js";
import type { Preferences } from "./preferences.js";
import type { ReadNode } from "./read-plan.js";
import { conditionsSql, orderSql, pageSql } from "./read-query.js";
import type { Relation } from "./schema-cache.js";
import { type Params, qualified, quoteIdent } from "./sql.js";

/** Body keys as columns of the relation; an unknown one is PGRST204. */
export function checkColumns(relation: Relation, names: string[]): string[] {
  for (const name of names) {
    if (!relation.columns.some((c) => c.name === name)) {
      throw new ApiError(
        400,
        "PGRST204",
        `Could not find the '${name}' column of '${relation.name}' in the schema cache`,
      );
    }
  }
  return names;
}

/** `columns="a","b"` as postgrest-js sends it, or the keys of the payload. */
export function payloadColumns(
  relation: Relation,
  rows: Record<string, unknown>[],
  columnsParam: string | null,
): string[] {
  if (columnsParam !== null) {
    return checkColumns(
      relation,
      columnsParam
        .split(",")
        .map((c) => c.trim().replace(/^"(.*)"$/, "$1"))
        .filter(Boolean),
    );
  }
  const first = Object.keys(rows[0] ?? {});
  for (const row of rows) {
    const keys = Object.keys(row);
    if (keys.length !== first.length || keys.some((k) => !first.includes(k))) {
      throw new ApiError(400, "PGRST102", "All object keys must match");
    }
  }
  return checkColumns(relation, first);
}

export interface InsertOptions {
  columns: string[];
  prefs: Preferences;
  /** Conflict target for upserts (defaults to the primary key). */
  onConflict: string[] | null;
  returning: string;
  /** Count the rows inserted rather than merged, in `pgrst.inserted` (read by `insertedSql`). */
  countInserted: boolean;
}

/**
 * PostgREST's count of inserted rows: each row of the body adds one before it
 * is inserted, each conflict that merges takes one back. It needs no column of
 * the table, so it works whatever the role may read.
 */
const countRow = (step: "+" | "-") =>
  `set_config('pgrst.inserted', (coalesce(nullif(current_setting('pgrst.inserted', true), '')::int, 0) ${step} 1)::text, true) <> '${step === "+" ? "0" : "-1"}'`;

/** How many rows the upsert of the statement inserted (null when it did not count). */
export const insertedSql = "nullif(current_setting('pgrst.inserted', true), '')";

export function insertSql(relation: Relation, rows: unknown[], options: InsertOptions, params: Params): string {
  const target = qualified(relation.schema, relation.name);
  const body = params.add(JSON.stringify(rows));
  const exprs = options.columns.map((name) => {
    const value = `_r.${quoteIdent(name)}`;
    if (!options.prefs.missingDefault) return value;
    const column = relation.columns.find((c) => c.name === name);
    // The default is catalog text (pg_get_expr), never request input.
    return `case when _j.v ? ${params.add(name)} then ${value} else ${column?.defaultExpr ?? "null"} end`;
  });
  const counted = options.countInserted ? ` where ${countRow("+")}` : "";
  // One row without `missing=default` (the usual insert) needs no unnesting of the array.
  const source =
    rows.length === 1 && !options.prefs.missingDefault
      ? `jsonb_populate_record(null::${target}, (${body}::jsonb)->0) as _r${counted}`
      : `jsonb_array_elements(${body}::jsonb) with ordinality as _j(v, n) ` +
        `cross join lateral jsonb_populate_record(null::${target}, _j.v) as _r${counted} order by _j.n`;
  let sql =
    // No columns (`{}`) inserts a row of defaults: `insert into t select from …` is valid.
    `insert into ${target}${options.columns.length ? ` (${options.columns.map(quoteIdent).join(", ")})` : ""} ` +
    `select ${exprs.join(", ")} from ${source}`;
  if (options.prefs.resolution) {
    const conflict = options.onConflict ?? relation.primaryKey;
    if (conflict.length === 0) throw new ApiError(400, "PGRST100", "An upsert needs on_conflict or a primary key");
    const updates = options.columns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
    sql += ` on conflict (${conflict.map(quoteIdent).join(", ")}) do `;
    sql +=
      options.prefs.resolution === "ignore-duplicates" || updates.length === 0
        ? "nothing"
        : `update set ${updates.join(", ")}${options.countInserted ? ` where ${countRow("-")}` : ""}`;
  }
  return `${sql}${options.returning}`;
}

/**
 * The WHERE of PATCH/DELETE. With `limit`/`offset` the affected rows are
 * chosen first, in the requested order, and matched back by ctid.
 */
function mutationWhere(root: ReadNode, params: Params): string {
  const where = conditionsSql(root, params);
  if (root.limit === null && root.offset === null) return where ? ` where ${where}` : "";
  const alias = quoteIdent(root.alias);
  const target = qualified(root.relation.schema, root.relation.name);
  const chosen = `select ${alias}.ctid from ${target} as ${alias}${where ? ` where ${where}` : ""}${orderSql(root, params)}${pageSql(root, params)}`;
  return ` where ${alias}.ctid = any(array(${chosen}))`;
}

export function updateSql(
  root: ReadNode,
  values: Record<string, unknown>,
  columns: string[],
  returning: string,
  params: Params,
): string {
  const { relation } = root;
  const target = qualified(relation.schema, relation.name);
  const sets = columns.map((c) => `${quoteIdent(c)} = _r.${quoteIdent(c)}`);
  const record = params.add(JSON.stringify(values));
  return (
    `update ${target} as ${quoteIdent(root.alias)} set ${sets.join(", ")} ` +
    `from jsonb_populate_record(null::${target}, ${record}::jsonb) as _r${mutationWhere(root, params)}${returning}`
  );
}

export function deleteSql(root: ReadNode, returning: string, params: Params): string {
  const { relation } = root;
  return `delete from ${qualified(relation.schema, relation.name)} as ${quoteIdent(root.alias)}${mutationWhere(root, params)}${returning}`;
}
