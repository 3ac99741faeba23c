/** The note being written, the input it becomes, and what core's rules (or the server) say is wrong with it. */
import {
  customFieldsSchema,
  limits,
  type Note,
  type NoteKind,
  type NoteType,
  noteInputSchema,
  tagsSchema,
} from "@engram/core";
import type { DeckNoteType } from "@engram/sdk";
import { z } from "zod/mini";
import type { FormErrors } from "../forms/form-errors.js";
import { errorMessage, fieldErrors } from "../lib/error-messages.js";
import { splitTags } from "./tags-input.js";

/** The kinds of note this editor writes: the built-in ones, and notes of the deck's own note types. */
export const builtInKinds = [
  "basic",
  "basic_reversed",
  "cloze",
  "type_in",
  "image_occlusion",
] as const satisfies readonly NoteKind[];
export type BuiltInKind = (typeof builtInKinds)[number];
export type EditorKind = BuiltInKind | "custom";

export function isEditorKind(kind: string): kind is EditorKind {
  return kind === "custom" || (builtInKinds as readonly string[]).includes(kind);
}

export interface NoteDraft {
  kind: EditorKind;
  /** Front (basic kinds) or Text (cloze), as HTML. */
  first: string;
  /** Back (basic kinds) or Extra (cloze), as HTML. */
  second: string;
  /** A custom note's type, as the deck stores it. */
  noteType: DeckNoteType | null;
  /** A custom note's fields by name, as HTML. */
  fields: Record<string, string>;
  tags: string[];
  /** Typed in the tags box but not yet a chip; saved as tags too. */
  pendingTag: string;
}

export const kindLabels: Record<EditorKind, string> = {
  basic: "Basic",
  basic_reversed: "Basic and reversed",
  cloze: "Cloze",
  type_in: "Basic (type in the answer)",
  image_occlusion: "Image occlusion",
  custom: "Custom",
};

/** What the kind choice holds: a built-in kind, or one of the deck's note types by id. */
export type KindValue = BuiltInKind | `type:${string}`;

export function kindValue(draft: Pick<NoteDraft, "kind" | "noteType">): KindValue {
  return draft.kind === "custom" && draft.noteType ? `type:${draft.noteType.id}` : (draft.kind as BuiltInKind);
}

/** The note type's name, or the built-in kind's. */
export function typeLabel(draft: Pick<NoteDraft, "kind" | "noteType">): string {
  return draft.kind === "custom" && draft.noteType ? draft.noteType.name : kindLabels[draft.kind];
}

/** A stored note type as core draws it. */
export function coreNoteType(type: DeckNoteType): NoteType {
  return { name: type.name, kind: type.kind, fields: type.fields, templates: type.templates, css: type.css };
}

/** A custom note's fields for a type: what is kept under the same names, the rest empty. */
export function fieldsFor(type: DeckNoteType, from: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(type.fields.map((name) => [name, from[name] ?? ""]));
}

/** The form's name for a custom note's field: by position, since a field's name may hold any character. */
export const customFieldName = (index: number) => `field-${index}`;

/** The fields' names and labels for a built-in kind, in order. */
export function fieldsOf(kind: EditorKind) {
  return kind === "cloze"
    ? ([
        { name: "text", label: "Text" },
        { name: "extra", label: "Extra" },
      ] as const)
    : ([
        { name: "front", label: "Front" },
        { name: "back", label: "Back" },
      ] as const);
}

export function draftNote(draft: NoteDraft): Note {
  if (draft.kind === "custom" && draft.noteType) {
    return { kind: "custom", fields: draft.fields, noteType: coreNoteType(draft.noteType), tags: draftTags(draft) };
  }
  if (draft.kind === "image_occlusion") return { kind: "image_occlusion", fields: occlusionFields(draft.fields) };
  if (draft.kind === "cloze") return { kind: "cloze", fields: { text: draft.first, extra: draft.second } };
  // A custom draft always has its type; were it missing, the fields read as a basic note's.
  const kind = draft.kind === "custom" ? "basic" : draft.kind;
  return { kind, fields: { front: draft.first, back: draft.second } };
}

/** An image occlusion draft keeps its fields in `fields` under their stored names. */
function occlusionFields(fields: Record<string, string>) {
  const { image = "", occlusions = "", header = "", back_extra = "", comments = "" } = fields;
  return { image, occlusions, header, back_extra, comments };
}

const draftTags = (draft: NoteDraft) => [...draft.tags, ...splitTags(draft.pendingTag)];

export function draftInput(draft: NoteDraft) {
  if (draft.kind === "custom" && draft.noteType) {
    return { kind: "custom" as const, noteTypeId: draft.noteType.id, fields: draft.fields, tags: draftTags(draft) };
  }
  const { noteType: _type, ...note } = draftNote(draft) as Note & { noteType?: unknown };
  return { ...note, tags: draftTags(draft) } as Exclude<Note, { kind: "custom" }> & { tags: string[] };
}

const builtInFields = ["front", "back", "text", "extra", "image", "occlusions", "header", "back_extra"] as const;

/** The form's fields in the order it shows them, so the summary reads top to bottom. */
function formFields(draft: NoteDraft): string[] {
  const fields =
    draft.kind === "custom" && draft.noteType
      ? draft.noteType.fields.map((_, i) => customFieldName(i))
      : [...builtInFields];
  return [...fields, "tags"];
}

/** "fields.front" → "front", "fields.Back Extra" → "field-1", "tags.3" → "tags": the form's own field names. */
function formField(path: string, draft: NoteDraft): string {
  const [head, ...rest] = path.split(".");
  const next = rest.join(".");
  if (head !== "fields" || !next) return head ?? "";
  if (draft.kind !== "custom" || !draft.noteType) return next;
  const index = draft.noteType.fields.indexOf(next);
  return index < 0 ? "" : customFieldName(index);
}

function collect(entries: Iterable<[string, string]>, draft: NoteDraft): FormErrors {
  const order = formFields(draft);
  const fields: Record<string, string> = {};
  for (const [path, message] of entries) {
    const field = formField(path, draft);
    if (order.includes(field)) fields[field] ??= message;
  }
  const summary = order.filter((field) => fields[field]).map((field) => ({ field, message: fields[field] ?? "" }));
  return { fields, summary };
}

/** A custom note as core's rules check it: exactly its type's fields, each within the length limit, and the tag rules. */
function customNoteSchema(type: DeckNoteType) {
  return z.object({ fields: customFieldsSchema(type, limits.fieldLength), tags: tagsSchema });
}

/** Core's note rules (docs/product.md §5) checked before anything is sent. */
export function checkDraft(draft: NoteDraft): FormErrors | null {
  const input = draftInput(draft);
  const schema = draft.kind === "custom" && draft.noteType ? customNoteSchema(draft.noteType) : noteInputSchema;
  const result = schema.safeParse(input);
  if (result.success) return null;
  const errors = collect(
    result.error.issues.map((issue) => [issue.path.map(String).join("."), issue.message]),
    draft,
  );
  return errors.summary.length > 0
    ? errors
    : { fields: {}, summary: [{ message: result.error.issues[0]?.message ?? "" }] };
}

/** A refused save: the server's field messages beside the same fields, anything else in the summary. */
export function saveErrors(error: unknown, draft: NoteDraft): FormErrors {
  const errors = collect(Object.entries(fieldErrors(error)), draft);
  return errors.summary.length > 0 ? errors : { fields: {}, summary: [{ message: errorMessage(error) }] };
}
