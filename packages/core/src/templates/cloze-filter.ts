/**
 * Anki's `cloze:` filter over one field: card k's deletions show as
 * `<span class="cloze">[hint]</span>` (or `[...]`) on the front and as
 * `<span class="cloze">answer</span>` on the back; other numbers show their answer.
 * A field without a deletion for card k shows nothing, as in Anki.
 */
import { type ClozeDeletion, parseCloze } from "../cloze";
import { stripMarkup } from "../sanitize";

export function renderClozeField(text: string, ordinal: number, side: "front" | "back"): string {
  const deletions = parseCloze(text);
  if (!deletions.some((deletion) => deletion.ordinal === ordinal)) return "";
  return renderRange(text, deletions, 0, text.length, (deletion, answer) => {
    if (deletion.ordinal !== ordinal) return answer();
    return side === "front" ? clozeSpan(`[${hintText(deletion.hint)}]`) : clozeSpan(answer());
  });
}

type ShowDeletion = (deletion: ClozeDeletion, answer: () => string) => string;

/** Source in [from, to) with each outermost deletion replaced by `show`; nested ones recurse through `answer()`. */
function renderRange(text: string, deletions: ClozeDeletion[], from: number, to: number, show: ShowDeletion): string {
  let html = "";
  let at = from;
  for (const deletion of deletions) {
    if (deletion.start < at || deletion.end > to) continue;
    const hintLength = deletion.hint === null ? 0 : deletion.hint.length + 2;
    const answerStart = deletion.end - 2 - hintLength - deletion.answer.length;
    html += text.slice(at, deletion.start);
    html += show(deletion, () => renderRange(text, deletions, answerStart, answerStart + deletion.answer.length, show));
    at = deletion.end;
  }
  return html + text.slice(at, to);
}

function clozeSpan(html: string): string {
  return `<span class="cloze">${html}</span>`;
}

/** Hints are plain text: tags dropped, markup characters escaped, entities kept as written. */
function hintText(hint: string | null): string {
  const text = stripMarkup(hint ?? "").trim();
  if (text === "") return "...";
  return text
    .replace(/&(?!(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);)/gi, "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
