/**
 * What card HTML and media SVGs may contain (docs/product.md §5), in one place for both
 * sanitisers: sanitize-node.ts (sanitize-html, for Node and the SDK's build)
 * and sanitize-dom.ts (DOMPurify over the browser's own parser). The shared
 * tests run every case through both, so the two cannot drift.
 */

export type SanitizeOptions = {
  /**
   * Absolute URL prefix of the deck's media (e.g. a storage bucket folder).
   * A `/` is appended when missing, so `…/deck-1` cannot match `…/deck-10`.
   */
  mediaBaseUrl?: string;
};

export const cardTags = [
  "a",
  "audio",
  "b",
  "br",
  "code",
  // `{{hint:F}}` (templates/filters.ts): a disclosure that needs no script.
  "details",
  "div",
  "em",
  // The type-in marker (type-answer.ts), which the study screen swaps for the answer box or the comparison.
  "engram-type-answer",
  // An image occlusion card's image with its masks (image-occlusion-render.ts), drawn by the study screen.
  "engram-occlusion",
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
  "rb",
  "rp",
  "rt",
  "ruby",
  "source",
  "span",
  "strong",
  "sub",
  "summary",
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

/**
 * Attributes by tag; "*" applies to every tag. `style` keeps only what
 * sanitize-style.ts allows.
 */
export const cardAttributes: Record<string, string[]> = {
  "*": ["class", "style"],
  a: ["href", "title", "target", "rel"],
  img: ["src", "alt", "title", "width", "height"],
  audio: ["src", "controls", "loop"],
  source: ["src", "type"],
  ol: ["start", "type"],
  col: ["span"],
  colgroup: ["span"],
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
  // Only id="answer" survives (see answerId): free ids could clobber the
  // app's own DOM ids.
  hr: ["id"],
  "engram-type-answer": ["data-field", "data-reveal", "data-nc"],
  "engram-occlusion": ["data-ordinal", "data-side", "data-masks"],
};

/**
 * Elements removed together with their text, not just their tags:
 * sanitize-html's defaults, and template, whose content a browser keeps apart.
 */
export const cardDroppedWithContent = ["script", "style", "textarea", "option", "xmp", "template"];

/** Link schemes allowed in `href`; relative links are allowed, protocol-relative ones (`//host`) are not. */
export const linkSchemes = ["http", "https", "mailto"];

/** Every link opens in a new tab without access to this one. */
export const linkAttributes = { rel: "noopener noreferrer", target: "_blank" } as const;

/** The one id kept: the `<hr id="answer">` renderCard writes between a cloze and its extra. */
export const answerId = "answer";

/** Tags whose `src` must be the deck's own media (safeMediaSrc); an img or source without one is dropped. */
export const mediaTags = ["img", "audio", "source"];
export const droppedWithoutSrc = ["img", "source"];

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

/**
 * Whether an `href` may stay, judged as sanitize-html judges it: control
 * characters and whitespace removed first (browsers ignore them), then a
 * scheme must be one of linkSchemes, and `//host` is refused.
 */
export function allowedHref(href: string): boolean {
  let value = "";
  for (const char of href) {
    const code = char.charCodeAt(0);
    if (code > 0x20 && code !== 0x7f) value += char;
  }
  if (value.startsWith("//") || value.startsWith("/\\") || value.startsWith("\\")) return false;
  const scheme = /^([a-z][a-z0-9.+-]*):/i.exec(value)?.[1];
  return scheme === undefined || linkSchemes.includes(scheme.toLowerCase());
}

export const svgTags = [
  "svg",
  "g",
  "defs",
  "symbol",
  "use",
  "title",
  "desc",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "textPath",
  "linearGradient",
  "radialGradient",
  "stop",
  "clipPath",
  "mask",
  "pattern",
  "marker",
];

const presentation = [
  "id",
  "class",
  "transform",
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-miterlimit",
  "opacity",
  "clip-path",
  "clip-rule",
  "mask",
  "marker-start",
  "marker-mid",
  "marker-end",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "visibility",
  "display",
];

const geometry = [
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "fx",
  "fy",
  "width",
  "height",
  "d",
  "points",
  "pathLength",
  "dx",
  "dy",
  "rotate",
  "textLength",
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "spreadMethod",
  "patternUnits",
  "patternContentUnits",
  "patternTransform",
  "clipPathUnits",
  "maskUnits",
  "maskContentUnits",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  "viewBox",
  "preserveAspectRatio",
  "href",
  "xlink:href",
];

/** Attributes every SVG element may have; the root `<svg>` may also declare its namespaces. */
export const svgAttributes = [...presentation, ...geometry];
export const svgRootAttributes = ["xmlns", "xmlns:xlink", "version"];

/** Removed together with their content. */
export const svgDroppedWithContent = ["script", "style", "foreignObject", "textarea"];

/** References inside the file (`#id`) only; anything else could load from elsewhere. */
const localReference = /^#[\w.-]+$/;
/** `url(#id)` in paint and clip attributes; `url(https://…)` would fetch. */
const externalUrl = /url\(\s*(?!['"]?#)/i;

/** Whether an SVG attribute's value stays: no references or paint that load from elsewhere. */
export function keepSvgAttribute(name: string, value: string): boolean {
  if ((name === "href" || name === "xlink:href") && !localReference.test(value.trim())) return false;
  return !externalUrl.test(value);
}

export const svgNamespace = "http://www.w3.org/2000/svg";

/** What a sanitised SVG must look like: an `<svg>` root carrying its namespace, or nothing. */
export function finishSvg(clean: string): string {
  const trimmed = clean.trim();
  if (!trimmed.startsWith("<svg")) return "";
  return trimmed.includes(`xmlns="${svgNamespace}"`)
    ? trimmed
    : trimmed.replace(/^<svg/, `<svg xmlns="${svgNamespace}"`);
}
