/// <reference lib="dom" />
/**
 * For tests: HTML compared by meaning, not spelling. sanitize-html writes
 * `<img />` and keeps its own attribute order; the browser writes `<img>` in
 * DOM order. Both are parsed and written back with attributes sorted.
 */
import { JSDOM } from "jsdom";

const { window } = new JSDOM("");

function sortAttributes(element: Element): void {
  const attributes = [...element.attributes]
    .map((attribute) => [attribute.name, attribute.value] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [name] of attributes) element.removeAttribute(name);
  for (const [name, value] of attributes) element.setAttribute(name, value);
  for (const child of element.children) sortAttributes(child);
}

/** The HTML as a browser reads it, written back with every element's attributes in name order. */
export function canonicalHtml(html: string): string {
  const template = window.document.createElement("template");
  template.innerHTML = html;
  for (const child of template.content.children) sortAttributes(child);
  return template.innerHTML;
}

/** An SVG document as an XML parser reads it, written back with attributes in name order. */
export function canonicalSvg(svg: string): string {
  if (svg === "") return "";
  const document = new window.DOMParser().parseFromString(svg, "image/svg+xml");
  const root = document.documentElement;
  if (root.getElementsByTagName("parsererror").length > 0) throw new Error(`not well-formed XML: ${svg}`);
  sortAttributes(root);
  return new window.XMLSerializer().serializeToString(root);
}
