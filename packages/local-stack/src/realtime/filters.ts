/**
 * postgres_changes `filter` strings as Supabase Realtime reads them: conditions
 * `column=op.value` joined by commas (AND), each operator negatable with `not.`,
 * values double-quoted PostgREST-style when they hold `,()"\`, `in.(a,"b,c")` lists.
 */

export const FILTER_OPS = [
  "eq",
  "neq",
  "lt",
  "lte",
  "gt",
  "gte",
  "in",
  "like",
  "ilike",
  "is",
  "match",
  "imatch",
  "isdistinct",
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface Condition {
  column: string;
  op: FilterOp;
  /** One value; `in` has several; `is` has null / true / false / unknown. */
  values: string[];
  negate: boolean;
}

/** All conditions must hold. */
export type Filter = Condition[];

export class FilterError extends Error {}

/** Elixir's `inspect` of a list of strings, which Realtime puts in its errors. */
const inspectList = (parts: string[]) => `[${parts.map((part) => JSON.stringify(part)).join(", ")}]`;

const fail = (reason: string): never => {
  throw new FilterError(`Error parsing \`filter\` params: ${reason}`);
};

/** Parses a filter; an empty one is no filter. Throws FilterError with Realtime's message. */
export function parseFilter(text: string): Filter {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  return splitTopLevel(trimmed).map(parseCondition);
}

/** Splits on commas outside double quotes and parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let depth = 0;
  let quoted = false;
  let previous = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === "\\" && i + 1 < text.length) {
        current += char + text[++i];
        previous = "";
        continue;
      }
      if (char === '"') quoted = false;
      current += char;
    } else if (char === '"' && [".", "(", ","].includes(previous)) {
      quoted = true;
      current += char;
    } else if (char === "(") {
      depth += 1;
      current += char;
    } else if (char === ")") {
      depth = Math.max(0, depth - 1);
      current += char;
    } else if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else {
      current += char;
    }
    previous = char;
  }
  parts.push(current);
  return parts;
}

function parseCondition(segment: string): Condition {
  const text = segment.trim();
  if (text === "") fail("filter must not contain empty segments (check for extra commas)");
  const equals = text.indexOf("=");
  if (equals < 0) fail(inspectList([text]));
  const column = text.slice(0, equals);
  let rest = text.slice(equals + 1);
  const negate = rest.startsWith("not.");
  if (negate) rest = rest.slice(4);
  const dot = rest.indexOf(".");
  if (dot < 0) fail(inspectList([rest]));
  const op = rest.slice(0, dot);
  const raw = rest.slice(dot + 1);
  if (!(FILTER_OPS as readonly string[]).includes(op)) fail(inspectList([op, raw]));
  if (op === "in") {
    if (raw.length < 2 || !raw.startsWith("(") || !raw.endsWith(")"))
      fail("`in` filter value must be wrapped by parentheses");
    return { column, op: "in", values: splitList(raw.slice(1, -1)), negate };
  }
  const value = unquote(raw);
  if (op === "is" && !["null", "true", "false", "unknown"].includes(value.toLowerCase()))
    fail(`\`is\` filter value must be null, true, false or unknown: ${inspectList([value])}`);
  return { column, op: op as FilterOp, values: [value], negate };
}

/** The elements of an `in` list, as Postgres reads the array literal `{…}` Realtime makes of it. */
function splitList(inner: string): string[] {
  const values: string[] = [];
  let current = "";
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < inner.length; i++) {
    const char = inner[i] as string;
    if (char === "\\" && i + 1 < inner.length) current += inner[++i];
    else if (char === '"') {
      quoted = !quoted;
      wasQuoted = true;
    } else if (char === "," && !quoted) {
      values.push(wasQuoted ? current : current.trim());
      current = "";
      wasQuoted = false;
    } else current += char;
  }
  values.push(wasQuoted ? current : current.trim());
  return values;
}

/** `"a,b"` → `a,b` (backslash escapes); anything else as written. */
function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  let out = "";
  for (let i = 1; i < value.length; i++) {
    const char = value[i] as string;
    if (char === "\\" && i + 1 < value.length) out += value[++i];
    else if (char === '"') return i === value.length - 1 ? out : value;
    else out += char;
  }
  return value;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

const SQL_OPS: Record<Exclude<FilterOp, "in" | "is">, string> = {
  eq: "=",
  neq: "<>",
  lt: "<",
  lte: "<=",
  gt: ">",
  gte: ">=",
  like: "like",
  ilike: "ilike",
  match: "~",
  imatch: "~*",
  isdistinct: "is distinct from",
};

/**
 * The filter as a SQL condition on `alias`'s columns, values added to `params`
 * (untyped, so Postgres reads them as the column's type, as Realtime casts them).
 * A condition on NULL is not met, negated or not.
 */
export function filterSql(filter: Filter, alias: string, params: unknown[]): string {
  if (filter.length === 0) return "true";
  const conditions = filter.map((condition) => {
    const column = `${alias}.${quote(condition.column)}`;
    const param = (value: string) => {
      params.push(value);
      return `$${params.length}`;
    };
    let sql: string;
    if (condition.op === "in") sql = `${column} in (${condition.values.map(param).join(", ")})`;
    else if (condition.op === "is") sql = `${column} is ${(condition.values[0] as string).toLowerCase()}`;
    else sql = `${column} ${SQL_OPS[condition.op]} ${param(condition.values[0] as string)}`;
    return condition.negate ? `coalesce(not (${sql}), false)` : `coalesce(${sql}, false)`;
  });
  return conditions.join(" and ");
}

/** Columns a filter names. */
export const filterColumns = (filter: Filter): string[] => [...new Set(filter.map((condition) => condition.column))];

/**
 * Whether a DELETE's old key (all Supabase has without REPLICA IDENTITY FULL)
 * passes a filter; a condition on a column the key lacks is not met.
 */
export function keyMatches(record: Record<string, unknown>, filter: Filter | null): boolean {
  return (filter ?? []).every((condition) => {
    if (!(condition.column in record)) return false;
    const met = conditionMet(record[condition.column], condition);
    return met === null ? false : condition.negate ? !met : met;
  });
}

/** A condition on one value; null when SQL would say NULL. */
function conditionMet(value: unknown, { op, values }: Condition): boolean | null {
  const target = values[0] as string;
  if (op === "is") {
    const keyword = target.toLowerCase();
    if (keyword === "null" || keyword === "unknown") return value === null;
    return value === (keyword === "true");
  }
  if (op === "isdistinct") return value === null || compare(value, target) !== 0;
  if (value === null || value === undefined) return null;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  switch (op) {
    case "eq":
      return compare(value, target) === 0;
    case "neq":
      return compare(value, target) !== 0;
    case "lt":
      return compare(value, target) < 0;
    case "lte":
      return compare(value, target) <= 0;
    case "gt":
      return compare(value, target) > 0;
    case "gte":
      return compare(value, target) >= 0;
    case "in":
      return values.some((candidate) => compare(value, candidate) === 0);
    case "like":
    case "ilike":
      return likePattern(target, op === "ilike").test(text);
    case "match":
    case "imatch":
      return new RegExp(target, op === "imatch" ? "i" : "").test(text);
  }
}

function compare(value: unknown, target: string): number {
  if (typeof value === "number") return value - Number(target);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text < target ? -1 : text > target ? 1 : 0;
}

/** A LIKE pattern (`%`, `_`, `\` escapes) as a regular expression. */
function likePattern(pattern: string, caseInsensitive: boolean): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "\\" && i + 1 < pattern.length) source += escapeRegExp(pattern[++i] as string);
    else if (char === "%") source += "[\\s\\S]*";
    else if (char === "_") source += "[\\s\\S]";
    else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`, caseInsensitive ? "i" : "");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
