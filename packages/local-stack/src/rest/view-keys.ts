/**
 * Gives views the keys and foreign keys of the base-table columns they show,
 * as PostgREST's schema cache does, so embedding works through views. Each
 * view column's origin is read from the `resorigtbl`/`resorigcol` of the
 * top-level target list in the view's `_RETURN` rule.
 */
import type { ForeignKey, Relation, SchemaCache } from "./schema-cache.js";

export interface ViewQuery {
  oid: number;
  /** pg_rewrite.ev_action as text (a Query node tree). */
  tree: string;
}

interface Origin {
  column: string;
  table: number;
  num: number;
}

/** The `{TARGETENTRY …}` chunks of the outermost `:targetList`. */
function topLevelTargets(tree: string): string[] {
  let depth = 0;
  for (let i = 0; i < tree.length; i++) {
    const ch = tree[i];
    if (ch === "\\") i++;
    else if (ch === "(" || ch === "{") depth++;
    else if (ch === ")" || ch === "}") depth--;
    else if (depth === 2 && tree.startsWith(":targetList (", i)) return chunks(tree, i + ":targetList (".length);
  }
  return [];
}

function chunks(tree: string, start: number): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = -1;
  for (let i = start; i < tree.length; i++) {
    const ch = tree[i];
    if (ch === "\\") i++;
    else if (ch === "{" || ch === "(") {
      if (depth === 0) from = i;
      depth++;
    } else if (ch === "}" || ch === ")") {
      if (depth === 0) break;
      depth--;
      if (depth === 0) out.push(tree.slice(from, i + 1));
    }
  }
  return out;
}

// A target entry's own fields follow its expression, so the last match is its own.
const last = (chunk: string, field: string) =>
  [...chunk.matchAll(new RegExp(`:${field} ((?:\\\\.|[^\\s)}])+)`, "g"))].pop()?.[1];

function origins(tree: string): Origin[] {
  return topLevelTargets(tree).flatMap((chunk) => {
    const column = last(chunk, "resname")?.replace(/\\(.)/g, "$1");
    const table = Number(last(chunk, "resorigtbl"));
    const num = Number(last(chunk, "resorigcol"));
    return column && table && num && last(chunk, "resjunk") !== "true" ? [{ column, table, num }] : [];
  });
}

export function withViewKeys(cache: SchemaCache & { viewQueries: ViewQuery[] }): SchemaCache {
  const byOid = new Map(cache.relations.map((r) => [r.oid, r]));
  const derived: ForeignKey[] = [];
  for (const query of cache.viewQueries) {
    const view = byOid.get(query.oid);
    if (!view) continue;
    const found = origins(query.tree);
    // The view column showing `table.column`, if any.
    const viewColumn = (table: Relation, column: string) => {
      const num = table.columns.find((c) => c.name === column)?.num;
      return found.find((o) => o.table === table.oid && o.num === num)?.column;
    };
    const mapAll = (table: Relation | undefined, columns: string[]) => {
      if (!table) return null;
      const mapped = columns.map((c) => viewColumn(table, c));
      return mapped.every((c) => c !== undefined) ? (mapped as string[]) : null;
    };
    const bases = new Set(found.map((o) => byOid.get(o.table)).filter((r): r is Relation => r !== undefined));
    for (const base of bases) {
      const pk = base.primaryKey.length ? mapAll(base, base.primaryKey) : null;
      if (pk && view.primaryKey.length === 0) view.primaryKey = pk;
      for (const unique of base.uniques) {
        const mapped = mapAll(base, unique);
        if (mapped) view.uniques.push(mapped);
      }
    }
    for (const fk of cache.foreignKeys) {
      const source = cache.relations.find((r) => r.schema === fk.schema && r.name === fk.table);
      const target = cache.relations.find((r) => r.schema === fk.targetSchema && r.name === fk.targetTable);
      const from = mapAll(source, fk.columns);
      if (from) derived.push({ ...fk, schema: view.schema, table: view.name, columns: from });
      const to = mapAll(target, fk.targetColumns);
      if (to) derived.push({ ...fk, targetSchema: view.schema, targetTable: view.name, targetColumns: to });
    }
  }
  const { viewQueries: _, ...rest } = cache;
  return { ...rest, foreignKeys: [...cache.foreignKeys, ...derived] };
}
