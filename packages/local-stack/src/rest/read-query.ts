/**
 * Renders a read plan as SQL: one SELECT whose embeds are correlated
 * subqueries (to-one → object or null, to-many → array), so a request is
 * always one statement returning JSON text, as PostgREST's.
 */
import { ApiError } from "./errors.js";
import { type Condition, type Filter, isValues, type OrderTerm, operators } from "./filters.js";
import { type EmbedNode, type ReadNode, rowOf } from "./read-plan.js";
import type { Column } from "./schema-cache.js";
import type { Aggregate, Field, SelectItem } from "./select-parser.js";
import { type Params, qualified, quoteIdent } from "./sql.js";

function column(node: ReadNode, name: string): Column {
  const found = node.relation.columns.find((c) => c.name === name);
  if (!found) {
    const relation = node.depth ? `${node.relation.name}_${node.depth}` : node.relation.name;
    throw new ApiError(400, "42703", `column ${relation}.${name} does not exist`);
  }
  return found;
}

/** `alias."col"->$1->>$2`, every name checked against the relation and every JSON key bound. */
export function fieldSql(node: ReadNode, field: Field, params: Params): string {
  const computed = node.relation.computed?.[field.column];
  let sql: string;
  if (computed) sql = `${qualified(computed.schema, computed.name)}(${rowOf(node)})`;
  else {
    column(node, field.column);
    sql = `${quoteIdent(node.alias)}.${quoteIdent(field.column)}`;
  }
  for (const step of field.path) {
    const key = /^-?\d+$/.test(step.key) ? `${params.add(Number(step.key))}::int` : `${params.add(step.key)}::text`;
    sql = `(${sql}${step.arrow}${key})`;
  }
  return sql;
}

function outputName(field: Field): string {
  return field.path.length ? (field.path[field.path.length - 1]?.key ?? field.column) : field.column;
}

interface Entry {
  /** The legacy `count` (no parentheses), which PostgREST allows even with aggregates disabled. */
  aggregate?: boolean;
  expr: string;
  /** Output name, already quoted; null for `alias.*`. */
  name: string | null;
}

/** The SELECT list of a node as expression/name pairs; `*` expands to the alias' columns. */
function selectEntries(node: ReadNode, params: Params): Entry[] {
  const out: Entry[] = [];
  // Grouping needs every output column by name, so `*` is spelled out next to an aggregate.
  const grouping = node.items.some(
    (i) => i.type === "column" && (i.aggregate !== undefined || isLegacyCount(node, i.field)),
  );
  for (const item of node.items) {
    if (item.type === "star") {
      if (!grouping) out.push({ expr: `${quoteIdent(node.alias)}.*`, name: null });
      else
        for (const c of node.relation.columns)
          out.push({ expr: `${quoteIdent(node.alias)}.${quoteIdent(c.name)}`, name: quoteIdent(c.name) });
    } else if (item.type === "column" && item.aggregate) {
      out.push({
        expr: aggregateSql(node, item, params),
        name: quoteIdent(item.alias ?? item.aggregate.fn),
        aggregate: true,
      });
    } else if (item.type === "column" && isLegacyCount(node, item.field)) {
      out.push({ expr: "count(*)", name: quoteIdent(item.alias ?? "count"), aggregate: true });
    } else if (item.type === "column") {
      const expr = fieldSql(node, item.field, params);
      out.push({
        expr: item.cast ? `(${expr})::${item.cast}` : expr,
        name: quoteIdent(item.alias ?? outputName(item.field)),
      });
    } else {
      const embed = node.embeds.get(item) as EmbedNode;
      if (item.select.length === 0) continue;
      if (item.spread) out.push(...spreadEntries(node, embed, params));
      else {
        // json has no equality to group by; jsonb does.
        const expr = embedSql(node, embed, params);
        out.push({ expr: grouping ? `(${expr})::jsonb` : expr, name: quoteIdent(embed.key) });
      }
    }
  }
  return out;
}

/** `col::cast.fn()::cast` as PostgREST renders it: the column's cast inside, the result's outside. */
function aggregateSql(node: ReadNode, item: Extract<SelectItem, { type: "column" }>, params: Params): string {
  const aggregate = item.aggregate as Aggregate;
  let input = "*";
  if (item.field.column !== "*") {
    const expr = fieldSql(node, item.field, params);
    input = item.cast ? `(${expr})::${item.cast}` : expr;
  }
  const sql = `${aggregate.fn}(${input})`;
  return aggregate.cast ? `(${sql})::${aggregate.cast}` : sql;
}

const isLegacyCount = (node: ReadNode, field: Field) =>
  field.column === "count" && field.path.length === 0 && !node.relation.columns.some((c) => c.name === "count");

/** The SELECT list, and the GROUP BY of every other output column when some are aggregates. */
function selectClause(node: ReadNode, params: Params): { list: string; groupBy: string } {
  const entries = selectEntries(node, params);
  const list = entries.map((e) => (e.name ? `${e.expr} as ${e.name}` : e.expr)).join(", ");
  if (!entries.some((e) => e.aggregate)) return { list, groupBy: "" };
  // By position: an expression with bound parameters could not be written twice. An embed
  // reads its parent's join columns, so those are grouped too.
  const grouped = entries.flatMap((e, i) => (e.aggregate ? [] : [String(i + 1)]));
  for (const item of node.items) {
    const embed = item.type === "embed" && !item.spread && item.select.length ? node.embeds.get(item) : undefined;
    for (const pair of embed?.rel.pairs ?? []) grouped.push(`${quoteIdent(node.alias)}.${quoteIdent(pair.origin)}`);
  }
  return { list, groupBy: grouped.length ? ` group by ${grouped.join(", ")}` : "" };
}

function embedSql(parent: ReadNode, embed: EmbedNode, params: Params): string {
  const { list, groupBy } = selectClause(embed, params);
  const body = `select ${list} from ${embed.from} as ${quoteIdent(embed.alias)} where ${whereSql(parent, embed, params)}${groupBy}`;
  if (embed.rel.toOne) return `(select row_to_json(_e) from (${body} limit 1) as _e)`;
  return `(select coalesce(json_agg(_e), '[]') from (${body}${orderSql(embed, params)}${pageSql(embed, params)}) as _e)`;
}

/** `...rel(cols)`: each column lifted into the parent, as a value (to-one) or an array of values (to-many). */
function spreadEntries(parent: ReadNode, embed: EmbedNode, params: Params): Entry[] {
  const star = embed.items.some((i) => i.type === "star");
  const entries: Entry[] = [
    ...(star
      ? embed.relation.columns.map((c) => ({
          expr: `${quoteIdent(embed.alias)}.${quoteIdent(c.name)}`,
          name: quoteIdent(c.name),
        }))
      : []),
    ...selectEntries({ ...embed, items: embed.items.filter((i) => i.type !== "star") }, params),
  ];
  const from = `from ${embed.from} as ${quoteIdent(embed.alias)} where ${whereSql(parent, embed, params)}`;
  return entries.map(({ expr, name, aggregate }) => ({
    expr:
      embed.rel.toOne || aggregate
        ? `(select ${expr} ${from} limit 1)`
        : `(select coalesce(json_agg(${expr}), '[]') ${from})`,
    name,
  }));
}

/** The join of an embed to its parent and the embed's own conditions. */
function whereSql(parent: ReadNode, embed: EmbedNode, params: Params): string {
  const p = quoteIdent(parent.alias);
  const c = quoteIdent(embed.alias);
  const parts: string[] = [];
  const { rel } = embed;
  if (rel.junction) {
    const j = quoteIdent(`${embed.alias}_j`);
    const on = [
      ...rel.junction.origin.map((x) => `${j}.${quoteIdent(x.junction)} = ${p}.${quoteIdent(x.origin)}`),
      ...rel.junction.target.map((x) => `${j}.${quoteIdent(x.junction)} = ${c}.${quoteIdent(x.target)}`),
    ];
    const jr = rel.junction.relation;
    parts.push(
      `exists (select 1 from ${quoteIdent(jr.schema)}.${quoteIdent(jr.name)} as ${j} where ${on.join(" and ")})`,
    );
  } else {
    for (const pair of rel.pairs) parts.push(`${c}.${quoteIdent(pair.target)} = ${p}.${quoteIdent(pair.origin)}`);
  }
  const own = conditionsSql(embed, params);
  if (own) parts.push(own);
  return parts.join(" and ") || "true";
}

/** Filters of a node plus the existence tests its `!inner` / `is.null` embeds impose. */
export function conditionsSql(node: ReadNode, params: Params): string {
  const parts = node.conditions.map((c) => conditionSql(node, c, params));
  for (const embed of node.embeds.values()) {
    if (!embed.inner && !embed.absent) continue;
    const test = `exists (select 1 from ${embed.from} as ${quoteIdent(embed.alias)} where ${whereSql(node, embed, params)})`;
    parts.push(embed.absent ? `not ${test}` : test);
  }
  return parts.join(" and ");
}

function conditionSql(node: ReadNode, condition: Condition, params: Params): string {
  if (condition.type === "filter") return filterSql(node, condition.filter, params);
  const inner = condition.children.map((c) => conditionSql(node, c, params)).join(` ${condition.op} `);
  return `${condition.negate ? "not " : ""}(${inner})`;
}

function filterSql(node: ReadNode, filter: Filter, params: Params): string {
  const lhs = fieldSql(node, filter.field, params);
  let sql: string;
  switch (filter.op) {
    case "in":
      sql = filter.list?.length ? `${lhs} in (${filter.list.map((v) => params.add(v)).join(", ")})` : "false";
      break;
    case "is":
      sql = `${lhs} is ${isValues[filter.value.toLowerCase() as keyof typeof isValues]}`;
      break;
    case "fts":
    case "plfts":
    case "phfts":
    case "wfts": {
      const fn = operators[filter.op];
      const config = filter.config ? `${params.add(filter.config)}::regconfig, ` : "";
      const col =
        filter.field.path.length === 0 ? node.relation.columns.find((c) => c.name === filter.field.column) : null;
      const vector = col?.typeName === "tsvector" ? lhs : `to_tsvector(${config}${lhs})`;
      sql = `${vector} @@ ${fn}(${config}${params.add(filter.value)})`;
      break;
    }
    default: {
      const op = operators[filter.op];
      const like = filter.op === "like" || filter.op === "ilike";
      if (filter.quantifier) {
        const value = like ? filter.value.replaceAll("*", "%") : filter.value;
        sql = `${lhs} ${op} ${filter.quantifier}(${params.add(value)})`;
      } else {
        sql = `${lhs} ${op} ${params.add(like ? filter.value.replaceAll("*", "%") : filter.value)}`;
      }
    }
  }
  return filter.negate ? `not (${sql})` : sql;
}

export function orderSql(node: ReadNode, params: Params): string {
  if (node.order.length === 0) return "";
  return ` order by ${node.order.map((term) => orderTermSql(node, term, params)).join(", ")}`;
}

function orderTermSql(node: ReadNode, term: OrderTerm, params: Params): string {
  let expr: string;
  if (term.relation) {
    const embed = [...node.embeds.values()].find((e) => e.key === term.relation || e.item.name === term.relation);
    if (!embed) {
      throw new ApiError(400, "PGRST108", `'${term.relation}' is not an embedded resource in this request`);
    }
    if (!embed.rel.toOne) {
      throw new ApiError(
        400,
        "PGRST118",
        `A related order on '${term.relation}' is not possible`,
        null,
        "Note that an order by must be on a to-one relationship",
      );
    }
    expr = `(select ${fieldSql(embed, term.field, params)} from ${embed.from} as ${quoteIdent(embed.alias)} where ${whereSql(node, { ...embed, conditions: [], embeds: new Map() }, params)} limit 1)`;
  } else expr = fieldSql(node, term.field, params);
  const direction = term.direction ? ` ${term.direction}` : "";
  const nulls = term.nulls ? ` nulls ${term.nulls}` : "";
  return `${expr}${direction}${nulls}`;
}

export function pageSql(node: ReadNode, params: Params, maxRows: number | null = null): string {
  const limit = node.limit === null ? maxRows : maxRows === null ? node.limit : Math.min(node.limit, maxRows);
  return `${limit === null ? "" : ` limit ${params.add(limit)}`}${node.offset ? ` offset ${params.add(node.offset)}` : ""}`;
}

/**
 * The whole read: the page as JSON text, how many rows it has, and (when
 * counting) the total the filters match.
 */
export function readSql(
  root: ReadNode,
  params: Params,
  options: { count: boolean; maxRows: number | null; stripNulls?: boolean; csv?: boolean; geojson?: boolean },
): string {
  const where = conditionsSql(root, params);
  const whereClause = where ? ` where ${where}` : "";
  const from = `from ${root.from} as ${quoteIdent(root.alias)}`;
  const { list, groupBy } = selectClause(root, params);
  const total = options.count ? `(select count(*) ${from}${whereClause})` : "null::int8";
  const page = `select ${list} ${from}${whereClause}${groupBy}${orderSql(root, params)}${pageSql(root, params, options.maxRows)}`;
  if (options.csv) return csvSql(total, page);
  if (options.geojson) {
    // PostGIS' ST_AsGeoJSON, found on the search path as PostgREST finds it; without PostGIS
    // the database answers 42883 as it does behind PostgREST.
    const features = "coalesce(json_agg(st_asgeojson(_r)::json), '[]')";
    return `select ${total}::text as total, count(*)::text as page_count, json_build_object('type', 'FeatureCollection', 'features', ${features})::text as body from (${page}) as _r`;
  }
  return `select ${total}::text as total, count(*)::text as page_count, ${options.stripNulls ? "json_strip_nulls(coalesce(json_agg(_r), '[]'))" : "coalesce(json_agg(_r), '[]')"}::text as body from (${page}) as _r`;
}

/**
 * CSV as PostgREST writes it: the first row's keys joined by commas, then
 * each row as Postgres prints a record without its parentheses (a field is
 * quoted when empty or holding a quote, backslash, parenthesis, comma or
 * space; null is empty; booleans are t and f).
 */
function csvSql(total: string, page: string): string {
  const rows = "coalesce(string_agg(substring(_r::text, 2, length(_r::text) - 2), chr(10)), '')";
  return (
    `select _c.total, _c.page_count, coalesce((select string_agg(k, ',') from json_object_keys(_c.first) as k), '') ` +
    `|| chr(10) || _c.rows as body, true as csv from (select ${total}::text as total, count(*)::text as page_count, ` +
    `(array_agg(row_to_json(_r)))[1] as first, ${rows} as rows from (${page}) as _r) as _c`
  );
}
