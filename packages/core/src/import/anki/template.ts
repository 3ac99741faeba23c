/**
 * The importer's view of Anki templates: the template language lives in
 * ../../templates. Flattening into basic notes drops `{{type:…}}` boxes.
 */
import { renderTemplate as render, type TemplateContext } from "../../templates";

export type { TemplateContext } from "../../templates";

export function renderTemplate(template: string, ctx: TemplateContext): string {
  return render(template, { typeAnswer: "drop", ...ctx });
}

/** Lenient for imports: a field of whitespace, `&nbsp;`, `<br>` or empty `<div>`s holds nothing worth a card. */
export function isFieldEmpty(value: string): boolean {
  return /^(?:\s|&nbsp;|<\/?(?:br|div)\s*\/?>)*$/i.test(value);
}
