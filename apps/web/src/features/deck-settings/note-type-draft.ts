/**
 * A note type being edited on the settings screen: its name, ordered fields,
 * templates and CSS, what it becomes when saved (with where each field and
 * template came from, so notes keep their text and cards their schedules),
 * and a note to preview it with.
 */
import { type CardTemplate, type NoteType, renameFieldInTemplates } from "@engram/core";

export interface FieldDraft {
  /** Stable across renames and moves, for React and the inputs' ids. */
  key: string;
  name: string;
  /** Its name as stored; null for a field added here. */
  stored: string | null;
}

export interface TemplateDraft extends CardTemplate {
  /** Stable across moves, for React. */
  key: string;
  /** Its index as stored; null for a template added here. */
  stored: number | null;
}

export interface NoteTypeDraft {
  name: string;
  fields: FieldDraft[];
  templates: TemplateDraft[];
  css: string;
}

let nextKey = 0;
const newKey = (kind: string) => `${kind}-${++nextKey}`;

export function draftOf(type: NoteType): NoteTypeDraft {
  return {
    name: type.name,
    fields: type.fields.map((name) => ({ key: newKey("field"), name, stored: name })),
    templates: type.templates.map((template, index) => ({
      key: newKey("template"),
      name: template.name,
      front: template.front,
      back: template.back,
      stored: index,
    })),
    css: type.css,
  };
}

export function addedField(name: string): FieldDraft {
  return { key: newKey("field"), name, stored: null };
}

/** A new template: a copy of `from`, named "Card N" after the first free number from the count it makes. */
export function addedTemplate(from: CardTemplate, templates: readonly CardTemplate[]): TemplateDraft {
  const names = new Set(templates.map((template) => template.name));
  let number = templates.length + 1;
  while (names.has(`Card ${number}`)) number++;
  return { key: newKey("template"), name: `Card ${number}`, front: from.front, back: from.back, stored: null };
}

/**
 * The templates with a field's references following it, as Anki's Fields
 * dialog does: renamed from `from` to `to`, or dropped (their sections
 * opened) when `to` is null. A blank new name, or one another field has,
 * changes nothing yet.
 */
export function followFieldName(draft: NoteTypeDraft, from: string, to: string | null): TemplateDraft[] {
  const target = to?.trim() ?? null;
  if (target === from || target === "") return draft.templates;
  if (target !== null && draft.fields.filter((field) => field.name.trim() === target).length > 1)
    return draft.templates;
  return renameFieldInTemplates(draft.templates, new Map([[from, target]]));
}

/** The note type the draft describes, as the preview draws it and the save sends it. */
export function noteTypeOf(draft: NoteTypeDraft, kind: NoteType["kind"]): NoteType {
  return {
    name: draft.name.trim(),
    kind,
    fields: draft.fields.map((field) => field.name.trim()),
    templates: draft.templates.map(({ name, front, back }) => ({ name, front, back })),
    css: draft.css,
  };
}

/** Where each field and template of the draft came from: its index as stored, or null for a new one. */
export function mapsOf(
  draft: NoteTypeDraft,
  stored: NoteType,
): { fieldMap: (number | null)[]; templateMap: (number | null)[] } {
  return {
    fieldMap: draft.fields.map((field) => (field.stored === null ? null : stored.fields.indexOf(field.stored))),
    templateMap: draft.templates.map((template) => template.stored),
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
