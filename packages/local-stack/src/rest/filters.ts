/** Parses horizontal filters (`col=op.value`), logic trees (`or=(…)`) and `order` terms. */
import { type ApiError, parseError } from "./errors.js";
import { Cursor, type Field } from "./select-parser.js";

/** Operators and the SQL they stand for; anything else is a parse error. */
export const operators = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  like: "like",
  ilike: "ilike",
  match: "~",
  imatch: "~*",
  cs: "@>",
  cd: "<@",
  ov: "&&",
  sl: "<<",
  sr: ">>",
  nxl: "&>",
  nxr: "&<",
  adj: "-|-",
  in: "in",
  is: "is",
  isdistinct: "is distinct from",
  fts: "to_tsquery",
  plfts: "plainto_tsquery",
  phfts: "phraseto_tsquery",
  wfts: "websearch_to_tsquery",
} as const;
export type Operator = keyof typeof operators;

const quantifiable = new Set(["eq", "like", "ilike", "gt", "gte", "lt", "lte", "match", "imatch"]);
const textSearch = new Set(["fts", "plfts", "phfts", "wfts"]);
export const isValues = {
  null: "null",
  not_null: "not null",
  true: "true",
  false: "false",
  unknown: "unknown",
} as const;

export interface Filter {
  field: Field;
  negate: boolean;
  op: Operator;
  quantifier: "any" | "all" | null;
  /** Text search configuration: `fts(english)`. */
  config: string | null;
  value: string;
  /** Items of `in.(…)` or of a quantified `{a,b}`. */
  list: string[] | null;
}

export type Condition =
  | { type: "filter"; filter: Filter }
  | { type: "logic"; op: "and" | "or"; negate: boolean; children: Condition[] };

const failFilter = (text: string) => (detail: string) => parseError(`failed to parse filter (${text})`, detail);

/** `[not.]op[(modifier)].value` for the field already parsed. */
export function parseFilter(field: Field, expression: string): Filter {
  const fail = failFilter(expression);
  let rest = expression;
  let negate = false;
  if (rest.startsWith("not.")) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(?:\(([^)]*)\))?\.([\s\S]*)$/.exec(rest);
  if (!match) throw fail("expected operator.value");
  const [, opName = "", modifier, value = ""] = match;
  if (!(opName in operators)) throw fail(`unknown operator ${opName}`);
  const op = opName as Operator;
  let quantifier: Filter["quantifier"] = null;
  let config: string | null = null;
  if (modifier !== undefined) {
    if (textSearch.has(op)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(modifier)) throw fail("bad text search configuration");
      config = modifier;
    } else if ((modifier === "any" || modifier === "all") && quantifiable.has(op)) quantifier = modifier;
    else throw fail(`unexpected modifier ${modifier}`);
  }
  let list: string[] | null = null;
  if (op === "in") {
    if (!value.startsWith("(") || !value.endsWith(")")) throw fail("in expects a list (a,b)");
    list = splitList(value.slice(1, -1), fail);
  } else if (quantifier) {
    if (!value.startsWith("{") || !value.endsWith("}")) throw fail("quantified operators expect {a,b}");
    list = splitList(value.slice(1, -1), fail);
  } else if (op === "is" && !(value.toLowerCase() in isValues)) {
    throw fail(`is expects null, not_null, true, false or unknown`);
  }
  return { field, negate, op, quantifier, config, value, list };
}

/** Comma-separated items, double quotes protecting commas (with \" and \\ escapes). */
function splitList(text: string, fail: (d: string) => ApiError): string[] {
  if (text === "") return [];
  const items: string[] = [];
  let i = 0;
  while (i <= text.length) {
    let item = "";
    if (text[i] === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\" && i + 1 < text.length) i++;
        item += text[i++];
      }
      if (text[i] !== '"') throw fail("unterminated quoted value");
      i++;
    } else {
      while (i < text.length && text[i] !== ",") item += text[i++];
    }
    items.push(item);
    if (i < text.length && text[i] !== ",") throw fail("expected , after quoted value");
    i++;
  }
  return items;
}

export function parseFieldText(text: string, fail: (d: string) => ApiError): Field {
  const cursor = new Cursor(text, fail);
  const field = cursor.field();
  if (!cursor.done()) throw fail(`unexpected "${cursor.peek()}" in ${text}`);
  return field;
}

/** `(a.eq.1,or(b.gt.2,c.is.null))` as given to `or=`/`and=`. */
export function parseLogic(op: "and" | "or", negate: boolean, text: string): Condition {
  const fail = failFilter(text);
  const cursor = new Cursor(text, fail);
  const node = parseLogicBody(cursor, op, negate);
  if (!cursor.done()) throw fail(`unexpected "${cursor.peek()}"`);
  return node;
}

function parseLogicBody(cursor: Cursor, op: "and" | "or", negate: boolean): Condition {
  cursor.expect("(");
  const children: Condition[] = [];
  do children.push(parseLogicItem(cursor));
  while (cursor.eat(","));
  cursor.expect(")");
  return { type: "logic", op, negate, children };
}

function parseLogicItem(cursor: Cursor): Condition {
  const start = cursor.pos;
  const negate = cursor.eat("not.");
  for (const op of ["and", "or"] as const) {
    if (cursor.peek(op.length + 1) === `${op}(`) {
      cursor.pos += op.length;
      return parseLogicBody(cursor, op, negate);
    }
  }
  cursor.pos = start;
  const field = cursor.field();
  cursor.expect(".");
  // The value runs to the next top-level comma or closing parenthesis.
  const valueStart = cursor.pos;
  let depth = 0;
  let quoted = false;
  while (!cursor.done()) {
    const ch = cursor.text[cursor.pos] as string;
    if (quoted) {
      if (ch === "\\") cursor.pos++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === "(") depth++;
    else if (ch === ")") {
      if (depth === 0) break;
      depth--;
    } else if (ch === "," && depth === 0) break;
    cursor.pos++;
  }
  let expression = cursor.text.slice(valueStart, cursor.pos);
  // A whole quoted value (`a.eq."x,y"`) loses its quotes; lists keep theirs for splitList.
  const quotedValue = /^((?:not\.)?[a-z]+(?:\([^)]*\))?\.)"((?:[^"\\]|\\.)*)"$/.exec(expression);
  if (quotedValue) expression = `${quotedValue[1]}${(quotedValue[2] ?? "").replace(/\\(.)/g, "$1")}`;
  return { type: "filter", filter: parseFilter(field, expression) };
}

export interface OrderTerm {
  /** Set when ordering by a to-one embed's column: `rel(col)`. */
  relation: string | null;
  field: Field;
  direction: "asc" | "desc" | null;
  nulls: "first" | "last" | null;
}

export function parseOrder(text: string): OrderTerm[] {
  const fail = (detail: string) => parseError(`failed to parse order (${text})`, detail);
  const cursor = new Cursor(text, fail);
  const terms: OrderTerm[] = [];
  do {
    const start = cursor.pos;
    let relation: string | null = null;
    let field: Field;
    const name = cursor.name();
    if (cursor.eat("(")) {
      relation = name;
      field = cursor.field();
      cursor.expect(")");
    } else {
      cursor.pos = start;
      field = cursor.field();
    }
    let direction: OrderTerm["direction"] = null;
    let nulls: OrderTerm["nulls"] = null;
    while (cursor.eat(".")) {
      const word = cursor.name();
      if (word === "asc" || word === "desc") direction = word;
      else if (word === "nullsfirst") nulls = "first";
      else if (word === "nullslast") nulls = "last";
      else throw fail(`unexpected ${word}`);
    }
    terms.push({ relation, field, direction, nulls });
  } while (cursor.eat(","));
  if (!cursor.done()) throw fail(`unexpected "${cursor.peek()}"`);
  return terms;
}
