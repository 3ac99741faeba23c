/**
 * Card HTML sanitising (PRODUCT §5): imported and typed HTML may format text
 * and show the deck's own media, but never run code or load from elsewhere.
 */
import sanitizeHtml from "sanitize-html";

export type SanitizeOptions = {
  /**
   * Absolute URL prefix of the deck's media (e.g. a storage bucket folder).
   * A `/` is appended when missing, so `…/deck-1` cannot match `…/deck-10`.
   */
  mediaBaseUrl?: string;
};

const allowedTags = [
  "a",
  "audio",
  "b",
  "br",
  "code",
  "div",
  "em",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "i",
  "img",
  "li",
  "ol",
  "p",
  "pre",
  "rp",
  "rt",
  "ruby",
  "source",
  "span",
  "strong",
  "sub",
  "sup",
  "u",
  "ul",
  "table",
  "caption",
  "colgroup",
  "col",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
];

const allowedAttributes: sanitizeHtml.IOptions["allowedAttributes"] = {
  "*": ["class"],
  a: ["href", "title", "target", "rel"],
  img: ["src", "alt", "title", "width", "height"],
  audio: ["src", "controls", "loop"],
  source: ["src", "type"],
  ol: ["start", "type"],
  col: ["span"],
  colgroup: ["span"],
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
  // Only id="answer" survives (see keepAnswerId): free ids could clobber the
  // app's own DOM ids.
  hr: ["id"],
};

const schemePrefix = /^[a-z][a-z0-9+.-]*:/i;

/** C0 controls and DEL: browsers drop tabs and newlines inside URLs, so "java\tscript:" works. */
function hasControlCharacter(value: string): boolean {
  for (let at = 0; at < value.length; at += 1) {
    const code = value.charCodeAt(at);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** A `..` segment (also percent-encoded) could climb out of the deck's media folder. */
function hasParentSegment(path: string): boolean {
  const beforeQuery = path.split(/[?#]/, 1)[0] ?? "";
  return beforeQuery.split("/").some((segment) => segment.replace(/%2e/gi, ".") === "..");
}

function withTrailingSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

/**
 * The src to keep, or null to drop it. Allowed: a relative path (a media file
 * name, resolved against the deck's media by the viewer) or a URL under
 * mediaBaseUrl. Browsers strip surrounding whitespace and read `\` as `/`, so
 * those are normalised or refused before deciding.
 */
export function safeMediaSrc(src: string, mediaBaseUrl?: string): string | null {
  const value = src.trim();
  if (value === "" || hasControlCharacter(value) || value.includes("\\")) return null;
  if (hasParentSegment(value)) return null;
  if (mediaBaseUrl && value.startsWith(withTrailingSlash(mediaBaseUrl))) return value;
  if (schemePrefix.test(value) || value.startsWith("/")) return null;
  return value;
}

function keepSafeSrc(mediaBaseUrl: string | undefined): sanitizeHtml.Transformer {
  return (tagName, attribs) => {
    const kept = { ...attribs };
    const safe = kept.src === undefined ? null : safeMediaSrc(kept.src, mediaBaseUrl);
    if (safe === null) delete kept.src;
    else kept.src = safe;
    return { tagName, attribs: kept };
  };
}

/** The `<hr id="answer">` renderCard writes between a cloze and its extra. */
const keepAnswerId: sanitizeHtml.Transformer = (tagName, attribs) => {
  const kept = { ...attribs };
  if (kept.id !== "answer") delete kept.id;
  return { tagName, attribs: kept };
};

export function sanitizeCardHtml(html: string, options: SanitizeOptions = {}): string {
  const keepSrc = keepSafeSrc(options.mediaBaseUrl);
  return sanitizeHtml(html, {
    allowedTags,
    allowedAttributes,
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: {},
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    transformTags: {
      a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }),
      img: keepSrc,
      audio: keepSrc,
      source: keepSrc,
      hr: keepAnswerId,
    },
    selfClosing: [...sanitizeHtml.defaults.selfClosing, "source", "col"],
    // An image or source without a usable src shows nothing but a broken icon.
    exclusiveFilter: (frame) => (frame.tag === "img" || frame.tag === "source") && !frame.attribs.src,
  });
}

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
