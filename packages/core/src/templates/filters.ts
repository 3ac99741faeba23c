/**
 * Anki's built-in template filters that are pure text transforms
 * (rslib/src/template_filters.rs, cloze.rs): the Japanese support filters
 * furigana, kana and kanji, hint, and cloze-only.
 */
import { parseCloze } from "../cloze";
import { withoutClozeSyntax } from "../type-answer";
import { trimAnki } from "./parse";

/** `base[reading]`, optionally after a space that the filters swallow; `[sound:…]` is left alone. */
const furiganaPattern = / ?([^ >]+?)\[(.+?)\]/g;

function rubyReplace(text: string, render: (base: string, reading: string) => string): string {
  return text
    .replaceAll("&nbsp;", " ")
    .replace(furiganaPattern, (whole, base: string, reading: string) =>
      reading.startsWith("sound:") ? whole : render(base, reading),
    );
}

/** `日本[にほん]` → `<ruby><rb>日本</rb><rt>にほん</rt></ruby>`. */
export function furiganaFilter(text: string): string {
  return rubyReplace(text, (base, reading) => `<ruby><rb>${base}</rb><rt>${reading}</rt></ruby>`);
}

/** `日本[にほん]` → `にほん`. */
export function kanaFilter(text: string): string {
  return rubyReplace(text, (_base, reading) => reading);
}

/** `日本[にほん]` → `日本`. */
export function kanjiFilter(text: string): string {
  return rubyReplace(text, (base) => base);
}

/**
 * Anki shows a link named after the field that hides itself and reveals the
 * text, by script. Cards run no script here, so a `<details>` does the same:
 * its `<summary class="hint">` is the link (the card's stylesheet hides it
 * once open), and the text is in `<div class="hint">` as in Anki.
 */
export function hintFilter(text: string, fieldName: string): string {
  if (trimAnki(text) === "") return text;
  return `<details><summary class="hint">${escapeText(fieldName)}</summary><div class="hint">${text}</div></details>`;
}

/**
 * Anki's `cloze-only:`: the card's deletions alone, joined by ", ": their
 * hints (or "...") on the front, their answers on the back. A deletion inside
 * another counts on its own too, as in Anki.
 */
export function clozeOnlyFilter(text: string, ordinal: number, side: "front" | "back"): string {
  return parseCloze(text)
    .filter((deletion) => deletion.ordinal === ordinal)
    .map((deletion) => (side === "front" ? (deletion.hint ?? "...") : withoutClozeSyntax(deletion.answer)))
    .join(", ");
}

function escapeText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
