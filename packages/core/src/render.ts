/**
 * Card faces as sanitised HTML, each side whole as Anki's stock templates give it.
 *
 * - basic: front = `front`; back = `front`, `<hr id="answer">`, `back`
 *   (basic_reversed card 2 swaps the fields).
 * - type_in: front = `front` then the answer box marker
 *   `<engram-type-answer data-field="Back">`; back = `front`, `<hr id="answer">`,
 *   then the marker with `data-reveal`, where the comparison goes (Anki shows it
 *   in place of the answer).
 * - cloze card k: the text with every `{{ck::…}}` shown as
 *   `<span class="cloze">[hint]</span>` (or `[...]`) on the front and as
 *   `<span class="cloze">answer</span>` on the back; deletions of other numbers
 *   show their answer. A non-blank `extra` follows on the back after `<br>`.
 *   Hints are plain text (tags dropped, escaped).
 * - image_occlusion card k (Anki's stock image occlusion template): the header
 *   in a `<div>` when non-blank, then `<engram-occlusion data-ordinal="k"
 *   data-side="front|back" data-masks="[…]">` around the image, whose masks
 *   (image-occlusion.ts occlusionMasks, as JSON) the study screen draws over
 *   it; the back adds a non-blank back extra in a `<div>`.
 * The back is the whole answer side: the study screen shows it alone once revealed.
 */
import { type ClozeDeletion, parseCloze } from "./cloze";
import { occlusionFaces } from "./image-occlusion-render";
import { cardOrdinals, type Note, reversedOrdinals } from "./notes";
import { type SanitizeOptions, sanitizeCardHtml, stripMarkup } from "./sanitize";
import { renderTemplate } from "./templates";
import { typeAnswerMarker } from "./type-answer";

export type CardFaces = { front: string; back: string };

/** What a card's template may show beyond its note: Anki's special fields that come from the card. */
export type CardContext = {
  /** The card's deck as Anki names it, the whole path: "Old Decks::Board Review 2023" (`{{Deck}}`; `{{Subdeck}}` is the last part). */
  deck?: string;
  /** `{{CardID}}`. */
  cardId?: string;
  /** The card's flag, 0 for none (`{{CardFlag}}` = "flag0"…"flag7"). */
  flag?: number;
};

export type RenderOptions = SanitizeOptions & { card?: CardContext };

export function renderCard(note: Note, ordinal: number, options: RenderOptions = {}): CardFaces {
  const { card = {}, ...sanitize } = options;
  if (!cardOrdinals(note).includes(ordinal)) {
    throw new RangeError(`A ${note.kind} note has no card ${ordinal}.`);
  }
  const faces =
    note.kind === "image_occlusion"
      ? occlusionFaces(note.fields, ordinal)
      : note.kind === "custom"
        ? customFaces(note, ordinal, card)
        : note.kind === "cloze"
          ? clozeFaces(note.fields.text, note.fields.extra, ordinal)
          : note.kind === "type_in"
            ? typeInFaces(note.fields.front)
            : basicFaces(note, ordinal);
  return { front: sanitizeCardHtml(faces.front, sanitize), back: sanitizeCardHtml(faces.back, sanitize) };
}

function basicFaces(note: Note & { kind: "basic" | "basic_reversed" }, ordinal: number): CardFaces {
  const { front, back } = note.fields;
  const [question, answer] = ordinal === reversedOrdinals.backward ? [back, front] : [front, back];
  return { front: question, back: `${question}${answerRule}${answer}` };
}

/** Anki's "Basic (type in the answer)": `{{Front}}\n\n{{type:Back}}` and `{{Front}}\n\n<hr id=answer>\n\n{{type:Back}}`. */
function typeInFaces(question: string): CardFaces {
  return {
    front: `${question}\n\n${typeAnswerMarker("Back")}`,
    back: `${question}\n\n${answerRule}\n\n${typeAnswerMarker("Back", { reveal: true })}`,
  };
}

const answerRule = '<hr id="answer">';

/**
 * A custom note's faces from its type's template: the front is the question
 * template, the back the answer template with `{{FrontSide}}` = the front, whole
 * as Anki shows it. A cloze type's one template serves every card.
 */
function customFaces(note: Note & { kind: "custom" }, ordinal: number, card: CardContext): CardFaces {
  const type = note.noteType;
  const template = type.kind === "cloze" ? type.templates[0] : type.templates[ordinal - 1];
  if (!template) throw new RangeError(`The note type ${type.name} has no card ${ordinal}.`);
  const deck = card.deck ?? "";
  const special = {
    Tags: (note.tags ?? []).join(" "),
    Card: template.name,
    Type: type.name,
    Deck: deck,
    Subdeck: deck.split("::").at(-1) ?? "",
    CardFlag: `flag${card.flag ?? 0}`,
    CardID: card.cardId ?? "",
  };
  const context = { fields: note.fields, ord: ordinal - 1, special };
  const front = renderTemplate(template.front, { ...context, side: "front" });
  const back = renderTemplate(template.back, { ...context, side: "back", frontSide: front });
  return { front, back };
}

function clozeFaces(text: string, extra: string, ordinal: number): CardFaces {
  const deletions = parseCloze(text);
  const front = renderRange(text, deletions, 0, text.length, (deletion, answer) =>
    deletion.ordinal === ordinal ? clozeSpan(`[${hintText(deletion.hint)}]`) : answer(),
  );
  const revealed = renderRange(text, deletions, 0, text.length, (deletion, answer) =>
    deletion.ordinal === ordinal ? clozeSpan(answer()) : answer(),
  );
  // Anki's stock cloze back: `{{cloze:Text}}<br>\n{{Back Extra}}`.
  const back = extra.trim() === "" ? revealed : `${revealed}<br>\n${extra}`;
  return { front, back };
}

type ShowDeletion = (deletion: ClozeDeletion, answer: () => string) => string;

/** Source in [from, to) with each outermost deletion replaced by `show`; nested ones recurse through `answer()`. */
function renderRange(text: string, deletions: ClozeDeletion[], from: number, to: number, show: ShowDeletion): string {
  let html = "";
  let at = from;
  // Deletions are sorted by start and properly nested, so anything starting
  // before `at` lies inside one already shown.
  for (const deletion of deletions) {
    if (deletion.start < at || deletion.end > to) continue;
    const answerStart = answerOffset(deletion);
    html += text.slice(at, deletion.start);
    html += show(deletion, () => renderRange(text, deletions, answerStart, answerStart + deletion.answer.length, show));
    at = deletion.end;
  }
  return html + text.slice(at, to);
}

/** Where the answer begins: the deletion ends with [answer][::hint]}}. */
function answerOffset(deletion: ClozeDeletion): number {
  const hintLength = deletion.hint === null ? 0 : deletion.hint.length + 2;
  return deletion.end - 2 - hintLength - deletion.answer.length;
}

function clozeSpan(html: string): string {
  return `<span class="cloze">${html}</span>`;
}

/**
 * Hints are plain text: tags are dropped and markup characters escaped,
 * but entities such as `&amp;` or `&nbsp;` are kept as written.
 */
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
