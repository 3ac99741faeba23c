/**
 * Type-in-the-answer cards as Anki has them (rslib/src/typeanswer.rs).
 *
 * A card face marks where the answer box goes with
 * `<engram-type-answer data-field="Back">` (front) and where the comparison goes
 * with the same element plus `data-reveal` (back); the study screen swaps them
 * for a text box and for `compareTypedAnswer`'s HTML (type-answer-compare.ts).
 * `data-nc` (Anki's `{{type:nc:F}}`) asks for the comparison that ignores
 * combining marks.
 */
import { parseCloze } from "./cloze";
import type { Note } from "./notes";

export const typeAnswerTag = "engram-type-answer";

/**
 * The marker for the field `field`: the box on the front, the comparison
 * (`reveal`) on the back; `combining: false` compares without combining marks.
 */
export function typeAnswerMarker(field: string, options: { reveal?: boolean; combining?: boolean } = {}): string {
  const reveal = options.reveal ? " data-reveal" : "";
  const nc = options.combining === false ? " data-nc" : "";
  return `<${typeAnswerTag} data-field="${escapeHtml(field)}"${reveal}${nc}></${typeAnswerTag}>`;
}

/** Built-in kinds name their fields as Anki's stock note types do. */
const stockFieldNames: Record<string, Record<string, string>> = {
  basic: { Front: "front", Back: "back" },
  basic_reversed: { Front: "front", Back: "back" },
  type_in: { Front: "front", Back: "back" },
  cloze: { Text: "text", "Back Extra": "extra" },
};

/**
 * What a marker asks to type for card `ordinal`, or null when the note has no
 * such field: the field's content, or for `cloze:F` (Anki's
 * `{{type:cloze:F}}`) the answers of the card's deletions in F, once when all
 * are the same, else joined by ", ".
 */
export function typeAnswerExpected(note: Note, field: string, ordinal = 1): string | null {
  const cloze = field.startsWith("cloze:");
  const name = cloze ? field.slice("cloze:".length) : field;
  const fields = note.fields as Record<string, string>;
  const key = stockFieldNames[note.kind]?.[name] ?? name;
  if (!Object.hasOwn(fields, key)) return null;
  const value = fields[key] ?? "";
  return cloze ? clozeAnswersFor(value, ordinal) : value;
}

function clozeAnswersFor(text: string, ordinal: number): string {
  const answers = parseCloze(text)
    .filter((deletion) => deletion.ordinal === ordinal)
    .map((deletion) => withoutClozeSyntax(deletion.answer));
  return new Set(answers).size <= 1 ? (answers[0] ?? "") : answers.join(", ");
}

/** A deletion's answer as it shows revealed: nested deletions by their own answers. */
export function withoutClozeSyntax(text: string): string {
  let out = "";
  let at = 0;
  for (const deletion of parseCloze(text)) {
    if (deletion.start < at) continue;
    out += text.slice(at, deletion.start) + withoutClozeSyntax(deletion.answer);
    at = deletion.end;
  }
  return out + text.slice(at);
}

/** Text as HTML: the five characters that matter escaped. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
