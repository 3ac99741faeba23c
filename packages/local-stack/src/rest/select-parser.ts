/** Parses PostgREST's `select` parameter (pFieldForest of QueryParams.hs) into a tree. */
import { ApiError, parseError } from "./errors.js";

export interface JsonStep {
  arrow: "->" | "->>";
  key: string;
}

/** A column, optionally followed by a JSON path: `data->a->>b`. */
export interface Field {
  column: string;
  path: JsonStep[];
}

export const aggregateFunctions = ["avg", "count", "max", "min", "sum"] as const;
export type AggregateFunction = (typeof aggregateFunctions)[number];

/** `col.sum()::int`: the function and the cast of its result. `count()` aggregates the column `*`. */
export interface Aggregate {
  fn: AggregateFunction;
  cast: string | null;
}

export type SelectItem =
  | { type: "star" }
  | { type: "column"; alias: string | null; field: Field; cast: string | null; aggregate?: Aggregate }
  | {
      type: "embed";
      alias: string | null;
      name: string;
      hint: string | null;
      inner: boolean;
      spread: boolean;
      select: SelectItem[];
    };

// Casts name a type, so they come from a fixed list rather than the URL.
const castTypes = new Set([
  "text",
  "varchar",
  "char",
  "int",
  "int2",
  "int4",
  "int8",
  "integer",
  "bigint",
  "smallint",
  "numeric",
  "float4",
  "float8",
  "real",
  "bool",
  "boolean",
  "json",
  "jsonb",
  "date",
  "time",
  "timestamp",
  "timestamptz",
  "uuid",
  "interval",
]);

export function checkCast(type: string, raw: string): string {
  if (!castTypes.has(type.toLowerCase()))
    throw parseError(`failed to parse select parameter (${raw})`, `unsupported cast ${type}`);
  return type.toLowerCase();
}

/** A cursor over one parameter's text with the token rules shared by select, order and filters. */
export class Cursor {
  pos = 0;
  constructor(
    readonly text: string,
    readonly fail: (detail: string) => ApiError,
  ) {}
  peek(n = 1): string {
    return this.text.slice(this.pos, this.pos + n);
  }
  done(): boolean {
    return this.pos >= this.text.length;
  }
  eat(token: string): boolean {
    if (this.text.startsWith(token, this.pos)) {
      this.pos += token.length;
      return true;
    }
    return false;
  }
  expect(token: string): void {
    if (!this.eat(token)) throw this.fail(`expected "${token}" at position ${this.pos}`);
  }
  /** An identifier: double-quoted (with "" or \" escapes) or a run of safe characters. */
  name(): string {
    if (this.eat('"')) {
      let out = "";
      while (!this.done()) {
        const ch = this.text[this.pos++] as string;
        if (ch === "\\" && !this.done()) out += this.text[this.pos++];
        else if (ch === '"') {
          if (this.eat('"')) out += '"';
          else return out;
        } else out += ch;
      }
      throw this.fail("unterminated quoted name");
    }
    const start = this.pos;
    while (!this.done()) {
      const ch = this.text[this.pos] as string;
      if (',:()!."*'.includes(ch) || (ch === "-" && this.text[this.pos + 1] === ">")) break;
      this.pos++;
    }
    if (this.pos === start) throw this.fail(`expected a name at position ${start}`);
    return this.text.slice(start, this.pos);
  }
  /** `col->a->>b` */
  field(): Field {
    const column = this.name();
    const path: JsonStep[] = [];
    while (this.peek(2) === "->") {
      const arrow = this.eat("->>") ? "->>" : "->";
      if (arrow === "->") this.expect("->");
      path.push({ arrow, key: this.name() });
    }
    return { column, path };
  }
}

/** Removes whitespace outside double quotes, as postgrest-js does before sending. */
function stripSpaces(text: string): string {
  let quoted = false;
  let out = "";
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && /\s/.test(ch)) continue;
    out += ch;
  }
  return out;
}

export function parseSelect(raw: string): SelectItem[] {
  const text = stripSpaces(raw);
  const cursor = new Cursor(text, (detail) => parseError(`failed to parse select parameter (${raw})`, detail));
  const items = parseItems(cursor, raw);
  if (!cursor.done()) throw cursor.fail(`unexpected "${cursor.peek()}" at position ${cursor.pos}`);
  return items;
}

function parseItems(cursor: Cursor, raw: string): SelectItem[] {
  const items: SelectItem[] = [];
  if (cursor.done() || cursor.peek() === ")") return items;
  do items.push(parseItem(cursor, raw));
  while (cursor.eat(","));
  return items;
}

function parseItem(cursor: Cursor, raw: string): SelectItem {
  if (cursor.eat("*")) return { type: "star" };
  if (cursor.eat("...")) {
    const name = cursor.name();
    return { ...parseEmbed(cursor, raw), type: "embed", alias: null, name, spread: true };
  }
  let alias: string | null = null;
  let start = cursor.pos;
  let name = cursor.name();
  if (cursor.peek() === ":" && cursor.peek(2) !== "::") {
    cursor.pos++;
    alias = name;
    start = cursor.pos;
    name = cursor.name();
  }
  if (name === "count" && cursor.eat("()")) {
    return { type: "column", alias, field: { column: "*", path: [] }, cast: null, aggregate: aggregateCast("count") };
  }
  if (cursor.peek() === "!" || cursor.peek() === "(") {
    return { ...parseEmbed(cursor, raw), type: "embed", alias, name, spread: false };
  }
  cursor.pos = start;
  const field = cursor.field();
  let cast: string | null = null;
  if (cursor.eat("::")) cast = checkCast(cursor.name(), raw);
  if (!cursor.eat(".")) return { type: "column", alias, field, cast };
  const fn = cursor.name();
  if (!(aggregateFunctions as readonly string[]).includes(fn)) throw cursor.fail(`unknown aggregate function ${fn}`);
  cursor.expect("()");
  return { type: "column", alias, field, cast, aggregate: aggregateCast(fn as AggregateFunction) };

  function aggregateCast(fn: AggregateFunction): Aggregate {
    return { fn, cast: cursor.eat("::") ? checkCast(cursor.name(), raw) : null };
  }
}

function parseEmbed(cursor: Cursor, raw: string) {
  let hint: string | null = null;
  let inner = false;
  while (cursor.eat("!")) {
    const word = cursor.name();
    if (word === "inner") inner = true;
    else if (word === "left") inner = false;
    else hint = word;
  }
  cursor.expect("(");
  const select = parseItems(cursor, raw);
  cursor.expect(")");
  return { hint, inner, select };
}

/** Whether a select tree uses an aggregate function anywhere. */
export function usesAggregates(items: SelectItem[]): boolean {
  return items.some((i) =>
    i.type === "column" ? i.aggregate !== undefined : i.type === "embed" && usesAggregates(i.select),
  );
}

export const aggregatesDisabled = () => new ApiError(400, "PGRST123", "Use of aggregate functions is not allowed");
