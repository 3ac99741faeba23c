/**
 * Reads an Anki collection database (legacy schema 11 with JSON in `col`, or schema 18
 * with `notetypes`/`fields`/`templates`/`decks` tables holding protobuf configs).
 */
import type { Database, SqlValue } from "sql.js";
import {
  deckConfigFromJson,
  deckConfigFromProtobuf,
  legacyDeckConfigId,
  modernDeckConfigId,
  readable,
  resolveDeckConfigs,
} from "./deck-configs";
import { AnkiImportError } from "./errors";
import { fieldNumber, fieldString, readFields } from "./protobuf";
import type { AnkiDeckConfig, AnkiSchedule } from "./types";

export type RawTemplate = { name: string; ord: number; qfmt: string; afmt: string };
export type RawNoteType = {
  id: number;
  name: string;
  kind: "normal" | "cloze";
  fields: string[];
  templates: RawTemplate[];
  /** The note type's CSS as Anki stores it. */
  css: string;
  /** Anki's OriginalStockKind (6 image occlusion); 0 for a type the user made or one older than 2.1.62. */
  originalStockKind: number;
};
export type RawNote = { id: number; guid: string; mid: number; fields: string[]; tags: string[] };
export type RawCard = AnkiSchedule & { id: number; nid: number; did: number; ord: number };
export type RawReview = {
  id: number;
  cid: number;
  ease: number;
  ivl: number;
  lastIvl: number;
  factor: number;
  time: number;
  type: number;
};
export type RawCollection = {
  /** Anki's scheduler version (1 or 2; v3 logs like v2). */
  schedulerVersion: number;
  /** col.crt: review cards' `due` counts days from this day. */
  createdAtSeconds: number;
  noteTypes: Map<number, RawNoteType>;
  decks: Map<number, string>;
  /** Each deck's option group (null for filtered decks), always one of `deckConfigs`. */
  deckConfigIds: Map<number, number | null>;
  deckConfigs: AnkiDeckConfig[];
  notes: RawNote[];
  cards: RawCard[];
  revlog: RawReview[];
};

function rows(db: Database, sql: string): SqlValue[][] {
  const result = db.exec(sql);
  return result[0]?.values ?? [];
}

function tableNames(db: Database): Set<string> {
  return new Set(rows(db, "select name from sqlite_master where type = 'table'").map((r) => String(r[0])));
}

const num = (v: SqlValue | undefined): number => Number(v ?? 0);
const str = (v: SqlValue | undefined): string =>
  v instanceof Uint8Array ? new TextDecoder().decode(v) : v == null ? "" : String(v);
const blob = (v: SqlValue | undefined): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(0));

export function readCollection(db: Database): RawCollection {
  const tables = tableNames(db);
  for (const table of ["col", "notes", "cards"]) {
    if (!tables.has(table)) throw new AnkiImportError("corrupt-file", `The database has no ${table} table.`);
  }
  const modern = tables.has("notetypes") && tables.has("fields") && tables.has("templates");
  const notes = rows(db, "select id, guid, mid, flds, tags from notes order by id").map(
    (r): RawNote => ({
      id: num(r[0]),
      guid: str(r[1]),
      mid: num(r[2]),
      fields: str(r[3]).split("\x1f"),
      tags: str(r[4]).split(/\s+/).filter(Boolean),
    }),
  );
  const cards = rows(
    db,
    "select id, nid, case when odid != 0 then odid else did end, ord, type, queue, due, ivl, factor, reps, lapses from cards order by nid, ord, id",
  ).map(
    (r): RawCard => ({
      id: num(r[0]),
      nid: num(r[1]),
      did: num(r[2]),
      ord: num(r[3]),
      type: num(r[4]),
      queue: num(r[5]),
      due: num(r[6]),
      ivl: num(r[7]),
      factor: num(r[8]),
      reps: num(r[9]),
      lapses: num(r[10]),
    }),
  );
  const revlog = tables.has("revlog")
    ? rows(db, "select id, cid, ease, ivl, lastIvl, factor, time, type from revlog order by id").map(
        (r): RawReview => ({
          id: num(r[0]),
          cid: num(r[1]),
          ease: num(r[2]),
          ivl: num(r[3]),
          lastIvl: num(r[4]),
          factor: num(r[5]),
          time: num(r[6]),
          type: num(r[7]),
        }),
      )
    : [];
  const decks = tables.has("decks") ? modernDecks(db) : legacyDecks(db);
  const configs = tables.has("deck_config") ? modernDeckConfigs(db) : legacyDeckConfigs(db);
  const { deckConfigs, deckConfigIds } = resolveDeckConfigs(configs, decks.configIds);
  return {
    schedulerVersion: schedulerVersion(db, tables),
    createdAtSeconds: num(rows(db, "select crt from col limit 1")[0]?.[0]),
    noteTypes: modern ? modernNoteTypes(db) : legacyNoteTypes(db),
    decks: decks.names,
    deckConfigIds,
    deckConfigs,
    notes,
    cards,
    revlog,
  };
}

/** Legacy collections keep it in col.conf, schema 18 in the config table; absent means v1. */
function schedulerVersion(db: Database, tables: Set<string>): number {
  try {
    if (tables.has("config")) {
      const value = rows(db, "select val from config where key = 'schedVer'")[0]?.[0];
      return value === undefined ? 2 : Number(JSON.parse(str(value)));
    }
    const conf = JSON.parse(str(rows(db, "select conf from col limit 1")[0]?.[0])) as { schedVer?: number };
    return Number(conf.schedVer ?? 1);
  } catch {
    return 2;
  }
}

function colJson(db: Database, column: "models" | "decks"): Record<string, unknown> {
  const text = str(rows(db, `select ${column} from col limit 1`)[0]?.[0]);
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object") return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw new AnkiImportError("corrupt-file", `The collection's ${column} are not JSON.`);
}

type LegacyModel = {
  id?: number;
  name?: string;
  type?: number;
  css?: string;
  originalStockKind?: number;
  flds?: { name?: string; ord?: number }[];
  tmpls?: { name?: string; ord?: number; qfmt?: string; afmt?: string }[];
};

function legacyNoteTypes(db: Database): Map<number, RawNoteType> {
  const types = new Map<number, RawNoteType>();
  for (const [key, value] of Object.entries(colJson(db, "models"))) {
    const model = value as LegacyModel;
    const id = Number(model.id ?? key);
    const byOrd = <T extends { ord?: number }>(list: T[] = []) => [...list].sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0));
    types.set(id, {
      id,
      name: model.name ?? String(id),
      kind: model.type === 1 ? "cloze" : "normal",
      css: typeof model.css === "string" ? model.css : "",
      originalStockKind: Number(model.originalStockKind ?? 0) || 0,
      fields: byOrd(model.flds).map((f) => f.name ?? ""),
      templates: byOrd(model.tmpls).map((t, i) => ({
        name: t.name ?? "",
        ord: t.ord ?? i,
        qfmt: t.qfmt ?? "",
        afmt: t.afmt ?? "",
      })),
    });
  }
  return types;
}

type RawDecks = { names: Map<number, string>; configIds: Map<number, number | null> };

function legacyDecks(db: Database): RawDecks {
  const decks: RawDecks = { names: new Map(), configIds: new Map() };
  for (const [key, value] of Object.entries(colJson(db, "decks"))) {
    const deck = value as { id?: number; name?: string };
    const id = Number(deck.id ?? key);
    decks.names.set(id, deck.name ?? key);
    decks.configIds.set(id, legacyDeckConfigId(value));
  }
  return decks;
}

/** Schema 18 keeps names with \x1f between deck levels. */
function modernDecks(db: Database): RawDecks {
  const decks: RawDecks = { names: new Map(), configIds: new Map() };
  for (const r of rows(db, "select id, name, kind from decks")) {
    const id = num(r[0]);
    decks.names.set(id, str(r[1]).split("\x1f").join("::"));
    // A kind that cannot be read leaves the deck on group 1, as Anki falls back.
    const configId = readable(() => modernDeckConfigId(blob(r[2])));
    decks.configIds.set(id, configId === undefined ? 1 : configId);
  }
  return decks;
}

/** Schema 11 keeps the groups as JSON in col.dconf; unreadable JSON leaves every deck on Anki's defaults. */
function legacyDeckConfigs(db: Database): AnkiDeckConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(str(rows(db, "select dconf from col limit 1")[0]?.[0]));
  } catch {
    return [];
  }
  if (!parsed || typeof parsed !== "object") return [];
  return Object.entries(parsed).flatMap(([key, value]) => deckConfigFromJson(key, value) ?? []);
}

function modernDeckConfigs(db: Database): AnkiDeckConfig[] {
  return rows(db, "select id, name, config from deck_config").flatMap(
    (r) => readable(() => deckConfigFromProtobuf(num(r[0]), str(r[1]), blob(r[2]))) ?? [],
  );
}

/** Field and template rows whose note type was not exported are ignored (deck exports can hold them). */
function modernNoteTypes(db: Database): Map<number, RawNoteType> {
  const types = new Map<number, RawNoteType>();
  for (const r of rows(db, "select id, name, config from notetypes")) {
    const id = num(r[0]);
    const config = readFields(blob(r[2]));
    types.set(id, {
      id,
      name: str(r[1]),
      kind: fieldNumber(config, 1) === 1 ? "cloze" : "normal",
      css: fieldString(config, 3) ?? "",
      originalStockKind: fieldNumber(config, 9) ?? 0,
      fields: [],
      templates: [],
    });
  }
  for (const r of rows(db, "select ntid, name from fields order by ntid, ord")) {
    types.get(num(r[0]))?.fields.push(str(r[1]));
  }
  for (const r of rows(db, "select ntid, ord, name, config from templates order by ntid, ord")) {
    const type = types.get(num(r[0]));
    if (!type) continue;
    const config = readFields(blob(r[3]));
    type.templates.push({
      name: str(r[2]),
      ord: num(r[1]),
      qfmt: fieldString(config, 1) ?? "",
      afmt: fieldString(config, 2) ?? "",
    });
  }
  return types;
}
