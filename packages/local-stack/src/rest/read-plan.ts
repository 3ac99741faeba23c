/** Turns a request's query parameters into a tree of relations to read: select, embeds, filters, order, paging. */
import { ApiError, parseError } from "./errors.js";
import { type Condition, type OrderTerm, parseFieldText, parseFilter, parseLogic, parseOrder } from "./filters.js";
import { findRelationship, type Relationship } from "./relationships.js";
import type { Relation, SchemaCache } from "./schema-cache.js";
import { aggregatesDisabled, parseSelect, type SelectItem, usesAggregates } from "./select-parser.js";
import { qualified, quoteIdent } from "./sql.js";

export type EmbedItem = Extract<SelectItem, { type: "embed" }>;

export interface ReadNode {
  relation: Relation;
  /** SQL of the FROM item: a qualified table, a CTE name or a function call. */
  from: string;
  alias: string;
  items: SelectItem[];
  embeds: Map<EmbedItem, EmbedNode>;
  conditions: Condition[];
  order: OrderTerm[];
  limit: number | null;
  offset: number | null;
  /** How deep it is embedded (0: the requested relation); PostgREST's errors name an embed `<table>_<depth>`. */
  depth?: number;
}

export interface EmbedNode extends ReadNode {
  /** The key of the embed in the output, used to address it in `rel.col=` parameters. */
  key: string;
  item: EmbedItem;
  rel: Relationship;
  /** `!inner`, or a `rel=not.is.null` filter: parents without a match are dropped. */
  inner: boolean;
  /** `rel=is.null`: keep only parents without a match. */
  absent: boolean;
}

// Parameters that are not filters.
export const reserved = new Set(["select", "order", "limit", "offset", "columns", "on_conflict"]);

export class Aliases {
  private n = 0;
  next(): string {
    return `pgrst_${this.n++}`;
  }
}

export function qualifiedFrom(relation: Relation): string {
  return qualified(relation.schema, relation.name);
}

/**
 * The current row of a node as a value of its relation's type, to pass to a
 * function of that row. A CTE's rows (writes) are records: the cast names the type.
 */
export function rowOf(node: ReadNode): string {
  return `${quoteIdent(node.alias)}::${qualifiedFrom(node.relation)}`;
}

export interface PlanOptions {
  /** Parameter names that are something else (RPC arguments). */
  skip?: Set<string>;
  /** Select used when the request has none (writes without representation select nothing). */
  defaultSelect?: string;
}

export function buildReadPlan(
  cache: SchemaCache,
  relation: Relation,
  from: string,
  query: URLSearchParams,
  aliases: Aliases,
  options: PlanOptions = {},
): ReadNode {
  const root = node(relation, from, aliases.next(), parseSelect(query.get("select") ?? options.defaultSelect ?? "*"));
  if (!cache.config.aggregatesEnabled && usesAggregates(root.items)) throw aggregatesDisabled();
  attachEmbeds(cache, root, aliases);

  for (const [key, value] of query) {
    if (options.skip?.has(key)) continue;
    const parts = key.split(".");
    const last = parts[parts.length - 1] as string;
    if (parts.length === 1 && reserved.has(key)) continue;
    // `not.or`, `rel.not.and`: a negated logic tree.
    const negatedLogic = parts.length >= 2 && parts[parts.length - 2] === "not" && (last === "or" || last === "and");
    const path = parts.slice(0, negatedLogic ? -2 : -1);
    const target = path.length ? embedAt(root, path, key) : root;
    if (last === "or" || last === "and") {
      target.conditions.push(parseLogic(last, negatedLogic, value));
    } else if (path.length && last === "order") {
      target.order = parseOrder(value);
    } else if (path.length && (last === "limit" || last === "offset")) {
      target[last] = nonNegative(key, value);
    } else if (path.length === 0 && isEmbedKey(root, last) && /^(not\.)?is\.null$/.test(value)) {
      const embed = embedAt(root, [last], key);
      if (value.startsWith("not.")) embed.inner = true;
      else embed.absent = true;
    } else {
      const field = parseFieldText(last, (detail) => parseError(`failed to parse filter (${key}=${value})`, detail));
      target.conditions.push({ type: "filter", filter: parseFilter(field, value) });
    }
  }
  const order = query.get("order");
  if (order) root.order = parseOrder(order);
  root.limit = query.has("limit") ? nonNegative("limit", query.get("limit") ?? "") : null;
  root.offset = query.has("offset") ? nonNegative("offset", query.get("offset") ?? "") : null;
  return root;
}

function node(relation: Relation, from: string, alias: string, items: SelectItem[]): ReadNode {
  return { relation, from, alias, items, embeds: new Map(), conditions: [], order: [], limit: null, offset: null };
}

function attachEmbeds(cache: SchemaCache, parent: ReadNode, aliases: Aliases): void {
  for (const item of parent.items) {
    if (item.type !== "embed") continue;
    const rel = findRelationship(cache, parent.relation, item.name, item.hint);
    const from = rel.computed
      ? `${qualified(rel.computed.schema, rel.computed.name)}(${rowOf(parent)})`
      : qualifiedFrom(rel.target);
    const child: EmbedNode = {
      ...node(rel.target, from, aliases.next(), item.select),
      depth: (parent.depth ?? 0) + 1,
      key: item.alias ?? item.name,
      item,
      rel,
      inner: item.inner,
      absent: false,
    };
    parent.embeds.set(item, child);
    attachEmbeds(cache, child, aliases);
  }
}

function isEmbedKey(parent: ReadNode, key: string): boolean {
  return [...parent.embeds.values()].some((e) => e.key === key || e.item.name === key);
}

function embedAt(root: ReadNode, path: string[], key: string): EmbedNode {
  let current: ReadNode = root;
  for (const part of path) {
    const next =
      [...current.embeds.values()].find((e) => e.key === part) ??
      [...current.embeds.values()].find((e) => e.item.name === part);
    if (!next) {
      throw new ApiError(
        400,
        "PGRST108",
        `'${part}' is not an embedded resource in this request`,
        null,
        `Verify that '${part}' is included in the 'select' query parameter.`,
      );
    }
    current = next;
  }
  if (current === root) throw parseError(`failed to parse filter (${key})`);
  return current as EmbedNode;
}

function nonNegative(key: string, value: string): number {
  if (!/^\d+$/.test(value)) throw parseError(`failed to parse ${key} parameter (${value})`);
  return Number(value);
}
