/**
 * Card HTML sanitising (docs/product.md §5): imported and typed HTML may format text
 * and show the deck's own media, but never run code or load from elsewhere.
 * `#sanitizer` is DOMPurify over the browser's parser in browsers
 * (sanitize-dom.ts) and sanitize-html elsewhere (sanitize-node.ts), both
 * following sanitize-rules.ts.
 */
export { sanitizeCardHtml } from "#sanitizer";
export { type SanitizeOptions, safeMediaSrc } from "./sanitize-rules";

/**
 * Whether a field shows anything: text once markup is stripped, or an image,
 * audio or video (a picture-only card is not empty). Mirrors the database's
 * `private.has_content`.
 */
export function hasContent(html: string): boolean {
  return stripMarkup(html) !== "" || /<(img|audio|video)\b/i.test(html);
}

/**
 * Plain text for "is this field empty?" checks, exactly as the database does:
 * `btrim(replace(regexp_replace(x, '<[^>]*>', '', 'g'), '&nbsp;', ' '))`.
 * So tags go first, then `&nbsp;` (case-sensitive) becomes a space, and only
 * spaces are trimmed: tabs, newlines and other entities are kept.
 */
export function stripMarkup(html: string): string {
  // A loop rather than the regex: `<[^>]*>` backtracks quadratically on long
  // runs of `<` without `>`. Same result: once no `>` follows, no tag can match.
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
  text += html.slice(at);
  return trimSpaces(text.replaceAll("&nbsp;", " "));
}

/** Postgres `btrim(x)`: removes U+0020 only. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 32) start += 1;
  while (end > start && text.charCodeAt(end - 1) === 32) end -= 1;
  return text.slice(start, end);
}
