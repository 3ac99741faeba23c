import { stripMarkup } from "@engram/core";
import type { Note } from "@engram/sdk";

/** A note's first field (front, or a cloze's text) as one line of plain text for the list. */
export function firstFieldText(note: Pick<Note, "kind" | "fields">): string {
  const fields = (note.fields ?? {}) as Record<string, unknown>;
  const html = String((note.kind === "cloze" ? fields.text : fields.front) ?? "");
  // Cloze markers read as their answer: {{c1::Madrid::capital}} → Madrid.
  const text = stripMarkup(html.replace(/\{\{c\d+::(.*?)(?:::.*?)?\}\}/g, "$1"));
  return decodeEntities(text).replace(/\s+/g, " ").trim();
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_match, name: string) => entities[name] ?? "");
}
