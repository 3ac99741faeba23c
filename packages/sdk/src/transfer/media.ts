/**
 * An import's images and sounds into the deck's media folder. Only files the
 * notes use are sent; a name already taken by a different file gets a suffix and
 * the notes are rewritten to it; files over the limit or of another type are
 * skipped with a reason. An SVG is stored as the PNG the rasteriser draws of
 * it and the notes are rewritten to the PNG's name; without a rasteriser, or
 * when it cannot draw one, the SVG is skipped and counted (`svg-not-converted`).
 * What this import added is returned, so an import that fails can take it away
 * again.
 */
import { limits, mediaTypeOf, mediaTypes } from "@engram/core";
import { run } from "../request.js";
import { storageRun } from "../storage/files.js";
import { isSvgName, pngNameFor, type SvgRasterizer, svgAsPng } from "../storage/svg.js";
import type { EngramClient } from "../supabase-client.js";
import { decodeName, mediaNamesIn, sourcePattern } from "./references.js";
import type { SkipTally, StagedNote } from "./staged.js";

export type PackageMedia = { name: string; data: Uint8Array };

function fieldsOf(note: StagedNote): string[] {
  return Object.values(note.fields as Record<string, string>);
}

/** Storage keys allow a narrower alphabet than Anki's file names. */
function storageName(name: string): string {
  const clean = name
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}._ -]/gu, "_")
    .slice(-200);
  return clean.replace(/^[. ]+/, "") || "file";
}

function withSuffix(name: string, suffix: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)}-${suffix}${name.slice(dot)}` : `${name}-${suffix}`;
}

async function shortHash(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest).slice(0, 4)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function existingSizes(supabase: EngramClient, deckId: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const pageSize = 1000;
  for (let offset = 0; ; offset += pageSize) {
    const page = await storageRun(supabase.storage.from("media").list(deckId, { limit: pageSize, offset }));
    for (const file of page) {
      if (file.id !== null) sizes.set(file.name, Number(file.metadata?.size ?? -1));
    }
    if (page.length < pageSize) return sizes;
  }
}

function rewrite(notes: StagedNote[], renames: Map<string, string>): void {
  if (renames.size === 0) return;
  for (const note of notes) {
    const fields = note.fields as Record<string, string>;
    for (const [key, html] of Object.entries(fields)) {
      fields[key] = html.replace(sourcePattern, (whole, quote: string, src: string) => {
        const renamed = renames.get(decodeName(src));
        return renamed === undefined ? whole : `src=${quote}${encodeURI(renamed)}${quote}`;
      });
    }
  }
}

export type MediaUpload = { uploaded: string[]; reused: number };

/** What a package file is stored as: its bytes and type, or why it is left out. */
async function storedForm(
  file: PackageMedia,
  rasterizeSvg: SvgRasterizer | undefined,
): Promise<{ body: Uint8Array | Blob; type: string } | { skip: string }> {
  if (isSvgName(file.name)) {
    if (file.data.byteLength > limits.mediaBytes) return { skip: "media-too-large" };
    try {
      return { body: await svgAsPng(file.data, rasterizeSvg), type: "image/png" };
    } catch {
      return { skip: "svg-not-converted" };
    }
  }
  const type = mediaTypeOf(file.name);
  if (!type || !(mediaTypes as readonly string[]).includes(type)) return { skip: "unsupported-media-type" };
  return { body: file.data, type };
}

export async function uploadMedia(
  supabase: EngramClient,
  deckId: string,
  files: readonly PackageMedia[],
  notes: StagedNote[],
  skipped: SkipTally,
  progress: (done: number, total: number) => void,
  signal?: AbortSignal,
  rasterizeSvg?: SvgRasterizer,
): Promise<MediaUpload> {
  const used = mediaNamesIn(notes.flatMap(fieldsOf));
  const wanted = files.filter((file) => used.has(file.name));
  // A drawn SVG takes `<name>.png`, unless the package holds a file of that name itself.
  const packageNames = new Set(wanted.map((file) => storageName(file.name)));
  skipped.add("unused-media", files.length - wanted.length);
  const existing = wanted.length > 0 ? await existingSizes(supabase, deckId) : new Map<string, number>();
  const renames = new Map<string, string>();
  const uploaded: string[] = [];
  let reused = 0;
  let done = 0;
  progress(0, wanted.length);

  const send = async (file: PackageMedia) => {
    signal?.throwIfAborted();
    const form = await storedForm(file, rasterizeSvg);
    if ("skip" in form) return skipped.add(form.skip);
    const { body, type } = form;
    const size = body instanceof Blob ? body.size : body.byteLength;
    if (size > limits.mediaBytes) return skipped.add("media-too-large");
    let name = storageName(file.name);
    if (isSvgName(file.name)) {
      name = pngNameFor(name);
      if (packageNames.has(name)) name = withSuffix(name, await shortHash(file.data));
    }
    const taken = existing.get(name);
    if (taken === size) {
      reused += 1;
    } else {
      if (taken !== undefined) name = withSuffix(name, await shortHash(file.data));
      if (existing.get(name) !== size) {
        await storageRun(
          supabase.storage.from("media").upload(`${deckId}/${name}`, body, { contentType: type, upsert: true }),
        );
        uploaded.push(`${deckId}/${name}`);
      }
    }
    if (name !== file.name) renames.set(file.name, name);
  };

  // A few uploads at once: storage round trips, not bandwidth, dominate for small files.
  const queue = [...wanted];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      await send(file);
      done += 1;
      progress(done, wanted.length);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  rewrite(notes, renames);
  return { uploaded, reused };
}

/** Takes back what a failed import uploaded; best effort, as the failure itself is what the caller reports. */
export async function removeUploaded(supabase: EngramClient, paths: readonly string[]): Promise<void> {
  for (let start = 0; start < paths.length; start += 500) {
    await supabase.storage
      .from("media")
      .remove(paths.slice(start, start + 500))
      .catch(() => undefined);
  }
}

/** The decks of a deck-tree import, by path (JSON of the names below the import's deck), found as finish_import found them. */
async function treeDecks(supabase: EngramClient, rootId: string): Promise<Map<string, string>> {
  const byPath = new Map<string, string>([[JSON.stringify([]), rootId]]);
  const pathOf = new Map<string, string[]>([[rootId, []]]);
  for (let level = [rootId]; level.length > 0; ) {
    const rows = await run(
      supabase.from("decks").select("id, name, parent_id").in("parent_id", level).order("created_at").order("id"),
    );
    level = [];
    for (const row of rows) {
      const path = [...(pathOf.get(row.parent_id ?? "") ?? []), row.name];
      const key = JSON.stringify(path);
      pathOf.set(row.id, path);
      level.push(row.id);
      if (!byPath.has(key)) byPath.set(key, row.id);
    }
  }
  return byPath;
}

/**
 * A deck-tree import puts each note in its own deck, and the card view finds
 * media in the note's deck: the files notes below the import's deck use are
 * copied there from the import's deck, where they were uploaded, and those
 * this import uploaded that no note of the import's deck itself uses are
 * removed from it again. A file that cannot be copied is counted
 * (`media-not-copied`); the notes are already in.
 */
export async function spreadMedia(
  supabase: EngramClient,
  rootId: string,
  notes: readonly StagedNote[],
  uploaded: readonly string[],
  skipped: SkipTally,
): Promise<void> {
  const groups = new Map<string, StagedNote[]>();
  for (const note of notes) {
    if (!note.deck || note.deck.length === 0) continue;
    const key = JSON.stringify(note.deck);
    groups.set(key, [...(groups.get(key) ?? []), note]);
  }
  if (groups.size === 0) return;
  const decks = await treeDecks(supabase, rootId);
  const inRoot = await existingSizes(supabase, rootId);
  const copies: { name: string; deckId: string }[] = [];
  for (const [key, group] of groups) {
    const deckId = decks.get(key);
    if (!deckId) continue;
    const names = [...mediaNamesIn(group.flatMap(fieldsOf))].filter((name) => inRoot.has(name));
    if (names.length === 0) continue;
    const there = await existingSizes(supabase, deckId);
    for (const name of names) if (there.get(name) !== inRoot.get(name)) copies.push({ name, deckId });
  }
  const bucket = supabase.storage.from("media");
  const worker = async () => {
    for (let copy = copies.shift(); copy; copy = copies.shift()) {
      const to = `${copy.deckId}/${copy.name}`;
      const result = await bucket.copy(`${rootId}/${copy.name}`, to);
      if (result.error) skipped.add("media-not-copied");
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  const rootUses = mediaNamesIn(notes.filter((note) => !note.deck || note.deck.length === 0).flatMap(fieldsOf));
  await removeUploaded(
    supabase,
    uploaded.filter((path) => !rootUses.has(path.slice(rootId.length + 1))),
  );
}
