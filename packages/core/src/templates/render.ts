/**
 * Renders a parsed template over a note's fields, as Anki's render_card does,
 * with Anki's built-in filters: text, hint, cloze, cloze-only, type (and
 * type:cloze, type:nc), furigana, kana, kanji and tts. Other filters (add-ons')
 * leave the value as it is. The result is not sanitised: callers sanitise the
 * finished face.
 */
import { typeAnswerMarker } from "../type-answer";
import { renderClozeField } from "./cloze-filter";
import { fieldIsEmpty } from "./fields";
import { clozeOnlyFilter, furiganaFilter, hintFilter, kanaFilter, kanjiFilter } from "./filters";
import { parseTemplate, type TemplateNode } from "./parse";

export type SpecialFieldValues = {
  Tags?: string;
  Deck?: string;
  Subdeck?: string;
  Card?: string;
  Type?: string;
  CardFlag?: string;
  CardID?: string;
};

export type TemplateContext = {
  fields: Readonly<Record<string, string>>;
  /** Anki's card ordinal (0-based): the cloze filter hides deletion ord+1 on the front. */
  ord: number;
  side: "front" | "back";
  /** What `{{FrontSide}}` stands for. */
  frontSide?: string;
  special?: SpecialFieldValues;
  /**
   * `{{type:F}}` becomes the marker `<engram-type-answer data-field="F">` (with
   * `data-reveal` on the back) for the study screen to fill, or nothing with "drop".
   */
  typeAnswer?: "marker" | "drop";
};

export function renderTemplate(template: string, ctx: TemplateContext): string {
  return renderNodes(parseTemplate(template).nodes, ctx);
}

export function renderNodes(nodes: readonly TemplateNode[], ctx: TemplateContext): string {
  let out = "";
  for (const node of nodes) {
    switch (node.type) {
      case "text":
        out += node.text;
        break;
      case "comment":
        break;
      case "section":
        if (fieldIsEmpty(lookup(node.key, ctx)) === node.negated) out += renderNodes(node.children, ctx);
        break;
      case "replacement":
        out += renderReplacement(node.key, node.filters, ctx);
    }
  }
  return out;
}

function lookup(name: string, ctx: TemplateContext): string {
  if (name === "FrontSide") return ctx.frontSide ?? "";
  if (Object.hasOwn(ctx.fields, name)) return ctx.fields[name] ?? "";
  return ctx.special?.[name as keyof SpecialFieldValues] ?? "";
}

function renderReplacement(key: string, filters: readonly string[], ctx: TemplateContext): string {
  if (key === "FrontSide") return ctx.frontSide ?? "";
  // A filter with no field name adds its own text in Anki's add-ons; there is none here.
  if (key === "" && filters.length > 0) return "";
  // As Anki: `type` outermost takes over the whole chain; `type:cloze:F` asks
  // for the cloze answer, `type:nc:F` compares without combining marks.
  if (filters[filters.length - 1] === "type") {
    if (ctx.typeAnswer === "drop") return "";
    const inner = filters.length === 2 ? filters[0] : undefined;
    return typeAnswerMarker(inner === "cloze" ? `cloze:${key}` : key, {
      reveal: ctx.side === "back",
      combining: inner !== "nc",
    });
  }
  let value = lookup(key, ctx);
  for (const filter of filters) value = applyFilter(filter, value, key, ctx);
  return value;
}

function applyFilter(filter: string, value: string, name: string, ctx: TemplateContext): string {
  switch (filter) {
    case "text":
      return stripTags(value);
    case "hint":
      return hintFilter(value, name);
    case "cloze":
      return renderClozeField(value, ctx.ord + 1, ctx.side);
    case "cloze-only":
      return clozeOnlyFilter(value, ctx.ord + 1, ctx.side);
    case "furigana":
      return furiganaFilter(value);
    case "kana":
      return kanaFilter(value);
    case "kanji":
      return kanjiFilter(value);
    default:
      // Anki turns `tts <lang>:` into a speech tag its player reads aloud and
      // shows as a play button, never as text; there is no speech here.
      return filter.startsWith("tts ") ? "" : value;
  }
}

/** Tags removed; a loop, as `<[^>]*>` backtracks quadratically on runs of `<` without `>`. */
export function stripTags(html: string): string {
  let text = "";
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf("<", at);
    if (open === -1) break;
    const close = html.indexOf(">", open + 1);
    if (close === -1) break;
    text += html.slice(at, open);
    at = close + 1;
  }
  return text + html.slice(at);
}
