/**
 * Find and replace in a note's fields, as Anki's browser does it: plain text
 * or a JavaScript regular expression (with `$1` groups in the replacement),
 * in every field or one by name. Fields are stored HTML; only the text
 * between markup is searched, so a tag, a comment or a character reference
 * (`&amp;`) is never matched, split or rewritten.
 */

export interface FindReplaceOptions {
  /** What to find: plain text, or a pattern when `regex` is set. */
  find: string;
  /** What to put instead; with `regex`, `$1`, `$<name>` and `$&` name what was found. */
  replace: string;
  /** Treat `find` as a regular expression. */
  regex?: boolean;
  /** Tell upper from lower case. */
  matchCase?: boolean;
  /** Only this field (by its name in the note's fields); every field when absent or null. */
  field?: string | null;
}

export type FindReplaceProblem = "empty-find" | "invalid-regex";

/** What was asked cannot be searched for: nothing to find, or a pattern that does not parse. */
export class FindReplaceError extends Error {
  readonly problem: FindReplaceProblem;
  constructor(problem: FindReplaceProblem, message: string) {
    super(message);
    this.name = "FindReplaceError";
    this.problem = problem;
  }
}

export interface FindReplaceResult {
  /** The fields after the replacement (every field, changed or not). */
  fields: Record<string, string>;
  /** The names of the fields that changed, in the fields' order. */
  changed: string[];
}

// Markup kept out of the search: comments, tags (quoted attribute values may
// hold ">"), and character references.
const markup =
  /<!--[\s\S]*?(?:-->|$)|<[a-zA-Z/!?](?:[^>"']|"[^"]*"|'[^']*')*>?|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);/g;

/** The pattern `options` search for, global; a pattern that does not parse throws `FindReplaceError`. */
export function findPattern(options: Pick<FindReplaceOptions, "find" | "regex" | "matchCase">): RegExp {
  if (options.find === "") throw new FindReplaceError("empty-find", "Type what to find.");
  const source = options.regex ? options.find : escapeRegExp(options.find);
  const flags = options.matchCase ? "g" : "gi";
  try {
    return new RegExp(source, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new FindReplaceError("invalid-regex", `This is not a valid regular expression: ${reason}`);
  }
}

/** The fields with every match replaced, in the text outside markup; `changed` names the fields that differ. */
export function findReplace(fields: Readonly<Record<string, string>>, options: FindReplaceOptions): FindReplaceResult {
  const pattern = findPattern(options);
  // Plain text replaces literally: a "$" in it is a dollar sign.
  const replacement = options.regex ? options.replace : () => options.replace;
  const result: Record<string, string> = {};
  const changed: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const wanted = options.field == null || options.field === name;
    const next = wanted ? replaceInText(value, pattern, replacement) : value;
    result[name] = next;
    if (next !== value) changed.push(name);
  }
  return { fields: result, changed };
}

function replaceInText(html: string, pattern: RegExp, replacement: string | (() => string)): string {
  let out = "";
  let at = 0;
  for (const match of html.matchAll(markup)) {
    out += replaceRun(html.slice(at, match.index), pattern, replacement) + match[0];
    at = match.index + match[0].length;
  }
  return out + replaceRun(html.slice(at), pattern, replacement);
}

function replaceRun(text: string, pattern: RegExp, replacement: string | (() => string)): string {
  if (text === "") return text;
  pattern.lastIndex = 0;
  return typeof replacement === "string" ? text.replace(pattern, replacement) : text.replace(pattern, replacement);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
