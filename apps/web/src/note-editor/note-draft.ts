/** The note being written, the input it becomes, and what core's rules (or the server) say is wrong with it. */
import { type Note, type NoteKind, noteInputSchema } from "@engram/core";
import type { FormErrors } from "../forms/form-errors.js";
import { errorMessage, fieldErrors } from "../lib/error-messages.js";
import { splitTags } from "./tags-input.js";

export interface NoteDraft {
  kind: NoteKind;
  /** Front (basic kinds) or Text (cloze), as HTML. */
  first: string;
  /** Back (basic kinds) or Extra (cloze), as HTML. */
  second: string;
  tags: string[];
  /** Typed in the tags box but not yet a chip; saved as tags too. */
  pendingTag: string;
}

export const kindLabels: Record<NoteKind, string> = {
  basic: "Basic",
  basic_reversed: "Basic and reversed",
  cloze: "Cloze",
};

/** The fields' names and labels for a kind, in order. */
export function fieldsOf(kind: NoteKind) {
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
  return draft.kind === "cloze"
    ? { kind: "cloze", fields: { text: draft.first, extra: draft.second } }
    : { kind: draft.kind, fields: { front: draft.first, back: draft.second } };
}

export function draftInput(draft: NoteDraft) {
  return { ...draftNote(draft), tags: [...draft.tags, ...splitTags(draft.pendingTag)] };
}

export const formFields = ["front", "back", "text", "extra", "tags"] as const;

/** "fields.front" → "front", "tags.3" → "tags": the form's own field names. */
function formField(path: string): string {
  const [head, next] = path.split(".");
  return head === "fields" && next ? next : (head ?? "");
}

function collect(entries: Iterable<[string, string]>): FormErrors {
  const fields: Record<string, string> = {};
  for (const [path, message] of entries) {
    const field = formField(path);
    if ((formFields as readonly string[]).includes(field)) fields[field] ??= message;
  }
  // In the order the form shows them, so the summary reads top to bottom.
  const summary = formFields.filter((field) => fields[field]).map((field) => ({ field, message: fields[field] ?? "" }));
  return { fields, summary };
}

/** Core's note rules (docs/product.md §5) checked before anything is sent. */
export function checkDraft(draft: NoteDraft): FormErrors | null {
  const result = noteInputSchema.safeParse(draftInput(draft));
  if (result.success) return null;
  const errors = collect(result.error.issues.map((issue) => [issue.path.map(String).join("."), issue.message]));
  return errors.summary.length > 0
    ? errors
    : { fields: {}, summary: [{ message: result.error.issues[0]?.message ?? "" }] };
}

/** A refused save: the server's field messages beside the same fields, anything else in the summary. */
export function saveErrors(error: unknown): FormErrors {
  const errors = collect(Object.entries(fieldErrors(error)));
  return errors.summary.length > 0 ? errors : { fields: {}, summary: [{ message: errorMessage(error) }] };
}
