/**
 * Math in card HTML, found with Anki's delimiters (docs/product.md §5, "How cards
 * look"): MathJax's `\(…\)` inline and `\[…\]` display, and Anki's LaTeX tags
 * `[$]…[/$]` inline, `[$$]…[/$$]` display and `[latex]…[/latex]` (a LaTeX
 * fragment, shown as display). Delimiters count only in text, never inside a
 * tag; math may run across tags such as `<br>`. The TeX handed on is plain
 * text: tags removed (`<br>` as a line break) and HTML entities decoded, so
 * `a &lt; b` is typeset as `a < b`.
 */

export type MathKind = "inline" | "display" | "latex";

export type MathSpan = {
  /** Offsets in the HTML of the whole span, delimiters included: [start, end). */
  start: number;
  end: number;
  /** The TeX between the delimiters, as text. */
  tex: string;
  /** inline and display from `\(` `\[` `[$]` `[$$]`; latex from `[latex]`, a fragment of a LaTeX document. */
  kind: MathKind;
};

type Delimiter = { open: string; close: string; kind: MathKind; escapes: boolean };

/** Longest first, so `[$$]` is not read as `[$]` followed by `$]`. */
const delimiters: Delimiter[] = [
  { open: "\\(", close: "\\)", kind: "inline", escapes: true },
  { open: "\\[", close: "\\]", kind: "display", escapes: true },
  { open: "[$$]", close: "[/$$]", kind: "display", escapes: false },
  { open: "[$]", close: "[/$]", kind: "inline", escapes: false },
  { open: "[latex]", close: "[/latex]", kind: "latex", escapes: false },
];

/** Cheap pre-check: no delimiter opener anywhere means no math. */
const anyOpener = /\\[([]|\[\$|\[latex\]/i;

export function hasMath(html: string): boolean {
  return anyOpener.test(html) && findMath(html).length > 0;
}

/** Every math span of the HTML, in order, not overlapping. */
export function findMath(html: string): MathSpan[] {
  if (!anyOpener.test(html)) return [];
  const spans: MathSpan[] = [];
  let at = 0;
  while (at < html.length) {
    const char = html[at];
    if (char === "<") {
      at = afterTag(html, at);
      continue;
    }
    if (char === "\\" && html[at + 1] === "\\") {
      // An escaped backslash: `\\(` is a backslash and a parenthesis, not math.
      at += 2;
      continue;
    }
    const delimiter = delimiters.find((candidate) => startsWithAt(html, at, candidate.open));
    if (!delimiter) {
      at += 1;
      continue;
    }
    const contentStart = at + delimiter.open.length;
    const close = findClose(html, contentStart, delimiter);
    if (close === -1) {
      at = contentStart;
      continue;
    }
    const end = close + delimiter.close.length;
    spans.push({ start: at, end, tex: htmlToText(html.slice(contentStart, close)), kind: delimiter.kind });
    at = end;
  }
  return spans;
}

/** The HTML with each math span replaced by what `render` makes of it. */
export function replaceMath(html: string, render: (span: MathSpan) => string): string {
  const spans = findMath(html);
  if (spans.length === 0) return html;
  let result = "";
  let at = 0;
  for (const span of spans) {
    result += html.slice(at, span.start) + render(span);
    at = span.end;
  }
  return result + html.slice(at);
}

function startsWithAt(html: string, at: number, text: string): boolean {
  // Anki reads its LaTeX tags case-insensitively; `\(` has no case.
  return html.slice(at, at + text.length).toLowerCase() === text;
}

/** Where the closing delimiter starts, looking only at text; -1 if it never comes. */
function findClose(html: string, from: number, delimiter: Delimiter): number {
  let at = from;
  while (at < html.length) {
    if (html[at] === "<") {
      at = afterTag(html, at);
      continue;
    }
    if (startsWithAt(html, at, delimiter.close)) return at;
    // Inside MathJax math a backslash starts a control sequence (`\\`, `\{`), never the end.
    at += delimiter.escapes && html[at] === "\\" ? 2 : 1;
  }
  return -1;
}

/** The offset after a tag or comment that starts at `at` (quoted attribute values may hold `>`). */
function afterTag(html: string, at: number): number {
  if (html.startsWith("<!--", at)) {
    const end = html.indexOf("-->", at + 4);
    return end === -1 ? html.length : end + 3;
  }
  // A `<` not starting a tag (`a < b` written raw) is text.
  if (!/[a-zA-Z/!?]/.test(html[at + 1] ?? "")) return at + 1;
  let quote: string | null = null;
  for (let index = at + 1; index < html.length; index += 1) {
    const char = html[index];
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === ">") {
      return index + 1;
    }
  }
  return html.length;
}

const namedEntities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** Text of an HTML fragment: line breaks for `<br>`, other tags dropped, entities decoded. */
export function htmlToText(html: string): string {
  const withoutTags = html.replace(/<br\s*\/?>/gi, "\n").replace(/<!--[\s\S]*?-->|<[^>]*>/g, "");
  return withoutTags.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}
