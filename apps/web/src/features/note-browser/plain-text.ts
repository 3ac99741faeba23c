import type { Note } from "@engram/sdk";
import { decodeEntities, fieldText } from "../../lib/field-text.js";

/** What the browser needs of a note type: its name, its fields in order (the first is the sort field), its cards' names. */
export interface NoteTypeInfo {
  name: string;
  kind: "standard" | "cloze";
  fields: readonly string[];
  templates: readonly { name: string }[];
}
export type NoteTypeLookup = ReadonlyMap<string, NoteTypeInfo>;

type ListedNote = Pick<Note, "kind" | "fields"> & { note_type_id?: string | null };

/** A note's fields as stored, by name. */
export function fieldsOf(note: Pick<Note, "fields">): Record<string, unknown> {
  const fields = note.fields;
  return fields && typeof fields === "object" && !Array.isArray(fields) ? (fields as Record<string, unknown>) : {};
}

/** The note type of a custom note, when the deck's list has it. */
export function noteTypeOf(note: ListedNote, types: NoteTypeLookup | undefined): NoteTypeInfo | undefined {
  return note.kind === "custom" && note.note_type_id ? types?.get(note.note_type_id) : undefined;
}

/**
 * A note's first field (front, a cloze's text, or a custom note's first field
 * as its note type orders them) as one line of plain text for the list.
 */
export function firstFieldText(note: ListedNote, types?: NoteTypeLookup): string {
  const fields = fieldsOf(note);
  // An image occlusion note reads as its header, else as its image's file name.
  if (note.kind === "image_occlusion") {
    const header = fieldText(typeof fields.header === "string" ? fields.header : "");
    const image =
      typeof fields.image === "string" ? /\bsrc\s*=\s*["']([^"']+)["']/i.exec(fields.image)?.[1] : undefined;
    return header || (image ? decodeEntities(image) : "");
  }
  const name = note.kind === "custom" ? noteTypeOf(note, types)?.fields[0] : note.kind === "cloze" ? "text" : "front";
  const value = name === undefined ? undefined : fields[name];
  return fieldText(typeof value === "string" ? value : "");
}
