/**
 * Anki's search syntax (rslib/src/search/parser.rs, and the manual's
 * "Searching" page), parsed into a `SearchNode` the database evaluates.
 *
 * - Terms side by side must all match; `or` between terms, `and` optional;
 *   `and` binds tighter than `or`; `( … )` groups; `-` negates a term or group.
 * - Text matches anywhere in a note, ignoring case; `*` is any run of
 *   characters, `_` one character; `"a phrase"` keeps its spaces.
 * - `key:value` searches one thing (`front:dog`, `tag:`, `deck:`, `is:`, `prop:`,
 *   …); `key:"value with spaces"` quotes only the value.
 * - `\` escapes `"`, `:`, `(`, `)`, `-`, `*`, `_` and itself.
 */
import {
  type Comparison,
  comparisons,
  type SearchErrorKind,
  type SearchNode,
  type SearchProperty,
  type SearchState,
  SearchSyntaxError,
  searchProperties,
} from "./search-node";

/** The parsed search, or null for an empty one (everything). Throws `SearchSyntaxError`. */
export function parseSearch(input: string): SearchNode | null {
  const parser = new Parser(input.replace(/\s/g, " "));
  const node = parser.group(0);
  if (parser.at < parser.text.length)
    parser.fail("unopened-group", parser.at, "a ) closes a group that was never opened");
  return node;
}

/** A term's text as written (escapes kept), where it starts, and whether it was all in quotes (then and/or are words). */
interface Term {
  text: string;
  at: number;
  quoted: boolean;
}

const boolean = (term: Term) => (term.quoted ? null : term.text.toLowerCase());

class Parser {
  at = 0;
  constructor(readonly text: string) {}

  fail(kind: SearchErrorKind, at: number, message: string): never {
    throw new SearchSyntaxError(kind, at, message);
  }

  /** Terms up to a `)` or the end, as and/or/not nodes; null when there are none. */
  group(openedAt: number): SearchNode | null {
    // Alternatives of conjunctions: `a b or c` is (a and b) or c.
    const alternatives: SearchNode[][] = [[]];
    let expectTerm = true;
    for (;;) {
      this.skipSpaces();
      const char = this.text[this.at];
      if (char === undefined || char === ")") break;
      const start = this.at;
      const node = this.node();
      if (node === "and" || node === "or") {
        if (expectTerm) this.fail(`misplaced-${node}`, start, `"${node}" needs a search on each side`);
        if (node === "or") alternatives.push([]);
        expectTerm = true;
        continue;
      }
      alternatives.at(-1)?.push(node);
      expectTerm = false;
    }
    const last = alternatives.at(-1);
    if (alternatives.length > 1 && last?.length === 0)
      this.fail("misplaced-or", openedAt, '"or" needs a search on each side');
    if (expectTerm && (last?.length ?? 0) > 0)
      this.fail("misplaced-and", openedAt, '"and" needs a search on each side');
    const ors = alternatives.filter((terms) => terms.length > 0).map((terms) => combine("and", terms));
    return ors.length === 0 ? null : combine("or", ors);
  }

  private skipSpaces() {
    while (this.text[this.at] === " " || this.text[this.at] === "\u3000") this.at++;
  }

  /** One term, group or negation; or the words and/or. */
  private node(): SearchNode | "and" | "or" {
    const start = this.at;
    if (this.text[this.at] === "-") {
      this.at++;
      const next = this.text[this.at];
      if (next === undefined || next === " " || next === ")") {
        // A lone "-" is text, as Anki reads it.
        return { op: "text", like: "%-%" };
      }
      const negated = next === "(" ? this.parenthesised() : this.termNode(this.term());
      if (negated === "and" || negated === "or") return { op: "not", node: textNode(negated) };
      return { op: "not", node: negated };
    }
    if (this.text[this.at] === "(") return this.parenthesised();
    const term = this.term();
    if (term.text === "") this.fail("missing-key", start, "nothing to search for here");
    return this.termNode(term);
  }

  private parenthesised(): SearchNode {
    const openedAt = this.at;
    this.at++;
    const inner = this.group(openedAt);
    if (this.text[this.at] !== ")") this.fail("unclosed-group", openedAt, "a ( is never closed");
    this.at++;
    if (inner === null) this.fail("empty-group", openedAt, "( ) holds no search");
    return inner;
  }

  private termNode(term: Term): SearchNode | "and" | "or" {
    const word = boolean(term);
    if (word === "and" || word === "or") return word;
    return qualified(term, this);
  }

  /** A quoted term, a key with a quoted value, or a run of text up to a space, quote or bracket. */
  private term(): Term {
    const start = this.at;
    if (this.text[this.at] === '"') return { text: this.quoted(), at: start, quoted: true };
    let text = "";
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined || char === " " || char === "\u3000" || char === "(" || char === ")") break;
      if (char === '"') {
        // key:"quoted value"
        if (text.endsWith(":") && !text.endsWith("\\:")) {
          text += `"${this.quoted()}"`;
          continue;
        }
        break;
      }
      if (char === "\\") {
        const next = this.text[this.at + 1];
        if (next === undefined || next === " ") this.fail("unknown-escape", this.at, "a \\ at the end escapes nothing");
        text += char + next;
        this.at += 2;
        continue;
      }
      text += char;
      this.at++;
    }
    return { text, at: start, quoted: false };
  }

  /** The inside of "…", escapes kept; the position moves past the closing quote. */
  private quoted(): string {
    const openedAt = this.at;
    this.at++;
    let inner = "";
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) this.fail("unclosed-quote", openedAt, 'a " is never closed');
      if (char === '"') break;
      if (char === "\\") {
        const next = this.text[this.at + 1];
        if (next === undefined) this.fail("unclosed-quote", openedAt, 'a " is never closed');
        inner += char + next;
        this.at += 2;
        continue;
      }
      inner += char;
      this.at++;
    }
    this.at++;
    if (inner === "") this.fail("empty-quote", openedAt, '"" holds no search');
    return inner;
  }
}

function combine(op: "and" | "or", nodes: SearchNode[]): SearchNode {
  return nodes.length === 1 && nodes[0] ? nodes[0] : { op, nodes };
}

/** The words and/or after a `-` are text again. */
function textNode(word: string): SearchNode {
  return { op: "text", like: `%${word}%` };
}

/** A term as a search: plain text, or `key:value`. */
function qualified(term: Term, parser: Parser): SearchNode {
  const colon = unescapedColon(term.text);
  if (colon < 0) return { op: "text", like: `%${likePattern(term.text, term.at, parser)}%` };
  if (colon === 0) parser.fail("missing-key", term.at, "a search starting with : needs a name before it");
  const key = readEscapes(term.text.slice(0, colon), term.at, parser);
  let value = term.text.slice(colon + 1);
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
  const at = term.at + colon + 1;
  switch (key.toLowerCase()) {
    case "tag":
      return { op: "tag", like: likePattern(value, at, parser) };
    case "deck":
      return { op: "deck", like: likePattern(value, at, parser) };
    case "note":
      return { op: "note", like: likePattern(value, at, parser) };
    case "card": {
      if (/^\d+$/.test(value)) return { op: "card", ordinal: Math.max(1, Number(value)) };
      return { op: "card", like: likePattern(value, at, parser) };
    }
    case "flag": {
      if (!/^[0-7]$/.test(value)) parser.fail("invalid-flag", at, "flag: takes a number from 0 (no flag) to 7");
      return { op: "flag", flag: Number(value) };
    }
    case "is":
      return { op: "is", state: stateOf(value, at, parser) };
    case "prop":
      return property(value, at, parser);
    case "rated": {
      const [count = "", button] = value.split(":", 2);
      const days = Math.max(1, wholeNumber(count, at, parser, "rated:"));
      if (button === undefined) return { op: "rated", days };
      if (!/^[1-4]$/.test(button))
        parser.fail("invalid-answer-button", at, "rated:N:B takes an answer button from 1 to 4");
      return { op: "rated", days, button: Number(button) as 1 | 2 | 3 | 4 };
    }
    case "added":
    case "edited":
    case "introduced":
      return { op: key.toLowerCase() as "added", days: Math.max(1, wholeNumber(value, at, parser, `${key}:`)) };
    case "nid":
    case "cid": {
      const ids = value.split(",");
      if (!ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))) {
        parser.fail("invalid-id-list", at, `${key}: takes ids separated by commas`);
      }
      return { op: key.toLowerCase() as "nid", ids: ids.map((id) => id.toLowerCase()) };
    }
    case "re":
      return { op: "regex", regex: unescapeQuotes(value) };
    case "w":
      return { op: "word", like: likePattern(value, at, parser) };
    case "nc":
    case "sc":
    case "dupe":
    case "did":
    case "mid":
    case "has-cd":
    case "preset":
    case "resched":
      return parser.fail("unsupported", term.at, `${key}: is an Anki search Engram does not have`);
    default:
      if (value.startsWith("re:"))
        return { op: "regex", field: likePattern(key, term.at, parser), regex: unescapeQuotes(value.slice(3)) };
      if (value.startsWith("nc:")) parser.fail("unsupported", at, `${key}:nc: is an Anki search Engram does not have`);
      return { op: "field", field: likePattern(key, term.at, parser), like: likePattern(value, at, parser) };
  }
}

/** Where the first colon not escaped by a backslash is, or -1. */
function unescapedColon(text: string): number {
  for (let index = 0; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === ":") return index;
  }
  return -1;
}

/** Anki's parser escapes (`\" \: \( \) \-`) read as their characters; `\\ \* \_` kept for the pattern. */
function readEscapes(text: string, at: number, parser: Parser): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char !== "\\") {
      out += char;
      continue;
    }
    const next = text[index + 1];
    if (next === undefined || !'\\":*_()-'.includes(next)) {
      parser.fail("unknown-escape", at + index, `\\${next ?? ""} is not an escape: use \\\\ for a backslash`);
    }
    out += '":()-'.includes(next) ? next : `\\${next}`;
    index++;
  }
  return out;
}

function unescapeQuotes(text: string): string {
  return text.replaceAll('\\"', '"');
}

/**
 * A value as a LIKE pattern (escape `\`): `*` any run, `_` one character,
 * `\*` `\_` `\\` literal, `%` literal.
 */
function likePattern(value: string, at: number, parser: Parser): string {
  const text = readEscapes(value, at, parser);
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "\\") {
      const next = text[index + 1] ?? "";
      out += next === "*" ? "*" : next === "_" ? "\\_" : "\\\\";
      index++;
    } else if (char === "*") out += "%";
    else if (char === "%") out += "\\%";
    else out += char;
  }
  return out;
}

const stateAliases: Record<string, SearchState> = {
  new: "new",
  learn: "learn",
  review: "review",
  due: "due",
  suspended: "suspended",
  buried: "buried",
  "buried-manually": "buried",
  "buried-sibling": "buried",
};

function stateOf(value: string, at: number, parser: Parser): SearchState {
  const state = stateAliases[value.toLowerCase()];
  if (!state) parser.fail("invalid-state", at, "is: takes new, learn, review, due, suspended or buried");
  return state;
}

function property(clause: string, at: number, parser: Parser): SearchNode {
  const match = /^([a-z]+)(<=|>=|!=|=|<|>)(.*)$/i.exec(clause);
  const name = (match?.[1] ?? /^[a-z]*/i.exec(clause)?.[0] ?? "").toLowerCase();
  if (!(searchProperties as readonly string[]).includes(name)) {
    if (["ease", "pos", "rated", "resched"].includes(name) || name.startsWith("cd")) {
      parser.fail("unsupported", at, `prop:${name} is an Anki search Engram does not have`);
    }
    parser.fail("invalid-property", at, "prop: takes ivl, due, reps, lapses, s, d or r");
  }
  if (!match) parser.fail("invalid-operator", at, `prop:${name} needs a comparison: <, <=, >, >=, = or !=`);
  const cmp = match[2] as Comparison;
  if (!comparisons.includes(cmp)) parser.fail("invalid-operator", at, "unknown comparison");
  const raw = match[3] ?? "";
  const value =
    name === "due"
      ? wholeNumber(raw, at, parser, "prop:due", true)
      : name === "s" || name === "d" || name === "r"
        ? decimal(raw, at, parser)
        : wholeNumber(raw, at, parser, `prop:${name}`);
  return { op: "prop", prop: name as SearchProperty, cmp, value };
}

function wholeNumber(text: string, at: number, parser: Parser, context: string, signed = false): number {
  if (!(signed ? /^-?\d{1,9}$/ : /^\d{1,9}$/).test(text)) {
    parser.fail("invalid-number", at, `${context} takes a whole number${signed ? "" : " of 0 or more"}`);
  }
  return Number(text);
}

function decimal(text: string, at: number, parser: Parser): number {
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(text)) parser.fail("invalid-number", at, `${text || "nothing"} is not a number`);
  return Number(text);
}
