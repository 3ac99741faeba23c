/** What an Anki note type brings to Engram: its definition, and the markup its cards never show. */
import { cardTags } from "../../sanitize-rules";
import type { RawNoteType } from "./collection";
import { keepsNoteType } from "./mapping";
import type { AnkiNoteTypeSummary } from "./types";

/** Elements the card sanitiser keeps besides `cardTags`: the type-answer marker. */
const shownTags = new Set<string>([...cardTags, "engram-type-answer"]);

/**
 * The tag names in these templates that card HTML never keeps (`script`, `iframe`,
 * `style`, `input`…), sorted; `on…` handler attributes are reported as `on… attributes`.
 */
export function droppedMarkup(templates: readonly string[]): string[] {
  const dropped = new Set<string>();
  for (const template of templates) {
    // Field references hold no markup; blank them so `{{#F}}` is not read as a tag.
    const html = template.replace(/\{\{[\s\S]*?\}\}/g, "");
    for (const match of html.matchAll(/<\s*([a-zA-Z][\w-]*)([^>]*)>/g)) {
      const tag = (match[1] ?? "").toLowerCase();
      if (!shownTags.has(tag)) dropped.add(`<${tag}>`);
      if (/\son[a-z]+\s*=/i.test(match[2] ?? "")) dropped.add("on… attributes");
    }
  }
  return [...dropped].sort();
}

export function noteTypeSummary(type: RawNoteType, noteCount: number): AnkiNoteTypeSummary {
  const kept = keepsNoteType(type);
  return {
    ankiNoteTypeId: type.id,
    name: type.name,
    kind: type.kind,
    fields: type.fields,
    templates: type.templates.map((t) => t.name),
    cardTemplates: type.templates.map((t) => ({ name: t.name, front: t.qfmt, back: t.afmt })),
    css: type.css,
    originalStockKind: type.originalStockKind,
    noteCount,
    kept,
    droppedMarkup: kept ? droppedMarkup(type.templates.flatMap((t) => [t.qfmt, t.afmt])) : [],
  };
}
