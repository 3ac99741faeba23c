/**
 * Whether the rich editor can hold a field's HTML without changing what it
 * means. The editor parses HTML into its schema and writes it back out; markup
 * it has no node or mark for (a table, a `<font>`, a nested styled span) is
 * dropped on the way. So a field is compared with its own round trip, both
 * reduced to what a card shows: the elements, the attributes the card
 * sanitiser keeps (and `style`), and the text, with the differences that show
 * the same ignored (`<b>` or `<strong>`, the nesting order of inline
 * formatting, `<div>` or `<p>` around a line, collapsible whitespace).
 */

import type { Schema } from "@tiptap/pm/model";
import { createDocument, getHTMLFromFragment } from "@tiptap/react";

/** Inline formatting: order of nesting does not matter, only which apply to each run of text. */
const formattingTags: Record<string, string> = {
  b: "strong",
  strong: "strong",
  i: "em",
  em: "em",
  u: "u",
  s: "s",
  strike: "s",
  sub: "sub",
  sup: "sup",
  code: "code",
  a: "a",
  span: "span",
};

/** Elements that start a block of their own (HTML's block-level elements). */
const blockTags = new Set([
  "address",
  "article",
  "aside",
  "audio",
  "blockquote",
  "caption",
  "center",
  "col",
  "colgroup",
  "dd",
  "details",
  "dialog",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "video",
]);

/** Leaves shown inline. */
const inlineLeaves = new Set(["br", "img", "wbr", "input"]);

/**
 * The attributes that change what a card shows: those the card sanitiser keeps
 * (packages/core/src/sanitize-rules.ts), and `style`. A link's `target` and
 * `rel` are left out: the sanitiser sets them on every link.
 */
const keptAttributes: Record<string, string[]> = {
  "*": ["class", "style"],
  a: ["href", "title"],
  img: ["src", "alt", "title", "width", "height"],
  audio: ["src", "loop"],
  source: ["src", "type"],
  ol: ["start", "type"],
  col: ["span"],
  colgroup: ["span"],
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
  hr: ["id"],
};

/** Values that read the same written differently: declarations' spacing, class order, a list's default start. */
function attributeValue(tag: string, name: string, value: string): string | null {
  if (name === "style") {
    const declarations = value
      .split(";")
      .map((declaration) => declaration.trim())
      .filter(Boolean)
      .map((declaration) => {
        const colon = declaration.indexOf(":");
        if (colon === -1) return declaration;
        return `${declaration.slice(0, colon).trim().toLowerCase()}: ${declaration
          .slice(colon + 1)
          .trim()
          .replace(/\s+/g, " ")}`;
      });
    return declarations.length > 0 ? declarations.join("; ") : null;
  }
  if (name === "class") {
    const names = value.split(/\s+/).filter(Boolean).sort();
    return names.length > 0 ? names.join(" ") : null;
  }
  if (tag === "ol" && name === "start" && value.trim() === "1") return null;
  return value;
}

/** `tag[name=value,…]` with the kept attributes in a fixed order. */
function signature(element: Element, tag: string): string {
  const names = [...(keptAttributes["*"] ?? []), ...(keptAttributes[tag] ?? [])];
  const parts: string[] = [];
  for (const name of names.sort()) {
    const raw = element.getAttribute(name);
    const value = raw === null ? null : attributeValue(tag, name, raw);
    if (value !== null) parts.push(`${name}=${JSON.stringify(value)}`);
  }
  return parts.length > 0 ? `${tag}[${parts.join(",")}]` : tag;
}

type Piece =
  | { kind: "text"; marks: string; text: string }
  | { kind: "leaf"; marks: string; name: string }
  | { kind: "open"; marks: string; name: string }
  | { kind: "close"; name: string };

type Block = string | { element: string; children: Block[] };

const isElement = (node: Node): node is Element => node.nodeType === 1;
const isText = (node: Node): node is Text => node.nodeType === 3;
const tagOf = (element: Element) => element.localName.toLowerCase();
/** A `<p>` or `<div>` with nothing that matters on it: a line, whichever element holds it. */
const isPlainBlock = (element: Element) => {
  const tag = tagOf(element);
  return (tag === "p" || tag === "div") && signature(element, tag) === tag;
};

function collectInline(node: Node, marks: readonly string[], pieces: Piece[]): void {
  const key = [...marks].sort().join("+");
  if (isText(node)) {
    pieces.push({ kind: "text", marks: key, text: node.data });
    return;
  }
  if (!isElement(node)) return; // comments and processing instructions show nothing
  const tag = tagOf(node);
  const mark = formattingTags[tag];
  if (mark !== undefined) {
    const name = signature(node, mark);
    // A bare span changes nothing.
    const inner = name === "span" ? marks : [...marks, name];
    for (const child of node.childNodes) collectInline(child, inner, pieces);
    return;
  }
  const name = signature(node, tag);
  if (inlineLeaves.has(tag)) {
    pieces.push({ kind: "leaf", marks: key, name });
    return;
  }
  pieces.push({ kind: "open", marks: key, name });
  for (const child of node.childNodes) collectInline(child, marks, pieces);
  pieces.push({ kind: "close", name });
}

/**
 * One line's inline content as a string: neighbouring text with the same
 * formatting joined, whitespace collapsed as the browser does, a trailing
 * `<br>` (which shows nothing) dropped unless it is the whole line.
 */
function inlineKey(pieces: Piece[]): string {
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const last = merged[merged.length - 1];
    if (piece.kind === "text" && last?.kind === "text" && last.marks === piece.marks) {
      last.text += piece.text;
    } else {
      merged.push({ ...piece });
    }
  }
  let atLineStart = true;
  for (const piece of merged) {
    if (piece.kind === "text") {
      piece.text = piece.text.replace(/[ \t\n\r\f]+/g, " ");
      if (atLineStart) piece.text = piece.text.replace(/^ /, "");
      if (piece.text !== "") atLineStart = piece.text.endsWith(" ");
    } else if (piece.kind === "leaf") {
      atLineStart = piece.name === "br";
    }
  }
  // Spaces before a line break or at the end show nothing.
  for (let at = merged.length - 1, atLineEnd = true; at >= 0; at -= 1) {
    const piece = merged[at];
    if (piece?.kind === "text") {
      if (atLineEnd) piece.text = piece.text.replace(/ $/, "");
      if (piece.text !== "") atLineEnd = false;
    } else if (piece?.kind === "leaf") {
      atLineEnd = piece.name === "br";
    }
  }
  const shown = merged.filter((piece) => piece.kind !== "text" || piece.text !== "");
  const last = shown[shown.length - 1];
  if (shown.length > 1 && last?.kind === "leaf" && last.name === "br") shown.pop();
  const written = (piece: Piece): string => {
    if (piece.kind === "text") return `${piece.marks}:${JSON.stringify(piece.text)}`;
    if (piece.kind === "leaf") return `${piece.marks}:<${piece.name}>`;
    if (piece.kind === "open") return `${piece.marks}:<${piece.name}>{`;
    return "}";
  };
  return shown.map(written).join(" ");
}

/** The blocks of a container: lines of inline content, and block elements with their own blocks. */
function blocksOf(nodes: Iterable<Node>, out: Block[]): Block[] {
  let line: Piece[] = [];
  const endLine = () => {
    const key = inlineKey(line);
    if (key !== "") out.push(key);
    line = [];
  };
  for (const node of nodes) {
    if (isElement(node) && blockTags.has(tagOf(node))) {
      endLine();
      if (isPlainBlock(node)) {
        blocksOf(node.childNodes, out);
      } else {
        out.push({ element: signature(node, tagOf(node)), children: blocksOf(node.childNodes, []) });
      }
    } else {
      collectInline(node, [], line);
    }
  }
  endLine();
  return out;
}

/** What a card shows of `html`, as a string two fields can be compared by. */
export function markupMeaning(html: string, document: Document = globalThis.document): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  return JSON.stringify(blocksOf(template.content.childNodes, []));
}

/** Whether `after` shows what `before` shows. */
export function sameMeaning(before: string, after: string, document: Document = globalThis.document): boolean {
  return markupMeaning(before, document) === markupMeaning(after, document);
}

/** `html` parsed into the rich editor's schema and written back, as the editor would keep it. */
export function richRoundTrip(html: string, schema: Schema): string {
  return getHTMLFromFragment(createDocument(html, schema).content, schema);
}

/** Whether the rich editor, with `schema`, keeps everything `html` shows. */
export function survivesRichEditor(html: string, schema: Schema): boolean {
  return sameMeaning(html, richRoundTrip(html, schema));
}
