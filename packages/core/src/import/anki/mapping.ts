/**
 * Maps Anki notes to Engram's three kinds (docs/product.md §3). Stock note types map field to
 * field; any other normal note type is rendered through its templates into one basic
 * note per card, because a custom type often shows several fields on a face (a word,
 * its part of speech, a definition and a sentence) and taking two fields would lose the
 * rest. Every card keeps its Anki id, so schedules and history attach to it later.
 */
import { clozeOrdinals } from "../../cloze";
import { occlusionOrdinals } from "../../image-occlusion";
import type { RawCard, RawCollection, RawNote, RawNoteType } from "./collection";
import { isFieldEmpty, renderTemplate } from "./template";
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
 * stock-named type with other fields is treated as custom and rendered.
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

function mapCloze({ type, cards, decks, base, skip }: NoteInput): AnkiNote[] {
  if (type.fields.includes("Occlusion")) return mapImageOcclusion({ type, cards, decks, base, skip });
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

/** One basic note per card: custom types render each template into its own front and back. */
function mapCustom({ note, type, cards, decks, base, skip }: NoteInput): AnkiNote[] {
  const fields = Object.fromEntries(Object.entries(base.rawFields).map(([k, v]) => [k, soundToAudio(v)]));
  const notes: AnkiNote[] = [];
  for (const raw of cards) {
    const template = type.templates.find((t) => t.ord === raw.ord);
    if (!template) {
      skip("card-without-template");
      continue;
    }
    const deckName = decks.get(raw.did) ?? base.deckName;
    const special = {
      Tags: note.tags.join(" "),
      Deck: deckName,
      Subdeck: deckName.split("::").pop() ?? deckName,
      Card: template.name,
      Type: type.name,
    };
    let front = renderTemplate(template.qfmt, { fields, ord: raw.ord, side: "front", special }).trim();
    // Engram's study screen shows the front above the back, so {{FrontSide}} and the
    // divider Anki puts after it are left out of the back.
    let back = renderTemplate(template.afmt, { fields, ord: raw.ord, side: "back", frontSide: "", special })
      .trim()
      .replace(/^(?:<hr id=["']?answer["']?\s*\/?>\s*)/i, "")
      .trim();
    if (isFieldEmpty(front)) {
      // A template that shows nothing (a broken or unfinished note type) would lose the
      // note; its fields in order still say what the user wrote.
      const values = type.fields.map((name) => fields[name] ?? "").filter((v) => !isFieldEmpty(v));
      front = values[0] ?? "";
      back = values.slice(1).join("<br>");
    }
    if (isFieldEmpty(front)) {
      skip("empty-front");
      continue;
    }
    notes.push({ ...base, deckName, kind: "basic", fields: { front, back }, cards: [card(raw, 1, decks)] });
  }
  return notes;
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
      ankiNoteTypeName: type.name,
    };
    const input: NoteInput = { note, type, cards, decks: collection.decks, base, skip };
    const stock = type.kind === "normal" ? stockKind(type) : undefined;
    if (type.kind === "cloze") notes.push(...mapCloze(input));
    else if (stock) notes.push(...mapStock(stock, input));
    else notes.push(...mapCustom(input));
  }
  return notes;
}
