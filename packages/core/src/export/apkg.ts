/**
 * Writes a deck as an Anki package (.apkg): a legacy `collection.anki2`
 * (schema 11) built with sql.js, a JSON media map and numbered media files, zipped.
 */
import type { ImageOcclusionFields } from "../image-occlusion";
import type { NoteFields } from "../notes";
import { ankiId, noteGuid } from "./anki-ids";
import {
  type AnkiCardSpec,
  type AnkiDeckConfigSpec,
  type AnkiNoteSpec,
  type AnkiNoteTypeSpec,
  type AnkiRevlogSpec,
  type SqlJsOptions,
  writeAnkiCollection,
} from "./anki-package";
import { type ExportReview, type ExportSchedule, newCard, revlogRow, scheduledCard, time } from "./anki-schedule";
import { ankiImageOcclusion, ankiStock } from "./anki-stock";

export type { ExportReview, ExportSchedule } from "./anki-schedule";

export type ExportCard = {
  id: string | number;
  /** Engram's ordinal: 1 for basic, 1 and 2 for reversed, the cloze number for cloze, the template number for custom. */
  ordinal: number;
  schedule?: ExportSchedule | null;
  suspended?: boolean;
};

/** A note type as a custom note carries it; `sourceId` is the Anki id it was imported with. */
export type ExportNoteType = {
  id?: string;
  name: string;
  kind: "standard" | "cloze";
  fields: string[];
  templates: { name: string; front: string; back: string }[];
  css: string;
  sourceId?: number | null;
};

type StockKind = keyof typeof ankiStock;

export type ExportNote = {
  id: string | number;
  guid?: string;
  tags: string[];
  cards: ExportCard[];
  /** The note's deck as Anki names it ("Spanish::Verbs"); the exported deck when absent. */
  deckName?: string;
} & (
  | { kind: StockKind | "image_occlusion"; fields: NoteFields }
  | { kind: "custom"; fields: Record<string, string>; noteType: ExportNoteType }
);

/** An option group (Engram's preset), written under an Anki id drawn from its own id. */
export type ExportPreset = Omit<AnkiDeckConfigSpec, "id"> & { id: string | number };

export type ExportDeck = {
  name: string;
  notes: ExportNote[];
  media: { name: string; data: Uint8Array }[];
  reviews?: ExportReview[];
  /** The option groups `deckPresets` names. */
  presets?: ExportPreset[];
  /**
   * Each deck's preset id, by the deck's Anki name ("Spanish::Verbs"); a deck named
   * here is written even without notes. Decks not named use Anki's Default.
   */
  deckPresets?: Record<string, string | number>;
};

export type ApkgOptions = SqlJsOptions & {
  includeSchedule?: boolean;
  /** The export time (defaults to now); fixes `mod` columns and the collection's creation day. */
  now?: Date;
};

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

/** Fixed ids for the stock note types, so a re-export maps onto the same note types in Anki. */
export const stockNoteTypeIds: Record<StockKind, number> = {
  basic: 1_700_000_000_001,
  basic_reversed: 1_700_000_000_002,
  cloze: 1_700_000_000_003,
  type_in: 1_700_000_000_004,
};
/** Image occlusion notes go back as Anki's own Image Occlusion type (OriginalStockKind 6). */
export const imageOcclusionNoteTypeId = 1_700_000_000_006;

/** Note types by note: the stock ones by kind, custom ones by their id (or name), keeping an Anki id they came with. */
class NoteTypes {
  readonly specs = new Map<string, AnkiNoteTypeSpec>();
  readonly #used = new Set<number>();

  idOf(note: ExportNote): number {
    const key = note.kind === "custom" ? `custom:${note.noteType.id ?? note.noteType.name}` : note.kind;
    const known = this.specs.get(key);
    if (known) return known.id;
    let spec: AnkiNoteTypeSpec;
    if (note.kind === "custom") {
      const { sourceId, id: _id, ...type } = note.noteType;
      const preferred =
        sourceId && Number.isSafeInteger(sourceId) && sourceId > 0 ? sourceId : ankiId(`notetype:${key}`);
      spec = { ...type, id: this.#free(preferred) };
    } else if (note.kind === "image_occlusion") {
      spec = { ...ankiImageOcclusion, id: this.#free(imageOcclusionNoteTypeId) };
    } else {
      spec = { ...ankiStock[note.kind], id: this.#free(stockNoteTypeIds[note.kind]) };
    }
    this.specs.set(key, spec);
    return spec.id;
  }

  #free(id: number): number {
    let free = id;
    while (this.#used.has(free)) free += 1;
    this.#used.add(free);
    return free;
  }
}

function fieldValues(note: ExportNote): string[] {
  if (note.kind === "custom") return note.noteType.fields.map((name) => note.fields[name] ?? "");
  if (note.kind === "image_occlusion") {
    // Anki's field order: Occlusion, Image, Header, Back Extra, Comments.
    const fields = note.fields as Partial<ImageOcclusionFields>;
    return [fields.occlusions, fields.image, fields.header, fields.back_extra, fields.comments].map((v) => v ?? "");
  }
  const fields = note.fields as Record<string, string>;
  return note.kind === "cloze" ? [fields.text ?? "", fields.extra ?? ""] : [fields.front ?? "", fields.back ?? ""];
}

export async function writeApkg(deck: ExportDeck, options: ApkgOptions = {}): Promise<Uint8Array> {
  const now = options.now ?? new Date();
  const includeSchedule = options.includeSchedule ?? false;
  let crtMs = Math.floor(now.getTime() / dayMs) * dayMs;
  if (includeSchedule) {
    for (const card of deck.notes.flatMap((note) => note.cards)) {
      const due = card.schedule && card.schedule.state !== "new" ? time(card.schedule.due) : Number.NaN;
      if (due < crtMs) crtMs = Math.floor(due / dayMs) * dayMs;
    }
  }
  const deckIds = new Map<string, number>();
  const deckIdOf = (name: string) => {
    let id = deckIds.get(name);
    if (id === undefined) {
      id = ankiId(`deck:${name}`);
      deckIds.set(name, id);
    }
    return id;
  };
  deckIdOf(deck.name);
  const presetIds = new Map((deck.presets ?? []).map((preset) => [String(preset.id), presetAnkiId(preset.id)]));
  const deckConfigIds = new Map<string, number>();
  for (const [name, presetId] of Object.entries(deck.deckPresets ?? {})) {
    const configId = presetIds.get(String(presetId));
    if (configId === undefined) throw new RangeError(`Deck "${name}" uses preset ${presetId}, which is not exported.`);
    deckIdOf(name);
    deckConfigIds.set(name, configId);
  }
  const mediaNames = new Set(deck.media.map((file) => file.name));
  const noteTypes = new NoteTypes();
  const notes: AnkiNoteSpec[] = [];
  const cards: AnkiCardSpec[] = [];
  const cardIds = new Map<string, number>();
  const usedIds = new Set<number>();
  const unique = (id: number) => {
    let free = id;
    while (usedIds.has(free)) free += 1;
    usedIds.add(free);
    return free;
  };
  for (const [index, note] of deck.notes.entries()) {
    const noteId = unique(ankiId(note.id));
    notes.push({
      id: noteId,
      guid: note.guid ?? noteGuid(note.id),
      noteTypeId: noteTypes.idOf(note),
      fields: fieldValues(note).map((html) => ankiFieldHtml(html, mediaNames)),
      tags: note.tags,
    });
    const deckId = deckIdOf(note.deckName ?? deck.name);
    for (const card of note.cards) {
      const cardId = unique(ankiId(card.id));
      cardIds.set(String(card.id), cardId);
      const suspended = card.suspended ?? false;
      const columns =
        includeSchedule && card.schedule
          ? scheduledCard(card.schedule, index + 1, suspended, crtMs)
          : newCard(index + 1, suspended);
      cards.push({ id: cardId, noteId, deckId, ord: card.ordinal - 1, columns });
    }
  }
  return writeAnkiCollection(
    {
      createdAt: new Date(crtMs),
      modifiedAt: now,
      noteTypes: [...noteTypes.specs.values()],
      decks: [...deckIds].map(([name, id]) => {
        const configId = deckConfigIds.get(name);
        return configId === undefined ? { id, name } : { id, name, configId };
      }),
      deckConfigs: (deck.presets ?? []).map((preset) => ({ ...preset, id: presetAnkiId(preset.id) })),
      notes,
      cards,
      revlog: includeSchedule ? revlogRows(deck.reviews ?? [], cardIds) : [],
      media: deck.media,
    },
    options,
  );
}

/** Never 1: Anki's importer keeps its own Default over a package's group 1. */
function presetAnkiId(id: string | number): number {
  const ankiGroupId = ankiId(`preset:${id}`);
  return ankiGroupId === 1 ? 2 : ankiGroupId;
}

function revlogRows(reviews: ExportReview[], cardIds: Map<string, number>): AnkiRevlogSpec[] {
  const used = new Set<number>();
  const rows: AnkiRevlogSpec[] = [];
  for (const review of reviews) {
    const cardId = cardIds.get(String(review.cardId));
    if (cardId === undefined) continue;
    let id = time(review.reviewedAt);
    while (used.has(id)) id += 1;
    used.add(id);
    rows.push({ id, ...revlogRow(review, cardId) });
  }
  return rows;
}
