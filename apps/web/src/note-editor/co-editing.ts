/**
 * A note edited by several people at once (docs/product.md §2): the draft as
 * core's merge reads it, a merge's result put back into the draft, and the
 * words for what someone else changed.
 */
import { type MergeableNote, mergeNote } from "@engram/core";
import type { Note } from "@engram/sdk";
import { draftInput, fieldsOf, type NoteDraft } from "./note-draft.js";

/** A stored note's fields and tags as the merge reads them. */
export function storedNote(note: Pick<Note, "fields" | "tags">): MergeableNote {
  const fields = (note.fields ?? {}) as Record<string, unknown>;
  return {
    fields: Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [name, typeof value === "string" ? value : ""]),
    ),
    tags: note.tags ?? [],
  };
}

/** What the user is saving, under the fields' stored names. */
export function draftNoteValues(draft: NoteDraft): MergeableNote {
  const input = draftInput(draft);
  return { fields: input.fields as Record<string, string>, tags: input.tags };
}

/** The draft with the given fields (by stored name) and tags replaced; a tag still being typed is in `tags` by then. */
export function withStoredValues(draft: NoteDraft, fields: Record<string, string>, tags: string[]): NoteDraft {
  if (draft.kind === "custom" || draft.kind === "image_occlusion") {
    return { ...draft, fields: { ...draft.fields, ...fields }, tags, pendingTag: "" };
  }
  const [first, second] = fieldsOf(draft.kind);
  return {
    ...draft,
    first: fields[first.name] ?? draft.first,
    second: fields[second.name] ?? draft.second,
    tags,
    pendingTag: "",
  };
}

const occlusionLabels: Record<string, string> = {
  image: "Image",
  occlusions: "Masks",
  header: "Header",
  back_extra: "Back extra",
  comments: "Comments",
};

/** A field's name as the editor labels it. */
export function fieldLabel(draft: NoteDraft, stored: string): string {
  if (draft.kind === "custom") return stored;
  if (draft.kind === "image_occlusion") return occlusionLabels[stored] ?? stored;
  return fieldsOf(draft.kind).find((field) => field.name === stored)?.label ?? stored;
}

/** The fields (by stored name) whose value differs between two versions, in the editor's order, and whether tags did. */
export function changesBetween(before: MergeableNote, after: MergeableNote): { fields: string[]; tags: boolean } {
  const names = [...new Set([...Object.keys(after.fields), ...Object.keys(before.fields)])];
  const fields = names.filter((name) => (before.fields[name] ?? "") !== (after.fields[name] ?? ""));
  const tags = before.tags.length !== after.tags.length || before.tags.some((tag) => !after.tags.includes(tag));
  return { fields, tags };
}

/** "Back", "Front and Back", "Front, Back and tags". */
export function listOf(parts: string[]): string {
  if (parts.length <= 1) return parts[0] ?? "";
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** What changed between two versions, in the editor's words: "Back and tags". */
export function describeChanges(draft: NoteDraft, before: MergeableNote, after: MergeableNote): string {
  const { fields, tags } = changesBetween(before, after);
  return listOf([...fields.map((name) => fieldLabel(draft, name)), ...(tags ? ["tags"] : [])]);
}

export interface DraftMerge {
  draft: NoteDraft;
  /** Fields (stored names) both sides changed differently; the draft holds mine there. */
  conflicts: string[];
  /** Fields whose value the merge replaced in the draft: their editors start again from it. */
  replaced: string[];
}

/** Merges what the user typed (from `base`) with `theirs`, and puts the result into the draft. */
export function mergeDraft(draft: NoteDraft, base: Note, theirs: Note): DraftMerge {
  const mine = draftNoteValues(draft);
  const merged = mergeNote(storedNote(base), mine, storedNote(theirs));
  const replaced = Object.keys(merged.fields).filter((name) => merged.fields[name] !== (mine.fields[name] ?? ""));
  return { draft: withStoredValues(draft, merged.fields, merged.tags), conflicts: merged.conflicts, replaced };
}

/** Someone else's version can be merged field by field only when it is still the same kind of note, of the same type. */
export function sameShape(base: Note, theirs: Note): boolean {
  return base.kind === theirs.kind && base.note_type_id === theirs.note_type_id;
}
