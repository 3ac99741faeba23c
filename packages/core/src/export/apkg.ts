/**
 * Writes a deck as an Anki package (.apkg): a legacy `collection.anki2`
 * (schema 11) built with sql.js, a JSON media map and numbered media files, zipped.
 */
import { strToU8, type Zippable, zipSync } from "fflate";
import initSqlJs, { type SqlJsStatic } from "sql.js";
import type { NoteFields, NoteKind } from "../notes";
import { conf, dconf, decks, modelFields, modelIds, models, schema11 } from "./anki-collection";
import { ankiId, noteGuid } from "./anki-ids";
import { type ExportReview, type ExportSchedule, newCard, revlogRow, scheduledCard, time } from "./anki-schedule";

export type { ExportReview, ExportSchedule } from "./anki-schedule";

export type ExportCard = {
  id: string | number;
  /** Engram's ordinal: 1 for basic, 1 and 2 for reversed, the cloze number for cloze. */
  ordinal: number;
  schedule?: ExportSchedule | null;
  suspended?: boolean;
};

export type ExportNote = {
  id: string | number;
  guid?: string;
  kind: NoteKind;
  fields: NoteFields;
  tags: string[];
  cards: ExportCard[];
};

export type ExportDeck = {
  name: string;
  notes: ExportNote[];
  media: { name: string; data: Uint8Array }[];
  reviews?: ExportReview[];
};

export type ApkgOptions = {
  includeSchedule?: boolean;
  /** For browsers: the sql.js wasm bytes, or where to fetch them. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (file: string) => string;
  /** The export time (defaults to now); fixes `mod` columns and the collection's creation day. */
  now?: Date;
};

let sqlJs: Promise<SqlJsStatic> | undefined;

function loadSqlJs(options: ApkgOptions): Promise<SqlJsStatic> {
  if (options.wasmBinary || options.locateFile) {
    return initSqlJs({
      ...(options.wasmBinary ? { wasmBinary: options.wasmBinary as ArrayBuffer } : {}),
      ...(options.locateFile ? { locateFile: options.locateFile } : {}),
    });
  }
  sqlJs ??= initSqlJs();
  return sqlJs;
}

const dayMs = 86_400_000;

/** `<audio src="x.mp3">` becomes `[sound:x.mp3]`; media paths become the bare file names the package holds. */
export function ankiFieldHtml(html: string, mediaNames: ReadonlySet<string>): string {
  const bare = (src: string) => {
    const name = decodeURIComponent(src.split(/[?#]/)[0]?.split("/").pop() ?? src);
    return mediaNames.has(name) ? name : src;
  };
  return html
    .replace(/<audio\b[^>]*?\bsrc\s*=\s*["']([^"']+)["'][^>]*>(?:[\s\S]*?<\/audio>)?/gi, (_, src: string) => {
      return `[sound:${bare(src)}]`;
    })
    .replace(/<audio\b[^>]*>\s*<source\b[^>]*?\bsrc\s*=\s*["']([^"']+)["'][^>]*>[\s\S]*?<\/audio>/gi, (_, src) => {
      return `[sound:${bare(src)}]`;
    })
    .replace(/(<img\b[^>]*?\bsrc\s*=\s*)(["'])([^"']+)\2/gi, (_, head: string, quote: string, src: string) => {
      return `${head}${quote}${bare(src)}${quote}`;
    });
}

/** The first field as Anki sorts and checksums it: markup stripped, image file names kept. */
function sortText(html: string): string {
  return html
    .replace(/<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["'][^>]*>/gi, " $1 ")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();
}

/** Anki's field checksum: the first 8 hex digits of the SHA-1 of the first field's text. */
async function checksum(text: string): Promise<number> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", strToU8(text)));
  return ((digest[0] ?? 0) * 2 ** 24 + ((digest[1] ?? 0) << 16) + ((digest[2] ?? 0) << 8) + (digest[3] ?? 0)) >>> 0;
}

function fieldValues(note: ExportNote): string[] {
  const fields = note.fields as Record<string, string>;
  const keys = note.kind === "cloze" ? ["text", "extra"] : ["front", "back"];
  return keys.slice(0, modelFields[note.kind].length).map((key) => fields[key] ?? "");
}

export async function writeApkg(deck: ExportDeck, options: ApkgOptions = {}): Promise<Uint8Array> {
  const SQL = await loadSqlJs(options);
  const nowMs = (options.now ?? new Date()).getTime();
  const nowSec = Math.floor(nowMs / 1000);
  const includeSchedule = options.includeSchedule ?? false;
  let crtMs = Math.floor(nowMs / dayMs) * dayMs;
  if (includeSchedule) {
    for (const card of deck.notes.flatMap((note) => note.cards)) {
      const due = card.schedule && card.schedule.state !== "new" ? time(card.schedule.due) : Number.NaN;
      if (due < crtMs) crtMs = Math.floor(due / dayMs) * dayMs;
    }
  }
  const deckId = ankiId(`deck:${deck.name}`);
  const mediaNames = new Set(deck.media.map((file) => file.name));
  const db = new SQL.Database();
  try {
    db.run(schema11);
    db.run("insert into col values (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')", [
      Math.floor(crtMs / 1000),
      nowMs,
      nowMs,
      JSON.stringify(conf(deckId)),
      JSON.stringify(models(deckId, nowSec)),
      JSON.stringify(decks(deckId, deck.name, nowSec)),
      JSON.stringify(dconf),
    ]);
    const insertNote = db.prepare("insert into notes values (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')");
    const insertCard = db.prepare("insert into cards values (?, ?, ?, ?, ?, -1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)");
    const cardIds = new Map<string, number>();
    const usedIds = new Set<number>();
    const unique = (id: number) => {
      let free = id;
      while (usedIds.has(free)) free += 1;
      usedIds.add(free);
      return free;
    };
    db.run("begin");
    for (const [index, note] of deck.notes.entries()) {
      const noteId = unique(ankiId(note.id));
      const flds = fieldValues(note).map((html) => ankiFieldHtml(html, mediaNames));
      const sfld = sortText(flds[0] ?? "");
      const tags = note.tags.length > 0 ? ` ${note.tags.join(" ")} ` : "";
      const guid = note.guid ?? noteGuid(note.id);
      insertNote.run([noteId, guid, modelIds[note.kind], nowSec, tags, flds.join("\x1f"), sfld, await checksum(sfld)]);
      for (const card of note.cards) {
        const cardId = unique(ankiId(card.id));
        cardIds.set(String(card.id), cardId);
        const suspended = card.suspended ?? false;
        const columns =
          includeSchedule && card.schedule
            ? scheduledCard(card.schedule, index + 1, suspended, crtMs)
            : newCard(index + 1, suspended);
        insertCard.run([
          cardId,
          noteId,
          deckId,
          card.ordinal - 1,
          nowSec,
          columns.type,
          columns.queue,
          columns.due,
          columns.ivl,
          columns.factor,
          columns.reps,
          columns.lapses,
          columns.left,
          columns.data,
        ]);
      }
    }
    insertNote.free();
    insertCard.free();
    if (includeSchedule) writeRevlog(db, deck.reviews ?? [], cardIds);
    db.run("commit");
    const files: Zippable = { "collection.anki2": db.export() };
    const map: Record<string, string> = {};
    deck.media.forEach((file, index) => {
      map[String(index)] = file.name;
      files[String(index)] = [file.data, { level: 0 }];
    });
    files.media = strToU8(JSON.stringify(map));
    return zipSync(files, { level: 6 });
  } finally {
    db.close();
  }
}

function writeRevlog(db: import("sql.js").Database, reviews: ExportReview[], cardIds: Map<string, number>) {
  const insert = db.prepare("insert into revlog values (?, ?, 0, ?, ?, ?, ?, ?, ?)");
  const used = new Set<number>();
  for (const review of reviews) {
    const cardId = cardIds.get(String(review.cardId));
    if (cardId === undefined) continue;
    let id = time(review.reviewedAt);
    while (used.has(id)) id += 1;
    used.add(id);
    const row = revlogRow(review, cardId);
    insert.run([id, row.cid, row.ease, row.ivl, row.lastIvl, row.factor, row.time, row.type]);
  }
  insert.free();
}
