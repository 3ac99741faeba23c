/**
 * How much work PostgreSQL's regex compiler takes on for a pattern, roughly.
 * Bounded repetition copies its operand (`(x){40}` is forty x's), and copies
 * holding optional parts multiply the empty transitions the compiler then
 * resolves: `^((a|a?){40}){40}$` compiles for a minute. PostgreSQL cancels
 * that at the role's statement_timeout; the embedded database cannot cancel a
 * statement, so the REST layer refuses such patterns before they run there.
 *
 * Measured on PGlite: a cost of 100k compiles in about 0.2–0.5 s, 320k in
 * 1.6 s, 5M in 64 s; patterns people write (`^[a-z]{2,5}$`, an IP address,
 * `(a+)+`) cost under 1,000.
 */
import { ApiError } from "./errors.js";
import { type Condition, parseFieldText, parseFilter, parseLogic } from "./filters.js";
import { reserved } from "./read-plan.js";

export const maxRegexCost = 200_000;

/**
 * Refuses a request whose `match`/`imatch` filters (in `or=`/`and=` trees too)
 * would hold the embedded database: PostgreSQL's own "too complex" error.
 * Filters that do not parse are left to the handler, which reports them.
 */
export function checkRegexFilters(query: URLSearchParams): void {
  const patterns: string[] = [];
  const collect = (condition: Condition) => {
    if (condition.type === "logic") condition.children.forEach(collect);
    else if (condition.filter.op === "match" || condition.filter.op === "imatch") {
      patterns.push(...(condition.filter.list ?? [condition.filter.value]));
    }
  };
  for (const [key, value] of query) {
    const last = key.split(".").at(-1) ?? "";
    if (reserved.has(last) || !/i?match/.test(value)) continue;
    try {
      if (last === "or" || last === "and") collect(parseLogic(last, key.endsWith(`not.${last}`), value));
      else
        collect({
          type: "filter",
          filter: parseFilter(
            parseFieldText(last, () => new ApiError(400, "PGRST100", "not a filter")),
            value,
          ),
        });
    } catch {
      // not a filter this check understands: the handler decides
    }
  }
  if (patterns.some((pattern) => regexCost(pattern) > maxRegexCost)) {
    throw new ApiError(400, "2201B", "invalid regular expression: regular expression is too complex");
  }
}

interface Piece {
  /** States the compiled pattern holds. */
  size: number;
  /** Optional parts among them (each an empty transition to resolve). */
  optional: number;
}

const none: Piece = { size: 0, optional: 0 };
const add = (a: Piece, b: Piece): Piece => ({ size: a.size + b.size, optional: a.optional + b.optional });

/** size × (optional + 1) of the pattern; an unparsable tail is costed as literals (the database reports the syntax). */
export function regexCost(pattern: string): number {
  const parser = new Parser(pattern);
  const piece = parser.alternation();
  return piece.size * (piece.optional + 1);
}

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  alternation(): Piece {
    let total = this.sequence();
    while (this.text[this.at] === "|") {
      this.at++;
      total = add(total, this.sequence());
    }
    return total;
  }

  private sequence(): Piece {
    let total = none;
    while (this.at < this.text.length && this.text[this.at] !== "|" && this.text[this.at] !== ")") {
      total = add(total, this.quantified(this.atom()));
    }
    return total;
  }

  private atom(): Piece {
    const char = this.text[this.at++];
    if (char === "(") {
      // (?:…), (?=…), (?!…); a leading (?i) sets options and holds nothing.
      if (this.text[this.at] === "?") {
        const options = /^\?[a-z]*\)/.exec(this.text.slice(this.at));
        if (options && /^\?[bceimnpqstwx]*\)/.test(options[0])) {
          this.at += options[0].length;
          return none;
        }
        this.at += 2;
      }
      const inner = this.alternation();
      if (this.text[this.at] === ")") this.at++;
      return inner;
    }
    if (char === "[") {
      if (this.text[this.at] === "^") this.at++;
      if (this.text[this.at] === "]") this.at++;
      while (this.at < this.text.length && this.text[this.at] !== "]") {
        if (this.text[this.at] === "[" && /[:.=]/.test(this.text[this.at + 1] ?? "")) {
          const close = this.text.indexOf(`${this.text[this.at + 1]}]`, this.at + 2);
          this.at = close < 0 ? this.text.length : close + 2;
        } else {
          this.at++;
        }
      }
      this.at++;
      return { size: 1, optional: 0 };
    }
    if (char === "\\") this.at++;
    return { size: 1, optional: 0 };
  }

  private quantified(piece: Piece): Piece {
    let result = piece;
    for (;;) {
      const char = this.text[this.at];
      if (char === "*" || char === "?") {
        this.at++;
        result = { size: result.size, optional: result.optional + 1 };
      } else if (char === "+") {
        this.at++;
      } else if (char === "{") {
        const bounds = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.at));
        if (!bounds) return result;
        this.at += bounds[0].length;
        const low = Number(bounds[1]);
        const high = bounds[2] === undefined ? low : bounds[3] ? Number(bounds[3]) : low + 1;
        const copies = Math.max(high, 1);
        result = { size: result.size * copies, optional: (result.optional + (low < high ? 1 : 0)) * copies };
      } else {
        return result;
      }
      // A non-greedy marker after a quantifier.
      if (this.text[this.at] === "?" && (char === "*" || char === "+" || char === "{")) this.at++;
    }
  }
}
