/** Note kinds and the cards each note produces (docs/product.md §3). */
import { clozeOrdinals } from "./cloze";

export const noteKinds = ["basic", "basic_reversed", "cloze"] as const;
export type NoteKind = (typeof noteKinds)[number];

export type BasicFields = { front: string; back: string };
export type ClozeFields = { text: string; extra: string };

/** The jsonb `notes.fields` shape for a kind. */
export type NoteFields<K extends NoteKind = NoteKind> = K extends "cloze" ? ClozeFields : BasicFields;

/** The parts of a note that decide its cards; rows with more columns fit too. */
export type Note =
  | { kind: "basic"; fields: BasicFields }
  | { kind: "basic_reversed"; fields: BasicFields }
  | { kind: "cloze"; fields: ClozeFields };

/** basic_reversed card 1 asks front → back, card 2 asks back → front. */
export const reversedOrdinals = { forward: 1, backward: 2 } as const;

/** The ordinals of the cards a note has; the database trigger keeps `cards` equal to this. */
export function cardOrdinals(note: Note): number[] {
  switch (note.kind) {
    case "basic":
      return [reversedOrdinals.forward];
    case "basic_reversed":
      return [reversedOrdinals.forward, reversedOrdinals.backward];
    case "cloze":
      return clozeOrdinals(note.fields.text);
  }
}

export function isNoteKind(value: unknown): value is NoteKind {
  return typeof value === "string" && (noteKinds as readonly string[]).includes(value);
}
