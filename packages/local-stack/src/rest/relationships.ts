/**
 * Resolves an embed name (and optional `!hint`) to a relationship, as
 * PostgREST's findRel: a foreign key, a junction, or a computed relationship.
 */
import { ApiError } from "./errors.js";
import { type DbFunction, type ForeignKey, findRelation, type Relation, type SchemaCache } from "./schema-cache.js";

export interface Relationship {
  cardinality: "many-to-one" | "one-to-many" | "one-to-one" | "many-to-many";
  toOne: boolean;
  target: Relation;
  /** Pairs joining origin to target directly (empty for many-to-many). */
  pairs: { origin: string; target: string }[];
  junction: {
    relation: Relation;
    origin: { junction: string; origin: string }[];
    target: { junction: string; target: string }[];
  } | null;
  /** A function of the origin's row returning the target's rows, called per parent row. */
  computed: DbFunction | null;
  /** What `!hint` names this relationship: the FK constraint, or the junction table. */
  label: string;
  /** PostgREST's description in PGRST201 details. */
  description: string;
}

const cols = (table: string, columns: string[]) => `${table}(${columns.join(", ")})`;

const single = (columns: string[], name: string) => columns.length === 1 && columns[0] === name;
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

export function findRelationship(
  cache: SchemaCache,
  origin: Relation,
  name: string,
  hint: string | null,
): Relationship {
  const found = new Map<string, Relationship>();
  const { schema } = origin;
  const local = (fk: ForeignKey) => fk.schema === schema && fk.targetSchema === schema;

  for (const fk of cache.foreignKeys.filter(local)) {
    const selfRef = fk.table === fk.targetTable;
    // Many-to-one: the FK sits on the origin.
    if (fk.table === origin.name) {
      const target = findRelation(cache, schema, fk.targetTable);
      const byName =
        hint === null && ((fk.targetTable === name && !selfRef) || fk.name === name || single(fk.columns, name));
      const byHint =
        hint !== null &&
        fk.targetTable === name &&
        !selfRef &&
        (fk.name === hint || single(fk.columns, hint) || single(fk.targetColumns, hint));
      if (target && (byName || byHint)) {
        found.set(`m2o:${fk.name}`, {
          cardinality: "many-to-one",
          toOne: true,
          target,
          pairs: fk.columns.map((c, i) => ({ origin: c, target: fk.targetColumns[i] as string })),
          junction: null,
          computed: null,
          label: fk.name,
          description: `${fk.name} using ${cols(fk.table, fk.columns)} and ${cols(fk.targetTable, fk.targetColumns)}`,
        });
      }
    }
    // One-to-many (or one-to-one when the FK columns are unique): the FK points at the origin.
    if (fk.targetTable === origin.name) {
      const target = findRelation(cache, schema, fk.table);
      const byName = hint === null && (fk.table === name || fk.name === name);
      const byHint =
        hint !== null &&
        fk.table === name &&
        (fk.name === hint || single(fk.columns, hint) || single(fk.targetColumns, hint));
      if (target && (byName || byHint)) {
        const unique = target.uniques.some((u) => sameSet(u, fk.columns));
        found.set(`o2m:${fk.name}`, {
          cardinality: unique ? "one-to-one" : "one-to-many",
          toOne: unique,
          target,
          pairs: fk.targetColumns.map((c, i) => ({ origin: c, target: fk.columns[i] as string })),
          junction: null,
          computed: null,
          label: fk.name,
          description: `${fk.name} using ${cols(fk.table, fk.columns)} and ${cols(fk.targetTable, fk.targetColumns)}`,
        });
      }
    }
  }

  // Many-to-many through a junction whose two FKs are both inside its primary key.
  const target = findRelation(cache, schema, name);
  if (target) {
    for (const toOrigin of cache.foreignKeys.filter((fk) => local(fk) && fk.targetTable === origin.name)) {
      const junction = findRelation(cache, schema, toOrigin.table);
      if (!junction || junction.name === origin.name) continue;
      const inPk = (fk: ForeignKey) => fk.columns.every((c) => junction.primaryKey.includes(c));
      for (const toTarget of cache.foreignKeys) {
        if (!local(toTarget) || toTarget === toOrigin || toTarget.table !== junction.name) continue;
        if (toTarget.targetTable !== name || !inPk(toOrigin) || !inPk(toTarget)) continue;
        if (hint !== null && hint !== junction.name && hint !== toOrigin.name && hint !== toTarget.name) continue;
        found.set(`m2m:${toOrigin.name}:${toTarget.name}`, {
          cardinality: "many-to-many",
          toOne: false,
          target,
          pairs: [],
          junction: {
            relation: junction,
            origin: toOrigin.columns.map((c, i) => ({ junction: c, origin: toOrigin.targetColumns[i] as string })),
            target: toTarget.columns.map((c, i) => ({ junction: c, target: toTarget.targetColumns[i] as string })),
          },
          computed: null,
          label: junction.name,
          description: `${junction.name} using ${cols(toOrigin.name, toOrigin.columns)} and ${cols(toTarget.name, toTarget.columns)}`,
        });
      }
    }
  }

  for (const fn of cache.functions) {
    if (fn.name !== name || fn.schema !== schema || hint !== null) continue;
    const computed = computedRelationship(cache, origin, fn);
    if (computed) found.set(`computed:${fn.name}`, computed);
  }

  const candidates = [...found.values()];
  if (candidates.length === 1) return candidates[0] as Relationship;
  if (candidates.length === 0) {
    throw new ApiError(
      400,
      "PGRST200",
      `Could not find a relationship between '${origin.name}' and '${name}' in the schema cache`,
      `Searched for a foreign key relationship between '${origin.name}' and '${name}'${hint ? ` using the hint '${hint}'` : ""} in the schema '${schema}', but no matches were found.`,
    );
  }
  throw new ApiError(
    300,
    "PGRST201",
    `Could not embed because more than one relationship was found for '${origin.name}' and '${name}'`,
    candidates.map((c) => ({
      cardinality: c.cardinality,
      embedding: `${origin.name} with ${c.target.name}`,
      relationship: c.description,
    })),
    `Try changing '${name}' to one of the following: ${candidates.map((c) => `'${name}!${c.label}'`).join(", ")}. Find the desired relationship in the 'details' key.`,
  );
}

/**
 * A function taking exactly one argument, the origin's row, and returning
 * rows of a table or view of the schema (PostgREST's computed relationship).
 * It is to-one unless it returns a set of more than one row (`rows 1` is one).
 */
function computedRelationship(cache: SchemaCache, origin: Relation, fn: DbFunction): Relationship | null {
  const inputs = fn.args.filter((a) => a.mode === "i" || a.mode === "b" || a.mode === "v");
  const arg = inputs[0]?.relation;
  if (inputs.length !== 1 || arg?.schema !== origin.schema || arg.name !== origin.name) return null;
  const returned = fn.returnRelation;
  const target = returned && findRelation(cache, returned.schema, returned.name);
  if (!target) return null;
  const toOne = !fn.returnsSet || fn.rows === 1;
  return {
    cardinality: toOne ? "many-to-one" : "one-to-many",
    toOne,
    target,
    pairs: [],
    junction: null,
    computed: fn,
    label: fn.name,
    description: `${fn.name}(${origin.name})`,
  };
}
