/** Note kinds and the cards each note produces (docs/product.md §3). */
import { clozeOrdinals } from "./cloze";
import { type ImageOcclusionFields, occlusionOrdinals } from "./image-occlusion";
import { fieldIsEmpty, templateOrdinals } from "./templates";

export const noteKinds = ["basic", "basic_reversed", "cloze", "type_in", "custom", "image_occlusion"] as const;
export type NoteKind = (typeof noteKinds)[number];

export type BasicFields = { front: string; back: string };
export type ClozeFields = { text: string; extra: string };
/** A custom note's fields: exactly its type's field names. */
export type CustomFields = Record<string, string>;

export type CardTemplate = { name: string; front: string; back: string };

/** A note type as Anki's: named fields, one card per template (card ordinal = index + 1), or one cloze template. */
export type NoteType = {
  name: string;
  /** Anki's normal ("standard") or cloze model. */
  kind: "standard" | "cloze";
  /** Ordered field names, unique. */
  fields: string[];
  templates: CardTemplate[];
  /** The note type's CSS as written; sanitised when shown. */
  css: string;
};

/** The jsonb `notes.fields` shape for a kind. */
export type NoteFields<K extends NoteKind = NoteKind> = K extends "cloze"
  ? ClozeFields
  : K extends "custom"
    ? CustomFields
    : K extends "image_occlusion"
      ? ImageOcclusionFields
      : BasicFields;

/** The parts of a note that decide its cards; rows with more columns fit too. */
export type Note =
  | { kind: "basic"; fields: BasicFields }
  | { kind: "basic_reversed"; fields: BasicFields }
  | { kind: "type_in"; fields: BasicFields }
  | { kind: "cloze"; fields: ClozeFields }
  /** `tags` count as Anki's `{{Tags}}`: a front showing only them needs some. */
  | { kind: "custom"; fields: CustomFields; noteType: NoteType; tags?: readonly string[] }
  | { kind: "image_occlusion"; fields: ImageOcclusionFields };

/** basic_reversed card 1 asks front → back, card 2 asks back → front. */
export const reversedOrdinals = { forward: 1, backward: 2 } as const;

/** The ordinals of the cards a note has; the database trigger keeps `cards` equal to this. */
export function cardOrdinals(note: Note): number[] {
  switch (note.kind) {
    case "basic":
    case "type_in":
      return [reversedOrdinals.forward];
    case "basic_reversed":
      // Anki makes card 2 (front {{Back}}) only when the back is not empty.
      return fieldIsEmpty(note.fields.back)
        ? [reversedOrdinals.forward]
        : [reversedOrdinals.forward, reversedOrdinals.backward];
    case "cloze":
      return clozeOrdinals(note.fields.text);
    case "custom":
      return templateOrdinals(note.noteType, note.fields, note.tags);
    case "image_occlusion":
      return occlusionOrdinals(note.fields.occlusions);
  }
}

export function isNoteKind(value: unknown): value is NoteKind {
  return typeof value === "string" && (noteKinds as readonly string[]).includes(value);
}
