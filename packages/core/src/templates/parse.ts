/**
 * Anki's card template language, parsed as Anki's rslib/src/template.rs does:
 * `{{…}}` up to the first `}}` is a tag, `<!-- … -->` is a comment whose tags
 * do nothing, `{{#F}}`/`{{^F}}` open a section closed by the matching `{{/F}}`,
 * and `{{a:b:F}}` is field F through filters b then a. `{{!…}}` is a comment.
 * The database walks templates with the same rules (`private.template_renders`
 * in supabase/schemas/00_helpers.sql); change both together.
 */

export type TemplateNode =
  | { type: "text"; text: string }
  | { type: "comment"; text: string }
  /** `filters` in the order they apply: the one next to the field name first. */
  | { type: "replacement"; key: string; filters: string[] }
  | { type: "section"; key: string; negated: boolean; children: TemplateNode[] };

export type TemplateError =
  | { code: "section-not-closed"; key: string }
  | { code: "section-not-open"; key: string; open: string | null };

export type ParsedTemplate = {
  nodes: TemplateNode[];
  /** The first syntax error; the nodes are then the best reading of the rest (stray closes ignored, sections closed at the end). */
  error: TemplateError | null;
};

type Token =
  | { type: "text"; text: string }
  | { type: "comment"; text: string }
  | { type: "replacement"; text: string }
  | { type: "open"; key: string; negated: boolean }
  | { type: "close"; key: string };

/** White space as Rust's `str::trim` sees it (Unicode White_Space), which `\s` is not quite. */
export const ankiSpace = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const trimPattern = new RegExp(`^${ankiSpace}+|${ankiSpace}+$`, "g");
const trimStartPattern = new RegExp(`^${ankiSpace}+`);

export function trimAnki(text: string): string {
  return text.replace(trimPattern, "");
}

function classify(inner: string): Token {
  const start = trimAnki(inner.replace(/^\{+/, ""));
  if ([...start].length < 2) return { type: "replacement", text: start };
  const sigil = start[0];
  const rest = start.slice(1).replace(trimStartPattern, "");
  if (sigil === "#" || sigil === "^") return { type: "open", key: rest, negated: sigil === "^" };
  if (sigil === "/") return { type: "close", key: rest };
  if (sigil === "!") return { type: "comment", text: start };
  return { type: "replacement", text: start };
}

export function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < template.length) {
    const tag = nextDelimited(template, at, "{{", "}}");
    const comment = nextDelimited(template, at, "<!--", "-->");
    const next = tag && (!comment || tag.start <= comment.start) ? tag : comment;
    if (!next) break;
    if (next.start > at) tokens.push({ type: "text", text: template.slice(at, next.start) });
    tokens.push(next === tag ? classify(next.inner) : { type: "comment", text: next.inner });
    at = next.end;
  }
  if (at < template.length) tokens.push({ type: "text", text: template.slice(at) });
  return tokens;
}

/**
 * The first `open … close` at or after `from`. An opening with no close after it
 * is text, and then so is every later opening, since none has a close either.
 */
function nextDelimited(
  text: string,
  from: number,
  open: string,
  close: string,
): { start: number; end: number; inner: string } | null {
  const start = text.indexOf(open, from);
  if (start < 0) return null;
  const closeAt = text.indexOf(close, start + open.length);
  if (closeAt < 0) return null;
  return { start, end: closeAt + close.length, inner: text.slice(start + open.length, closeAt) };
}

export function parseTemplate(template: string): ParsedTemplate {
  const root: TemplateNode[] = [];
  const stack: { key: string; children: TemplateNode[] }[] = [{ key: "", children: root }];
  let error: TemplateError | null = null;
  const top = () => stack[stack.length - 1] as { key: string; children: TemplateNode[] };
  for (const token of tokenize(template)) {
    switch (token.type) {
      case "text":
      case "comment":
        top().children.push(token);
        break;
      case "replacement": {
        const parts = token.text.split(":");
        const key = parts.pop() ?? "";
        top().children.push({ type: "replacement", key, filters: parts.reverse() });
        break;
      }
      case "open": {
        const children: TemplateNode[] = [];
        top().children.push({ type: "section", key: token.key, negated: token.negated, children });
        stack.push({ key: token.key, children });
        break;
      }
      case "close": {
        if (stack.length > 1 && top().key === token.key) {
          stack.pop();
          break;
        }
        error ??= { code: "section-not-open", key: token.key, open: stack.length > 1 ? top().key : null };
        // Reading on: close the section it names if one is open, else ignore it.
        const index = stack.findLastIndex((entry, i) => i > 0 && entry.key === token.key);
        if (index > 0) stack.length = index;
      }
    }
  }
  if (stack.length > 1) error ??= { code: "section-not-closed", key: top().key };
  return { nodes: root, error };
}
