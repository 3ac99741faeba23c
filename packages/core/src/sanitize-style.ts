/**
 * Inline `style` attributes in card HTML (docs/product.md §5, "How cards look"):
 * Anki's editor writes colours, fonts and table sizes this way, so they are
 * kept, reduced to an allow-list of properties with values that load nothing
 * and cannot place anything outside the card. Both sanitisers call this same
 * function, so they keep exactly the same text.
 */
import type { CssNode, Declaration } from "css-tree";
import generate from "css-tree/generator";
import parse from "css-tree/parser";
import { isSafeDeclaration } from "./card-css";

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

/** Colours and sizes may be computed; nothing else is a function. */
const allowedFunctions = new Set(["rgb", "rgba", "hsl", "hsla", "calc"]);

function onlyAllowedFunctions(value: CssNode): boolean {
  let ok = true;
  const visit = (node: CssNode) => {
    if (node.type === "Function" && !allowedFunctions.has(node.name.toLowerCase())) ok = false;
    if ("children" in node && node.children) node.children.forEach(visit);
  };
  visit(value);
  return ok;
}

/** The style attribute of a `tag` with only the allowed declarations, or "" when none is left. */
export function sanitizeStyleAttribute(tag: string, style: string): string {
  if (style.trim() === "") return "";
  let list: CssNode;
  try {
    list = parse(style, { context: "declarationList", parseValue: true, onParseError: () => {} });
  } catch {
    return "";
  }
  if (list.type !== "DeclarationList") return "";
  const kept: string[] = [];
  list.children.forEach((node) => {
    if (node.type !== "Declaration") return;
    const declaration: Declaration = node;
    const property = declaration.property.toLowerCase();
    if (!allowedProperty(tag.toLowerCase(), property)) return;
    if (declaration.value.type !== "Value" || !onlyAllowedFunctions(declaration.value)) return;
    if (!isSafeDeclaration(declaration, "none")) return;
    const value = generate(declaration.value);
    if (value === "") return;
    kept.push(`${property}: ${value}${declaration.important ? " !important" : ""}`);
  });
  return kept.join("; ");
}
