/**
 * Maps Anki notes to Engram's notes (docs/product.md §3). Stock note types map field to
 * field onto the built-in kinds; any other note type is kept: its notes become `custom`
 * notes with every field by name, and the package's note type (fields, templates, CSS)
 * comes with them. Every card keeps its Anki id, so schedules and history attach to it later.
 */
import { clozeOrdinals } from "../../cloze";
import { occlusionOrdinals } from "../../image-occlusion";
import type { NoteType } from "../../notes";
import { templateOrdinals } from "../../templates";
import type { RawCard, RawCollection, RawNote, RawNoteType } from "./collection";
import { isFieldEmpty } from "./template";
import type { AnkiCard, AnkiNote } from "./types";

export type SkipCounter = (reason: string, count?: number) => void;

/** Anki's `[sound:file]` as an HTML audio element; the file name is kept exactly. */
export function soundToAudio(html: string): string {
  return html.replace(/\[sound:([^\]]+)\]/g, (_, name: string) => {
    const src = name.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
    return `<audio controls src="${src}"></audio>`;
  });
}

type StockKind = "basic" | "basic_reversed" | "basic_optional_reversed" | "type_in";

/**
 * Stock normal types by name (Anki suffixes copies with "-xxxxx") and field count; a
 * stock-named type with other fields is kept as the user's own note type.
 */
export function stockKind(type: RawNoteType): StockKind | undefined {
  const name = type.name.replace(/-[0-9a-f]{5}$/, "");
  const fields = type.fields.length;
  if (name === "Basic" && fields === 2) return "basic";
  if (name === "Basic (type in the answer)" && fields === 2) return "type_in";
  if (name === "Basic (and reversed card)" && fields === 2) return "basic_reversed";
  if (name === "Basic (optional reversed card)" && fields === 3) return "basic_optional_reversed";
  return undefined;
}

/** Anki 23.10's image occlusion type (marked so since 2.1.62), or one shaped like it. */
export function isImageOcclusion(type: RawNoteType): boolean {
  return type.originalStockKind === 6 || (type.kind === "cloze" && type.fields.includes("Occlusion"));
}

/** A cloze type Engram's built-in cloze holds: its text and an extra field, nothing more. */
function isStockCloze(type: RawNoteType): boolean {
  return type.kind === "cloze" && type.fields.length <= 2 && !isImageOcclusion(type);
}

/** Whether the type's notes keep it (a `custom` note) rather than mapping onto a built-in kind. */
export function keepsNoteType(type: RawNoteType): boolean {
  if (isImageOcclusion(type)) return false;
  return type.kind === "cloze" ? !isStockCloze(type) : stockKind(type) === undefined;
}

function card(raw: RawCard, ordinal: number, decks: Map<number, string>): AnkiCard {
  return {
    ankiCardId: raw.id,
    ankiOrdinal: raw.ord,
    ordinal,
    deckName: decks.get(raw.did) ?? "Default",
    suspended: raw.queue === -1,
    buried: raw.queue === -2 || raw.queue === -3,
    ankiSchedule: {
      type: raw.type,
      queue: raw.queue,
      due: raw.due,
      ivl: raw.ivl,
      factor: raw.factor,
      reps: raw.reps,
      lapses: raw.lapses,
    },
  };
}

function byName(type: RawNoteType, note: RawNote): Record<string, string> {
  return Object.fromEntries(type.fields.map((name, i) => [name, note.fields[i] ?? ""]));
}

function pick(raw: Record<string, string>, type: RawNoteType, names: string[], index: number): string {
  const named = names.find((name) => Object.hasOwn(raw, name));
  return named !== undefined ? (raw[named] ?? "") : (raw[type.fields[index] ?? ""] ?? "");
}

type NoteInput = {
  note: RawNote;
  type: RawNoteType;
  cards: RawCard[];
  decks: Map<number, string>;
  base: Omit<AnkiNote, "kind" | "fields" | "cards">;
  skip: SkipCounter;
};

function mapCloze({ type, cards, decks, base, skip }: NoteInput): AnkiNote[] {
  const text = soundToAudio(pick(base.rawFields, type, ["Text"], 0));
  const extra = soundToAudio(pick(base.rawFields, type, ["Back Extra", "Extra"], 1));
  const present = new Set(clozeOrdinals(text));
  const kept = cards.filter((c) => present.has(c.ord + 1));
  if (kept.length < cards.length) skip("card-without-cloze", cards.length - kept.length);
  if (kept.length === 0) return [];
  return [{ ...base, kind: "cloze", fields: { text, extra }, cards: kept.map((c) => card(c, c.ord + 1, decks)) }];
}

function mapStock(stock: StockKind, { note, cards, decks, base, skip }: NoteInput): AnkiNote[] {
  const reversed =
    stock === "basic_reversed" || (stock === "basic_optional_reversed" && !isFieldEmpty(note.fields[2] ?? ""));
  const kept = cards.filter((c) => c.ord <= (reversed ? 1 : 0));
  if (kept.length < cards.length) skip("card-without-template", cards.length - kept.length);
  if (kept.length === 0) return [];
  const kind = reversed ? "basic_reversed" : stock === "type_in" ? "type_in" : "basic";
  return [
    {
      ...base,
      kind,
      fields: { front: soundToAudio(note.fields[0] ?? ""), back: soundToAudio(note.fields[1] ?? "") },
      cards: kept.map((c) => card(c, c.ord + 1, decks)),
    },
  ];
}

/** The Anki note type as Engram's: Anki's qfmt and afmt as each template's front and back. */
export function engramNoteType(type: RawNoteType): NoteType {
  return {
    name: type.name,
    kind: type.kind === "cloze" ? "cloze" : "standard",
    fields: [...type.fields],
    templates: type.templates.map((t) => ({ name: t.name, front: t.qfmt, back: t.afmt })),
    css: type.css,
  };
}

/**
 * A note of the user's own type keeps every field; its cards keep their template
 * (standard) or cloze number (cloze) as the ordinal. Engram makes a note's cards by
 * Anki's rule (`templateOrdinals`), so a package's card that rule would not make (a
 * front that renders empty, a cloze number no longer in the text) is left out.
 */
function mapCustom({ type, cards, decks, base, skip }: NoteInput, noteType: NoteType): AnkiNote[] {
  const fields = Object.fromEntries(type.fields.map((name) => [name, soundToAudio(base.rawFields[name] ?? "")]));
  const made = new Set(templateOrdinals(noteType, fields, base.tags));
  const kept = cards.filter((c) => made.has(c.ord + 1));
  if (kept.length < cards.length) {
    const reason = type.kind === "cloze" ? "card-without-cloze" : "empty-front";
    skip(reason, cards.length - kept.length);
  }
  if (kept.length === 0) return [];
  return [{ ...base, kind: "custom", fields, noteType, cards: kept.map((c) => card(c, c.ord + 1, decks)) }];
}

/**
 * Anki's image occlusion note (fields Occlusion, Image, Header, Back Extra,
 * Comments, by name or else in that order): the occlusion field is kept as
 * written, so it goes back to Anki unchanged; a card keeps its group number.
 */
function mapImageOcclusion({ type, cards, decks, base, skip }: Omit<NoteInput, "note">): AnkiNote[] {
  const raw = base.rawFields;
  const occlusions = pick(raw, type, ["Occlusion", "Occlusions"], 0);
  const present = new Set(occlusionOrdinals(occlusions));
  const kept = cards.filter((c) => present.has(c.ord + 1));
  if (kept.length < cards.length) skip("card-without-cloze", cards.length - kept.length);
  if (kept.length === 0) return [];
  const fields = {
    image: pick(raw, type, ["Image"], 1),
    occlusions,
    header: soundToAudio(pick(raw, type, ["Header"], 2)),
    back_extra: soundToAudio(pick(raw, type, ["Back Extra"], 3)),
    comments: soundToAudio(pick(raw, type, ["Comments"], 4)),
  };
  return [{ ...base, kind: "image_occlusion", fields, cards: kept.map((c) => card(c, c.ord + 1, decks)) }];
}

export function mapNotes(collection: RawCollection, skip: SkipCounter): AnkiNote[] {
  const cardsByNote = new Map<number, RawCard[]>();
  for (const raw of collection.cards) {
    const list = cardsByNote.get(raw.nid);
    if (list) list.push(raw);
    else cardsByNote.set(raw.nid, [raw]);
  }
  const noteIds = new Set(collection.notes.map((n) => n.id));
  const orphanCards = collection.cards.filter((c) => !noteIds.has(c.nid)).length;
  if (orphanCards > 0) skip("card-without-note", orphanCards);

  const notes: AnkiNote[] = [];
  const noteTypes = new Map<number, NoteType>();
  for (const note of collection.notes) {
    const type = collection.noteTypes.get(note.mid);
    const cards = cardsByNote.get(note.id) ?? [];
    if (!type) {
      skip("unknown-note-type");
      continue;
    }
    if (cards.length === 0) {
      skip("note-without-cards");
      continue;
    }
    const base = {
      ankiNoteId: note.id,
      guid: note.guid,
      deckName: collection.decks.get(cards[0]?.did ?? 0) ?? "Default",
      rawFields: byName(type, note),
      tags: note.tags,
      ankiNoteTypeId: type.id,
      ankiNoteTypeName: type.name,
    };
    const input: NoteInput = { note, type, cards, decks: collection.decks, base, skip };
    const stock = type.kind === "normal" ? stockKind(type) : undefined;
    if (isImageOcclusion(type)) notes.push(...mapImageOcclusion(input));
    else if (keepsNoteType(type)) {
      let noteType = noteTypes.get(type.id);
      if (!noteType) {
        noteType = engramNoteType(type);
        noteTypes.set(type.id, noteType);
      }
      notes.push(...mapCustom(input, noteType));
    } else if (stock) notes.push(...mapStock(stock, input));
    else notes.push(...mapCloze(input));
  }
  return notes;
}
