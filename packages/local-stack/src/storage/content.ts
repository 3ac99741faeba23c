/**
 * Strict mode: the stack serves no active content from uploads (hosted Storage, and
 * the stack by default, store bytes as given): images and audio must start as their
 * declared type does, SVG must be an SVG document and is reduced to drawing markup
 * before it is stored, and every file goes out with headers that keep a browser from
 * running or sniffing it.
 */
import type sanitizeHtml from "sanitize-html";
import { StorageError } from "./errors.js";

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
const at = (bytes: Uint8Array, offset: number, expected: number[]) =>
  bytes.length >= offset + expected.length && expected.every((byte, index) => bytes[offset + index] === byte);

const png = (b: Uint8Array) => at(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = (b: Uint8Array) => at(b, 0, [0xff, 0xd8, 0xff]);
const gif = (b: Uint8Array) => at(b, 0, ascii("GIF87a")) || at(b, 0, ascii("GIF89a"));
const webp = (b: Uint8Array) => at(b, 0, ascii("RIFF")) && at(b, 8, ascii("WEBP"));
/** An ID3 tag, or an MPEG audio frame sync (11 set bits). */
const mp3 = (b: Uint8Array) =>
  at(b, 0, ascii("ID3")) || (b.length >= 2 && b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0);
const ogg = (b: Uint8Array) => at(b, 0, ascii("OggS"));
/** An ISO base media file (`ftyp` box first): what .m4a files are. */
const mp4 = (b: Uint8Array) => at(b, 4, ascii("ftyp"));
const wav = (b: Uint8Array) => at(b, 0, ascii("RIFF")) && at(b, 8, ascii("WAVE"));

/** Declared types whose bytes are checked, by their leading bytes (magic numbers). */
const signatures: Record<string, (bytes: Uint8Array) => boolean> = {
  "image/png": png,
  "image/jpeg": jpeg,
  "image/jpg": jpeg,
  "image/pjpeg": jpeg,
  "image/gif": gif,
  "image/webp": webp,
  "audio/mpeg": mp3,
  "audio/mp3": mp3,
  "audio/ogg": ogg,
  "audio/opus": ogg,
  "audio/mp4": mp4,
  "audio/m4a": mp4,
  "audio/x-m4a": mp4,
  "audio/wav": wav,
  "audio/wave": wav,
  "audio/x-wav": wav,
  "audio/vnd.wave": wav,
};

const SVG = "image/svg+xml";

const svgTags = [
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
  "filter",
  "feGaussianBlur",
  "feOffset",
  "feBlend",
  "feColorMatrix",
  "feMerge",
  "feMergeNode",
  "feFlood",
  "feComposite",
];

/** In-file references (`#id`) only: anything else could load or navigate elsewhere. */
const localReference = /^#[\w.:-]+$/;
const externalUrl = /url\(\s*(?!['"]?#)/i;

/** Drops attributes that can act (handlers) or load (style, links outside the file); names the SVG namespace. */
function drawingAttributes(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const kept: sanitizeHtml.Attributes = tagName === "svg" ? { xmlns: "http://www.w3.org/2000/svg" } : {};
  for (const [name, value] of Object.entries(attribs)) {
    const lower = name.toLowerCase();
    if (lower.startsWith("on") || lower === "style") continue;
    if ((lower === "href" || lower === "xlink:href") && !localReference.test(value.trim())) continue;
    if (externalUrl.test(value)) continue;
    kept[name] = value;
  }
  return { tagName, attribs: kept };
}

/**
 * The SVG as drawing markup only (no script, handlers, styles, foreign HTML or outside links).
 * The sanitiser is loaded with the first SVG (strict mode), not with the stack.
 */
export async function sanitizeSvg(svg: string): Promise<string> {
  const { default: sanitizeHtml } = await import("sanitize-html");
  return sanitizeHtml(svg, {
    allowedTags: svgTags,
    allowedAttributes: false,
    allowVulnerableTags: false,
    nonTextTags: ["script", "style", "foreignObject", "iframe", "textarea", "noscript"],
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
    transformTags: { "*": drawingAttributes },
  }).trim();
}

/** The bare media type (`image/png` of `image/png; charset=x`), lower-cased. */
export function mediaTypeOf(mimetype: string): string {
  return (mimetype.split(";")[0] ?? "").trim().toLowerCase();
}

function mismatch(mimetype: string): StorageError {
  return new StorageError(
    415,
    "InvalidMimeType",
    "invalid_mime_type",
    `mime type ${mimetype} does not match the file's content`,
  );
}

/**
 * Checks an upload's bytes against its declared type and returns what to store:
 * SVG reduced to drawing, anything else as it came. Throws InvalidMimeType (415)
 * when an image or audio type's bytes are something else, or SVG is not SVG.
 */
export async function checkContent(bytes: Uint8Array, mimetype: string): Promise<Uint8Array> {
  const type = mediaTypeOf(mimetype);
  const matches = signatures[type];
  if (matches) {
    if (!matches(bytes)) throw mismatch(mimetype);
    return bytes;
  }
  if (type !== SVG) return bytes;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw mismatch(mimetype);
  }
  const clean = await sanitizeSvg(text);
  if (!/^<svg[\s>/]/.test(clean) || !/<\/svg>$|\/>$/.test(clean)) throw mismatch(mimetype);
  return new TextEncoder().encode(clean);
}

/** Headers on every served user file: no sniffing into another type, and nothing it could run or load. */
export const protectiveHeaders: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
};
