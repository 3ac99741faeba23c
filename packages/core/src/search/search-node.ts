/**
 * A parsed search, as Anki's search syntax describes it, in a JSON shape the
 * database walks. Text is carried as SQL LIKE patterns with `\` as the
 * escape: Anki's `*` became `%`, its `_` stays `_`, and literal `%`, `_` and
 * `\` are escaped.
 */
export type SearchNode =
  | { op: "and"; nodes: SearchNode[] }
  | { op: "or"; nodes: SearchNode[] }
  | { op: "not"; node: SearchNode }
  /** Text without a key: anywhere in any field, ignoring case (`dog`, `"a phrase"`, `d_g`, `do*g`). */
  | { op: "text"; like: string }
  /** `front:dog`: the whole field matches, ignoring case; the field's name may hold wildcards too. */
  | { op: "field"; field: string; like: string }
  /** `front:re:…` or `re:…`: a regular expression, anywhere in one field or any, ignoring case unless it says `(?-i)`. */
  | { op: "regex"; field?: string; regex: string }
  /** `w:dog`: a whole word anywhere in any field. */
  | { op: "word"; like: string }
  /** `tag:spanish`: the tag or any tag under it (`spanish::verbs`), ignoring case. */
  | { op: "tag"; like: string }
  /** `deck:Spanish`: the deck or any deck under it, by name or `::` path. */
  | { op: "deck"; like: string }
  /** `note:Basic`: the note type (Engram's kinds by their Anki names, custom types by name). */
  | { op: "note"; like: string }
  /** `card:2` (the second card of a note) or `card:Reverse` (a template's name). */
  | { op: "card"; ordinal: number }
  | { op: "card"; like: string }
  | { op: "is"; state: SearchState }
  | { op: "flag"; flag: number }
  | { op: "prop"; prop: SearchProperty; cmp: Comparison; value: number }
  /** `rated:7`, `rated:7:1`: answered in the last N study days (with that button). */
  | { op: "rated"; days: number; button?: 1 | 2 | 3 | 4 }
  /** `added:30`, `edited:7`, `introduced:1`: in the last N study days. */
  | { op: "added" | "edited" | "introduced"; days: number }
  | { op: "nid" | "cid"; ids: string[] };

export const searchStates = ["new", "learn", "review", "due", "suspended", "buried"] as const;
export type SearchState = (typeof searchStates)[number];

/**
 * `prop:` properties: `ivl` interval in days, `due` days until due (negative:
 * overdue), `reps`, `lapses`, `s` stability, `d` difficulty (0–1, as Anki
 * shows it), `r` retrievability (0–1).
 */
export const searchProperties = ["ivl", "due", "reps", "lapses", "s", "d", "r"] as const;
export type SearchProperty = (typeof searchProperties)[number];

export const comparisons = ["<=", ">=", "!=", "=", "<", ">"] as const;
export type Comparison = (typeof comparisons)[number];

/** What is wrong with a search, each as Anki names it. */
export type SearchErrorKind =
  | "misplaced-and"
  | "misplaced-or"
  | "empty-group"
  | "unopened-group"
  | "unclosed-group"
  | "empty-quote"
  | "unclosed-quote"
  | "missing-key"
  | "unknown-escape"
  | "invalid-flag"
  | "invalid-property"
  | "invalid-operator"
  | "invalid-number"
  | "invalid-state"
  | "invalid-answer-button"
  | "invalid-id-list"
  | "unsupported";

/** A search that does not parse: `kind` says why, `at` where (0-based, in characters), `message` in words. */
export class SearchSyntaxError extends Error {
  readonly kind: SearchErrorKind;
  readonly at: number;

  constructor(kind: SearchErrorKind, at: number, message: string) {
    super(message);
    this.name = "SearchSyntaxError";
    this.kind = kind;
    this.at = at;
  }
}
