/**
 * A note type's CSS made safe to show (docs/product.md §5, "How cards look").
 * Read with css-tree, never with patterns: what cannot load from elsewhere,
 * run code or leave the card stays; anything else is dropped declaration by
 * declaration or rule by rule. The viewer scopes what remains to the card
 * (a shadow root), so selectors need no rewriting here.
 */
/// <reference path="./css-tree-parts.d.ts" />
import type { CssNode, Declaration, List, ListItem } from "css-tree";
import generate from "css-tree/generator";
import parse from "css-tree/parser";
import walk from "css-tree/walker";
import { safeMediaSrc } from "./sanitize-rules";

/** At-rules kept (with their contents checked); `@import`, `@namespace` and the unknown are dropped. */
const keptAtRules = new Set([
  "media",
  "supports",
  "keyframes",
  "-webkit-keyframes",
  "font-face",
  "layer",
  "container",
  "font-feature-values",
]);

/** Properties that ran code in old browsers. */
const droppedProperties = new Set(["behavior", "-moz-binding"]);

/** Functions that ran code (`expression`) or take a plain string as a link (`image-set("https://…")`). */
const droppedFunctions = new Set([
  "expression",
  "image-set",
  "-webkit-image-set",
  "image",
  "cross-fade",
  "-webkit-cross-fade",
  "src",
  "element",
  "-moz-element",
]);

/** What an unparsed value must not hold, whatever it means: links, code, escapes that could spell either. */
const unsafeRaw = /url\s*\(|expression|image-set|javascript:|\\|@import/i;

/** Pictures embedded in the CSS load nothing from elsewhere. */
const dataImage = /^data:image\/(png|jpe?g|gif|webp|avif|svg\+xml)[;,]/i;

type UrlRule = "media" | "none";

/**
 * Whether a declaration may stay. `urls: "media"` allows `url()` naming an
 * embedded picture or a file of the deck's media (a relative name);
 * `"none"` allows no `url()` at all.
 */
function isSafeDeclaration(declaration: Declaration, urls: UrlRule): boolean {
  const property = declaration.property.toLowerCase();
  if (droppedProperties.has(property) || property.includes("\\")) return false;
  const text = generate(declaration.value);
  if (/javascript:/i.test(text)) return false;
  if (property === "position" && /fixed/i.test(text)) return false;
  let safe = true;
  walk(declaration.value, (node) => {
    if (node.type === "Url") {
      if (urls === "none" || !isSafeUrl(node.value)) safe = false;
    } else if (node.type === "Function") {
      const name = node.name.toLowerCase();
      if (droppedFunctions.has(name) || name.includes("\\")) safe = false;
    } else if (node.type === "Raw") {
      if (unsafeRaw.test(node.value)) safe = false;
    }
  });
  return safe;
}

function isSafeUrl(url: string): boolean {
  const value = url.trim();
  return dataImage.test(value) || safeMediaSrc(value) !== null;
}

/** The note type's CSS with everything unsafe removed; the empty string when nothing is left. */
export function sanitizeCardCss(css: string): string {
  const sheet = parse(css, { parseValue: true, parseCustomProperty: false, onParseError: () => {} });
  walk(sheet, {
    enter(node: CssNode, item: ListItem<CssNode>, list: List<CssNode>) {
      if (!list) return;
      if (node.type === "Atrule" && !keptAtRules.has(node.name.toLowerCase())) {
        list.remove(item);
        return walk.skip;
      }
      if (node.type === "Declaration" && !isSafeDeclaration(node, "media")) {
        list.remove(item);
        return walk.skip;
      }
      // A rule or at-rule prelude the parser could not read is dropped with what it holds.
      if (node.type === "Raw" && list !== undefined && unsafeRaw.test(node.value)) {
        list.remove(item);
        return walk.skip;
      }
    },
  });
  return closeNoElement(generate(sheet));
}

/**
 * CSS has no use for `<` outside strings, and in strings `\3c ` means the same.
 * Escaping it means no `</style>` can end a style element the CSS is put in.
 */
function closeNoElement(css: string): string {
  return css.replaceAll("<", "\\3c ");
}
