/**
 * Saving an edited note without losing anyone's change (docs/product.md §2).
 * The draft starts from `base`; when the note is newer than that (seen live,
 * or told by a refused save), the user's changes are merged with the newer
 * version field by field: without a conflict it is saved at once against the
 * newer version; a field both changed waits for the user's choice. A save
 * that races yet another change merges again.
 */
import type { Note } from "@engram/sdk";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { FormErrors } from "../forms/form-errors.js";
import { errorCode } from "../lib/error-messages.js";
import { useEngramMutations } from "../session/mutations.js";
import {
  describeChanges,
  draftNoteValues,
  fieldLabel,
  listOf,
  mergeDraft,
  sameShape,
  storedNote,
} from "./co-editing.js";
import type { ConflictChoice } from "./field-conflict.js";
import { draftInput, type NoteDraft, saveErrors } from "./note-draft.js";

/** A merge that needs the user: fields both sides changed, with both versions. */
export interface Conflict {
  author: string;
  /** Stored field names, in the editor's order. */
  fields: string[];
  mine: Record<string, string>;
  theirs: Record<string, string>;
  choices: Record<string, ConflictChoice>;
}

/** A save refused this often in a row, each time after a merge, stops and says so. */
const maxMerges = 3;

/** The note being edited: as loaded, as it is now, and who made a version. */
export interface EditingNote {
  noteId: string;
  /** The note as the editor loaded it: the draft starts from it. */
  loaded: Note;
  /** The note as it is now, kept current by live updates. */
  latest: Note | undefined;
  refetchLatest: () => Promise<Note | undefined>;
  /** Who made a version: a member's name, or "Another member". */
  authorOf: (note: Note) => string;
}

interface MergedSaveHandlers {
  setDraft: (draft: NoteDraft) => void;
  setErrors: (errors: FormErrors) => void;
  /** A change merging cannot take (the note's type changed): only reloading helps. */
  setStale: (stale: boolean) => void;
  onSaved: (noteId: string, notice?: string) => void;
}

export function useMergedSave(editing: EditingNote | undefined, handlers: MergedSaveHandlers) {
  const { setDraft, setErrors, setStale, onSaved } = handlers;
  const update = useMutation(useEngramMutations().notes.update());
  const [base, setBase] = useState(editing?.loaded);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [merging, setMerging] = useState(false);
  // Bumped per field (stored name) when a merge replaces its value: its editor starts again from the new one.
  const [revisions, setRevisions] = useState<Record<string, number>>({});
  const bump = (fields: string[]) =>
    setRevisions((current) => ({ ...current, ...Object.fromEntries(fields.map((f) => [f, (current[f] ?? 0) + 1])) }));

  const refuse = (error: unknown, draft: NoteDraft) => {
    setErrors(saveErrors(error, draft));
    setStale(errorCode(error) === "note/conflict");
  };

  const save = async (draft: NoteDraft, against: Note, notice: string | undefined, merges: number): Promise<void> => {
    if (!editing) return;
    try {
      const note = await update.mutateAsync({
        noteId: editing.noteId,
        version: against.version,
        input: draftInput(draft),
      });
      setConflict(null);
      onSaved(note.id, notice);
    } catch (error) {
      if (errorCode(error) === "note/conflict" && merges < maxMerges) {
        const newer = await editing.refetchLatest().catch(() => undefined);
        if (newer && newer.version > against.version) return merge(draft, against, newer, merges + 1);
      }
      refuse(error, draft);
    }
  };

  const merge = async (draft: NoteDraft, from: Note, theirs: Note, merges: number): Promise<void> => {
    const author = editing?.authorOf(theirs) ?? "Another member";
    if (!sameShape(from, theirs)) {
      setErrors({
        fields: {},
        summary: [
          { message: `${author} changed this note's type meanwhile. Reload the note to edit it as it is now.` },
        ],
      });
      setStale(true);
      return;
    }
    const what = describeChanges(draft, storedNote(from), storedNote(theirs));
    const result = mergeDraft(draft, from, theirs);
    setBase(theirs);
    setDraft(result.draft);
    bump(result.replaced);
    if (result.conflicts.length === 0) {
      return save(result.draft, theirs, `Merged with ${author}'s change${what ? ` to ${what}` : ""}.`, merges);
    }
    const mine = draftNoteValues(draft).fields;
    const theirValues = storedNote(theirs).fields;
    const pick = (values: Readonly<Record<string, string>>) =>
      Object.fromEntries(result.conflicts.map((field) => [field, values[field] ?? ""]));
    setConflict({ author, fields: result.conflicts, mine: pick(mine), theirs: pick(theirValues), choices: {} });
    setErrors({
      fields: {},
      summary: [
        {
          message: `${author} saved this note while you were editing. ${listOf(result.conflicts.map((f) => fieldLabel(draft, f)))} changed on both sides: choose which version to keep, then save.`,
        },
      ],
    });
  };

  /** Saves the draft: merged first when the note is known to be newer than the draft's base. */
  const submit = async (draft: NoteDraft) => {
    if (!editing || !base) return;
    const unresolved = conflict?.fields.filter((field) => !conflict.choices[field]) ?? [];
    if (conflict && unresolved.length > 0) {
      const names = listOf(unresolved.map((field) => fieldLabel(draft, field)));
      setErrors({ fields: {}, summary: [{ message: `Choose which version of ${names} to keep before saving.` }] });
      return;
    }
    setMerging(true);
    try {
      const { latest } = editing;
      if (latest && latest.version > base.version) await merge(draft, base, latest, 0);
      else await save(draft, base, undefined, 0);
    } finally {
      setMerging(false);
    }
  };

  /** The user's choice for a conflicting field; the draft's value for it, or undefined to keep what the draft has. */
  const choose = (field: string, choice: ConflictChoice): string | undefined => {
    if (!conflict) return undefined;
    // "Take theirs" after "Edit" ends the editing: the field holds theirs.
    setConflict({ ...conflict, choices: { ...conflict.choices, [field]: choice } });
    if (choice === "theirs") {
      bump([field]);
      return conflict.theirs[field] ?? "";
    }
    return undefined;
  };

  return {
    base,
    conflict,
    saving: merging || update.isPending,
    revision: (field: string) => revisions[field] ?? 0,
    /** Every field's replacements together: for an editor that holds several fields (image occlusion). */
    revisions: Object.values(revisions).reduce((sum, count) => sum + count, 0),
    choose,
    submit,
  };
}
