import { stripMarkup } from "@engram/core";

/** One field's HTML as one line of plain text. */
export function fieldText(html: string): string {
  // Cloze markers read as their answer: {{c1::Madrid::capital}} → Madrid.
  const text = stripMarkup(html.replace(/\{\{c\d+::(.*?)(?:::.*?)?\}\}/g, "$1"));
  return decodeEntities(text).replace(/\s+/g, " ").trim();
}

/** The few entities stripMarkup leaves in text. */
const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_match, name: string) => entities[name] ?? "");
}
