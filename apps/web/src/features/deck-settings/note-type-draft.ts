/**
 * A note type being edited on the settings screen: its name, ordered fields,
 * templates and CSS, what it becomes when saved, and a note to preview it with.
 */
import type { CardTemplate, NoteType } from "@engram/core";

export interface FieldDraft {
  /** Stable across renames and moves, for React and the inputs' ids. */
  key: string;
  name: string;
  /** Its name as stored; null for a field added here. */
  stored: string | null;
}

export interface NoteTypeDraft {
  name: string;
  fields: FieldDraft[];
  templates: CardTemplate[];
  css: string;
}

let nextKey = 0;
const newKey = () => `field-${++nextKey}`;

export function draftOf(type: NoteType): NoteTypeDraft {
  return {
    name: type.name,
    fields: type.fields.map((name) => ({ key: newKey(), name, stored: name })),
    templates: type.templates.map((template) => ({ ...template })),
    css: type.css,
  };
}

export function addedField(name: string): FieldDraft {
  return { key: newKey(), name, stored: null };
}

/** The note type the draft describes, as the preview draws it and the save sends it. */
export function noteTypeOf(draft: NoteTypeDraft, kind: NoteType["kind"]): NoteType {
  return {
    name: draft.name.trim(),
    kind,
    fields: draft.fields.map((field) => field.name.trim()),
    templates: draft.templates,
    css: draft.css,
  };
}

/** Whether saving the draft would add, drop, rename or reorder fields, which rewrites every note of the type. */
export function changesFields(draft: NoteTypeDraft, stored: NoteType): boolean {
  const names = draft.fields.map((field) => field.name.trim());
  return names.length !== stored.fields.length || names.some((name, index) => name !== stored.fields[index]);
}

/**
 * The fields of the note the preview shows: a real note's values under their
 * (possibly renamed) fields, or each field's own name in brackets, so every
 * replacement shows on the card.
 */
export function previewFields(draft: NoteTypeDraft, note?: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const field of draft.fields) {
    const name = field.name.trim();
    if (name === "") continue;
    const value = note && field.stored !== null ? note[field.stored] : undefined;
    fields[name] = typeof value === "string" && value !== "" ? value : `(${name})`;
  }
  return fields;
}

/** "fields.2" → the key of field 2, "templates.0.front" → "template-0-front": the form's control names ("" for none). */
export function controlName(path: string, draft: NoteTypeDraft): string {
  const [head, index, part] = path.split(".");
  if (head === "fields" && index !== undefined) {
    const field = draft.fields[Number(index)];
    return field ? field.key : "fields";
  }
  if (head === "templates" && index !== undefined) return part ? `template-${index}-${part}` : `template-${index}-name`;
  // Anything else about the whole type (its kind, its templates as a set) goes in the summary alone.
  return head === "name" || head === "css" || head === "fields" ? head : "";
}
