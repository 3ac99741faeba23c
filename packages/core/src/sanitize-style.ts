/**
 * Inline `style` attributes in card HTML (docs/product.md §5, "How cards look"):
 * Anki's editor writes colours, fonts and table sizes this way, so they are
 * kept, reduced to an allow-list of properties with values that load nothing
 * and cannot place anything outside the card. Read with css-tree's tokenizer
 * (CSS's own tokens, so strings, comments and escapes are what a browser
 * sees); both sanitisers call this same function, so they keep the same text.
 */
/// <reference path="./css-tree-parts.d.ts" />
import { tokenize } from "css-tree/tokenizer";

/** Token types as CSS Syntax Level 3 names them, numbered as css-tree does. */
const token = {
  ident: 1,
  function: 2,
  string: 5,
  hash: 4,
  delim: 9,
  number: 10,
  percentage: 11,
  dimension: 12,
  whitespace: 13,
  colon: 16,
  semicolon: 17,
  comma: 18,
  leftParenthesis: 21,
  rightParenthesis: 22,
  comment: 25,
} as const;

/** What a kept value may be made of: words, numbers, colours, strings, commas, operators and calls. */
const valueTokens = new Set<number>([
  token.ident,
  token.function,
  token.string,
  token.hash,
  token.delim,
  token.number,
  token.percentage,
  token.dimension,
  token.whitespace,
  token.comma,
  token.leftParenthesis,
  token.rightParenthesis,
]);

const textProperties = [
  "color",
  "background-color",
  "font-weight",
  "font-style",
  "font-size",
  "font-family",
  "text-align",
  "text-decoration",
  "vertical-align",
];

const tableTags = new Set(["table", "td", "th", "col"]);
const tableProperties = ["width", "border-collapse", "padding"];

function allowedProperty(tag: string, property: string): boolean {
  if (textProperties.includes(property)) return true;
  if (!tableTags.has(tag)) return false;
  return tableProperties.includes(property) || property.startsWith("border") || property.startsWith("padding-");
}

/** Colours and sizes may be computed; nothing else is a function (no `url(`, `expression(`, `image-set(`). */
const allowedFunctions = new Set(["rgb(", "rgba(", "hsl(", "hsla(", "calc("]);

type Token = { type: number; text: string };

function tokensOf(css: string): Token[] {
  const tokens: Token[] = [];
  tokenize(css, (type, start, end) => {
    if (type !== token.comment) tokens.push({ type, text: css.slice(start, end) });
  });
  return tokens;
}

/** The declarations: runs of tokens between semicolons outside parentheses. */
function declarations(tokens: Token[]): Token[][] {
  const result: Token[][] = [[]];
  let depth = 0;
  for (const item of tokens) {
    if (item.type === token.function || item.type === token.leftParenthesis) depth += 1;
    if (item.type === token.rightParenthesis) depth -= 1;
    if (item.type === token.semicolon && depth <= 0) result.push([]);
    else result.at(-1)?.push(item);
  }
  return result;
}

function trimWhitespace(tokens: Token[]): Token[] {
  let start = 0;
  let end = tokens.length;
  while (start < end && tokens[start]?.type === token.whitespace) start += 1;
  while (end > start && tokens[end - 1]?.type === token.whitespace) end -= 1;
  return tokens.slice(start, end);
}

/** `!important` at the end of a value, split off. */
function important(value: Token[]): { value: Token[]; important: boolean } {
  const last = value.at(-1);
  const bang = trimWhitespace(value.slice(0, -1)).at(-1);
  if (last?.type === token.ident && last.text.toLowerCase() === "important" && bang?.text === "!") {
    return { value: trimWhitespace(trimWhitespace(value.slice(0, -1)).slice(0, -1)), important: true };
  }
  return { value, important: false };
}

function safeValue(value: Token[]): boolean {
  let depth = 0;
  for (const item of value) {
    if (!valueTokens.has(item.type) || item.text.includes("\\")) return false;
    if (item.type === token.function) {
      if (!allowedFunctions.has(item.text.toLowerCase())) return false;
      depth += 1;
    } else if (item.type === token.leftParenthesis) depth += 1;
    else if (item.type === token.rightParenthesis) depth -= 1;
    if (depth < 0) return false;
  }
  return depth === 0 && !/javascript:/i.test(value.map((item) => item.text).join(""));
}

/** The style attribute of a `tag` with only the allowed declarations, or "" when none is left. */
export function sanitizeStyleAttribute(tag: string, style: string): string {
  const kept: string[] = [];
  for (const declaration of declarations(tokensOf(style))) {
    const [name, ...rest] = trimWhitespace(declaration);
    if (name?.type !== token.ident) continue;
    const property = name.text.toLowerCase();
    if (!allowedProperty(tag.toLowerCase(), property)) continue;
    const afterName = trimWhitespace(rest);
    if (afterName[0]?.type !== token.colon) continue;
    const { value, important: isImportant } = important(trimWhitespace(afterName.slice(1)));
    if (value.length === 0 || !safeValue(value)) continue;
    const text = value.map((item) => (item.type === token.whitespace ? " " : item.text)).join("");
    kept.push(`${property}: ${text}${isImportant ? " !important" : ""}`);
  }
  return kept.join("; ");
}
