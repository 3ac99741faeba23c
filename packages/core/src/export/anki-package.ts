/**
 * Writes an Anki package (.apkg) from Anki's own shapes: note types, decks and their
 * option groups, notes, cards, review log rows and media, as a legacy `collection.anki2` (schema 11, the
 * JSON in `col` as rslib/src/notetype/schema11.rs and decks/schema11.rs read it), a
 * JSON media map and numbered media files. `writeApkg` builds these shapes from
 * Engram's notes; tests build them directly to make packages of any note type.
 */
import { strToU8, type Zippable, zipSync } from "fflate";
import initSqlJs, { type Database, type SqlJsStatic } from "sql.js";
import { ankiDefaultDeckConfig, conf, deckConfigJson, deckJson, noteTypeJson, schema11 } from "./anki-collection";
import type { AnkiCardColumns } from "./anki-schedule";

export type AnkiTemplateSpec = { name: string; front: string; back: string };

export type AnkiNoteTypeSpec = {
  id: number;
  name: string;
  kind: "standard" | "cloze";
  fields: string[];
  templates: AnkiTemplateSpec[];
  css: string;
  /** Anki's OriginalStockKind (1 basic … 5 cloze, 6 image occlusion); 0 or absent for the user's own. */
  originalStockKind?: number;
  /** Anki's field tags and deletion guards (cloze and image occlusion mark their fields so), by field index. */
  fieldTags?: ({ tag: number; preventDeletion: boolean } | null)[];
};

export type AnkiDeckSpec = {
  id: number;
  name: string;
  /** The option group it studies with (one of `deckConfigs`); Anki's Default (1) when absent. */
  configId?: number;
};

/** An Anki option group ("preset"): what Engram keeps of one; Anki's defaults fill the rest. */
export type AnkiDeckConfigSpec = {
  id: number;
  name: string;
  newPerDay: number;
  reviewsPerDay: number;
  leechThreshold: number;
  leechAction: "suspend" | "tag_only";
  buryNew: boolean;
  buryReviews: boolean;
  buryInterdayLearning: boolean;
};

export type AnkiNoteSpec = {
  id: number;
  guid: string;
  noteTypeId: number;
  /** Field values in the note type's field order. */
  fields: string[];
  tags: string[];
};

export type AnkiCardSpec = {
  id: number;
  noteId: number;
  deckId: number;
  /** Anki's 0-based template (or cloze number − 1) index. */
  ord: number;
  columns: AnkiCardColumns;
};

export type AnkiRevlogSpec = {
  id: number;
  cid: number;
  ease: number;
  ivl: number;
  lastIvl: number;
  factor: number;
  time: number;
  type: number;
};

export type AnkiCollectionSpec = {
  /** The collection's creation, a day start: review cards' `due` counts days from it. */
  createdAt: Date;
  /** Every `mod` column. */
  modifiedAt: Date;
  noteTypes: AnkiNoteTypeSpec[];
  decks: AnkiDeckSpec[];
  /**
   * Option groups besides Anki's Default, which is always written as group 1 at
   * Anki's defaults unless one here has id 1. Anki's importer keeps a group it
   * already has under the same id, so its Default wins over the package's.
   */
  deckConfigs?: AnkiDeckConfigSpec[];
  notes: AnkiNoteSpec[];
  cards: AnkiCardSpec[];
  revlog?: AnkiRevlogSpec[];
  media: { name: string; data: Uint8Array }[];
  /** Anki's scheduler version written to `col.conf` (2 unless told). */
  schedulerVersion?: number;
};

export type SqlJsOptions = {
  /** For browsers: the sql.js wasm bytes, or where to fetch them. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (file: string) => string;
};

let sqlJs: Promise<SqlJsStatic> | undefined;

export function loadSqlJs(options: SqlJsOptions): Promise<SqlJsStatic> {
  if (options.wasmBinary || options.locateFile) {
    return initSqlJs({
      ...(options.wasmBinary ? { wasmBinary: options.wasmBinary as ArrayBuffer } : {}),
      ...(options.locateFile ? { locateFile: options.locateFile } : {}),
    });
  }
  sqlJs ??= initSqlJs();
  return sqlJs;
}

/** The first field as Anki sorts and checksums it: markup stripped, image file names kept. */
export function sortText(html: string): string {
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

/** Every deck with its parents ("A::B::C" needs "A" and "A::B", as Anki keeps them), ids kept. */
function withParents(decks: AnkiDeckSpec[], idOf: (name: string) => number): AnkiDeckSpec[] {
  const byName = new Map(decks.map((deck) => [deck.name, deck]));
  for (const deck of decks) {
    const parts = deck.name.split("::");
    for (let depth = 1; depth < parts.length; depth++) {
      const name = parts.slice(0, depth).join("::");
      if (!byName.has(name)) byName.set(name, { id: idOf(name), name });
    }
  }
  if (![...byName.values()].some((deck) => deck.id === 1)) byName.set("Default", { id: 1, name: "Default" });
  return [...byName.values()];
}

/** Anki's Default and the spec's groups by id; a deck naming a group the package lacks is refused. */
function deckConfigsOf(spec: AnkiCollectionSpec): Map<number, AnkiDeckConfigSpec> {
  const configs = new Map([[ankiDefaultDeckConfig.id, ankiDefaultDeckConfig]]);
  for (const config of spec.deckConfigs ?? []) {
    if (!Number.isSafeInteger(config.id) || config.id < 1) {
      throw new RangeError(`Option group "${config.name}" needs a positive integer id, not ${config.id}.`);
    }
    configs.set(config.id, config);
  }
  for (const deck of spec.decks) {
    if (deck.configId !== undefined && !configs.has(deck.configId)) {
      throw new RangeError(`Deck "${deck.name}" uses option group ${deck.configId}, which the package does not hold.`);
    }
  }
  return configs;
}

export async function writeAnkiCollection(spec: AnkiCollectionSpec, options: SqlJsOptions = {}): Promise<Uint8Array> {
  const configs = deckConfigsOf(spec);
  const SQL = await loadSqlJs(options);
  const modMs = spec.modifiedAt.getTime();
  const modSec = Math.floor(modMs / 1000);
  let nextDeckId = Math.max(1, ...spec.decks.map((deck) => deck.id)) + 1;
  const decks = withParents(spec.decks, () => nextDeckId++);
  const firstDeck = spec.decks[0]?.id ?? 1;
  const db = new SQL.Database();
  try {
    db.run(schema11);
    db.run("insert into col values (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')", [
      Math.floor(spec.createdAt.getTime() / 1000),
      modMs,
      modMs,
      JSON.stringify(conf(firstDeck, spec.noteTypes[0]?.id ?? 0, spec.schedulerVersion ?? 2)),
      JSON.stringify(
        Object.fromEntries(spec.noteTypes.map((type) => [type.id, noteTypeJson(type, firstDeck, modSec)])),
      ),
      JSON.stringify(
        Object.fromEntries(
          decks.map((deck) => [
            deck.id,
            deckJson(deck.id, deck.name, deck.configId ?? ankiDefaultDeckConfig.id, modSec),
          ]),
        ),
      ),
      JSON.stringify(
        Object.fromEntries([...configs.values()].map((config) => [config.id, deckConfigJson(config, modSec)])),
      ),
    ]);
    db.run("begin");
    await insertNotes(db, spec, modSec);
    insertCards(db, spec.cards, modSec);
    insertRevlog(db, spec.revlog ?? []);
    db.run("commit");
    const files: Zippable = { "collection.anki2": db.export() };
    const map: Record<string, string> = {};
    spec.media.forEach((file, index) => {
      map[String(index)] = file.name;
      files[String(index)] = [file.data, { level: 0 }];
    });
    files.media = strToU8(JSON.stringify(map));
    // A fixed date in the zip headers, so the same collection gives the same bytes.
    return zipSync(files, { level: 6, mtime: spec.modifiedAt });
  } finally {
    db.close();
  }
}

async function insertNotes(db: Database, spec: AnkiCollectionSpec, modSec: number): Promise<void> {
  const sortField = new Map(spec.noteTypes.map((type) => [type.id, 0]));
  const insert = db.prepare("insert into notes values (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')");
  try {
    for (const note of spec.notes) {
      const sfld = sortText(note.fields[sortField.get(note.noteTypeId) ?? 0] ?? "");
      const tags = note.tags.length > 0 ? ` ${note.tags.join(" ")} ` : "";
      insert.run([
        note.id,
        note.guid,
        note.noteTypeId,
        modSec,
        tags,
        note.fields.join("\x1f"),
        sfld,
        await checksum(sfld),
      ]);
    }
  } finally {
    insert.free();
  }
}

function insertCards(db: Database, cards: AnkiCardSpec[], modSec: number): void {
  const insert = db.prepare("insert into cards values (?, ?, ?, ?, ?, -1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)");
  try {
    for (const card of cards) {
      const c = card.columns;
      insert.run([
        card.id,
        card.noteId,
        card.deckId,
        card.ord,
        modSec,
        c.type,
        c.queue,
        c.due,
        c.ivl,
        c.factor,
        c.reps,
        c.lapses,
        c.left,
        c.data,
      ]);
    }
  } finally {
    insert.free();
  }
}

function insertRevlog(db: Database, revlog: AnkiRevlogSpec[]): void {
  const insert = db.prepare("insert into revlog values (?, ?, 0, ?, ?, ?, ?, ?, ?)");
  try {
    for (const r of revlog) insert.run([r.id, r.cid, r.ease, r.ivl, r.lastIvl, r.factor, r.time, r.type]);
  } finally {
    insert.free();
  }
}
