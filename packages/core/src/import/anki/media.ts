/**
 * The package's media: the map from zip member to file name (legacy JSON, or a
 * zstd-compressed protobuf MediaEntries in the latest format) and the files themselves.
 */

import { mediaTypeOf } from "../../limits";
import { type ByteBudget, zstdDecompress } from "./budget";
import { AnkiImportError } from "./errors";
import { fieldMessages, fieldString, readFields } from "./protobuf";
import type { AnkiMedia } from "./types";
import type { ZipArchive } from "./zip";

export function mimeOf(name: string): string {
  return mediaTypeOf(name) ?? "application/octet-stream";
}

/** Zip member names and the media file names they hold, in the map's order. */
export function readMediaMap(zip: ZipArchive, zstd: boolean, budget: ByteBudget): [string, string][] {
  const raw = zip.read("media");
  if (!raw || raw.length === 0) return [];
  if (zstd) {
    const entries = fieldMessages(readFields(zstdDecompress(raw, budget, "The media map")), 1);
    return entries.map((entry, index) => [String(index), fieldString(readFields(entry), 1) ?? ""]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(raw));
  } catch (error) {
    throw new AnkiImportError("corrupt-file", "The media map is neither JSON nor protobuf.", { cause: error });
  }
  if (!parsed || typeof parsed !== "object")
    throw new AnkiImportError("corrupt-file", "The media map is not an object.");
  return Object.entries(parsed as Record<string, unknown>)
    .map(([member, name]): [string, string] => [member, String(name)])
    .sort((a, b) => Number(a[0]) - Number(b[0]));
}

/** The media files; members the map names but the zip lacks are counted, not fatal. */
export function readMedia(
  zip: ZipArchive,
  map: [string, string][],
  zstd: boolean,
  budget: ByteBudget,
): { media: AnkiMedia[]; missing: number } {
  const media: AnkiMedia[] = [];
  let missing = 0;
  for (const [member, name] of map) {
    const raw = zip.read(member);
    if (!raw || name === "") {
      missing++;
      continue;
    }
    const data = zstd ? zstdDecompress(raw, budget, `The media file ${name}`) : raw;
    media.push({ name, data, mime: mimeOf(name) });
  }
  return { media, missing };
}

const referencePatterns = [/\bsrc\s*=\s*"([^"]+)"/gi, /\bsrc\s*=\s*'([^']+)'/gi, /\[sound:([^\]]+)\]/g];

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The media file names a field refers to (`src` of images and sounds, `[sound:…]`), not URLs. */
export function mediaReferences(html: string): string[] {
  const names: string[] = [];
  for (const pattern of referencePatterns) {
    for (const match of html.matchAll(pattern)) {
      const name = decodeEntities(match[1] ?? "").trim();
      if (name && !/^[a-z][a-z0-9+.-]*:/i.test(name) && !name.startsWith("/")) names.push(name);
    }
  }
  return names;
}

/** Names the fields refer to that the package does not hold (a name percent-encoded in the field counts as held). */
export function missingMediaNames(fields: Iterable<string>, held: ReadonlySet<string>): string[] {
  const missing = new Set<string>();
  for (const html of fields) {
    for (const name of mediaReferences(html)) {
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // Not percent-encoded: the name as written.
      }
      if (!held.has(name) && !held.has(decoded)) missing.add(decoded);
    }
  }
  return [...missing].sort();
}
