/** Finds the function an RPC names and renders its call with bound arguments. */
import { ApiError } from "./errors.js";
import type { Column, DbFunction, Relation, SchemaCache } from "./schema-cache.js";
import { type Params, qualified, quoteIdent } from "./sql.js";

const inputModes = new Set(["i", "b", "v"]);
const inputsOf = (fn: DbFunction) => fn.args.filter((a) => inputModes.has(a.mode));

/** The function a single unnamed json/jsonb argument makes take the whole body. */
export function takesWholeBody(fn: DbFunction): boolean {
  const inputs = inputsOf(fn);
  return inputs.length === 1 && inputs[0]?.name === "" && ["json", "jsonb"].includes(inputs[0]?.typeName ?? "");
}

/** Resolves an overload by the argument names given, as PostgREST does. */
export function findFunction(
  cache: SchemaCache,
  schema: string,
  name: string,
  keys: string[],
  wholeBody: boolean,
): DbFunction {
  const named = cache.functions.filter((f) => f.schema === schema && f.name === name);
  const matches = named.filter((fn) => {
    const inputs = inputsOf(fn);
    const required = inputs.slice(0, inputs.length - fn.defaults).map((a) => a.name);
    const names = inputs.map((a) => a.name);
    return keys.every((k) => names.includes(k)) && required.every((r) => keys.includes(r));
  });
  const candidates = matches.length ? matches : wholeBody ? named.filter(takesWholeBody) : [];
  if (candidates.length === 1) return candidates[0] as DbFunction;
  if (candidates.length > 1) {
    throw new ApiError(
      300,
      "PGRST203",
      `Could not choose the best candidate function between: ${candidates
        .map(
          (f) =>
            `${schema}.${name}(${inputsOf(f)
              .map((a) => `${a.name} => ${a.type}`)
              .join(", ")})`,
        )
        .join(", ")}`,
      null,
      "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    );
  }
  const list = [...keys].sort().join(", ");
  throw new ApiError(
    404,
    "PGRST202",
    `Could not find the function ${schema}.${name}${keys.length ? `(${list})` : " without parameters"} in the schema cache`,
    `Searched for the function ${schema}.${name}${keys.length ? ` with parameters ${list}` : " without parameters"} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
  );
}

/** `"s"."fn"("a" := …)`, each argument read from the bound JSON object with its declared type. */
export function callSql(fn: DbFunction, args: unknown, wholeBody: boolean, params: Params): string {
  const name = qualified(fn.schema, fn.name);
  if (wholeBody)
    return `${name}(${params.add(JSON.stringify(args ?? {}))}::${inputsOf(fn)[0]?.typeName === "json" ? "json" : "jsonb"})`;
  const given = Object.keys((args ?? {}) as object);
  const used = inputsOf(fn).filter((a) => given.includes(a.name));
  if (used.length === 0) return `${name}()`;
  const json = params.add(JSON.stringify(args));
  // Types are catalog text (format_type), not request input.
  const record = used.map((a) => `${quoteIdent(a.name)} ${a.type}`).join(", ");
  const named = used.map(
    (a) =>
      `${quoteIdent(a.name)} := (select _a.${quoteIdent(a.name)} from json_to_record(${json}::json) as _a(${record}))`,
  );
  return `${name}(${named.join(", ")})`;
}

export type ReturnShape =
  | { kind: "void" }
  | { kind: "scalar" }
  | { kind: "setof-scalar" }
  | { kind: "rows"; relation: Relation };

export function returnShape(cache: SchemaCache, fn: DbFunction): ReturnShape {
  if (fn.returnType === "void") return { kind: "void" };
  const outs = fn.args.filter((a) => a.mode === "t" || a.mode === "o" || a.mode === "b");
  if (fn.returnsSet) {
    if (fn.returnRelation) {
      const relation = cache.relations.find(
        (r) => r.schema === fn.returnRelation?.schema && r.name === fn.returnRelation?.name,
      );
      if (relation) return { kind: "rows", relation };
    }
    if (outs.length > 0 && fn.returnKind === "p") {
      const columns: Column[] = outs.map((a) => ({
        name: a.name,
        type: a.type,
        typeName: a.typeName,
        category: "",
        hasDefault: false,
        defaultExpr: null,
      }));
      return {
        kind: "rows",
        relation: { schema: fn.schema, name: fn.name, kind: "view", columns, primaryKey: [], uniques: [] },
      };
    }
    return { kind: "setof-scalar" };
  }
  return { kind: "scalar" };
}
