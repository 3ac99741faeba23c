/**
 * Find and replace across notes, as Anki's browser does it (docs/product.md §2):
 * `preview` works out each note's new fields with @engram/core's `findReplace`
 * and counts what would change; `apply` sends them, with the version each was
 * computed from, to `replace_in_notes`, which changes all the notes or none.
 */
import { FindReplaceError, type FindReplaceOptions, findPattern, findReplace } from "@engram/core";
import { z } from "zod/mini";
import { EngramError } from "./errors.js";
import { maxBulkNotes, type Note } from "./notes.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

export type { FindReplaceOptions };

/** One note's new fields, from the version they were computed from. */
export interface NoteReplacement {
  id: string;
  version: number;
  /** Every field of the note, with the replacement made. */
  fields: Record<string, string>;
  /** The names of the fields that change. */
  changed: string[];
}

export interface FindReplacePreview {
  /** The notes that would change (those that would not are left out). */
  changes: NoteReplacement[];
  /** How many notes were searched. */
  searched: number;
  /** How many notes, and fields over them, would change. */
  noteCount: number;
  fieldCount: number;
}

const noteIdsSchema = z.pipe(
  z
    .array(z.guid("Unknown note."))
    .check(
      z.minLength(1, "Choose at least one note."),
      z.maxLength(maxBulkNotes, `Choose at most ${maxBulkNotes} notes at once.`),
    ),
  z.transform((ids: string[]) => [...new Set(ids)]),
);
const optionsSchema = z.object({
  find: z.string().check(z.minLength(1, "Type what to find."), z.maxLength(1000, "Find at most 1,000 characters.")),
  replace: z.string().check(z.maxLength(20000, "Replace with at most 20,000 characters.")),
  regex: z._default(z.boolean(), false),
  matchCase: z._default(z.boolean(), false),
  field: z._default(z.nullable(z.string().check(z.minLength(1), z.maxLength(100))), null),
});

// An image occlusion note's image and shapes are not text to search.
const notSearched: Partial<Record<Note["kind"], readonly string[]>> = { image_occlusion: ["image", "occlusions"] };

/** The options checked, the pattern included: a pattern that does not parse is a `validation` error on `find`. */
function checkedOptions(options: FindReplaceOptions): FindReplaceOptions {
  const checked = validate(optionsSchema, options);
  try {
    findPattern(checked);
  } catch (error) {
    if (error instanceof FindReplaceError)
      throw new EngramError("validation", error.message, { field: "find", cause: error });
    throw error;
  }
  return checked;
}

/** A note as find and replace reads it: its fields and the version they are at. */
export type ReplaceableNote = Pick<Note, "id" | "version" | "kind"> & { fields: Record<string, string> };

/** The names of the fields find and replace searches in these notes, in the order first met. */
export function replaceableFieldNames(notes: readonly ReplaceableNote[]): string[] {
  const names = new Set<string>();
  for (const note of notes) {
    const skipped = notSearched[note.kind] ?? [];
    for (const name of Object.keys(note.fields)) if (!skipped.includes(name)) names.add(name);
  }
  return [...names];
}

/**
 * What replacing in these notes would change; pure, so a form can show it as
 * the user types. Throws `validation` (on `find`) for a pattern that does not parse.
 */
export function previewReplace(notes: readonly ReplaceableNote[], options: FindReplaceOptions): FindReplacePreview {
  const checked = checkedOptions(options);
  const changes: NoteReplacement[] = [];
  for (const note of notes) {
    const skipped = notSearched[note.kind] ?? [];
    const searched = Object.fromEntries(Object.entries(note.fields).filter(([name]) => !skipped.includes(name)));
    const result = findReplace(searched, checked);
    if (result.changed.length > 0) {
      changes.push({
        id: note.id,
        version: note.version,
        fields: { ...note.fields, ...result.fields },
        changed: result.changed,
      });
    }
  }
  return {
    changes,
    searched: notes.length,
    noteCount: changes.length,
    fieldCount: changes.reduce((sum, change) => sum + change.changed.length, 0),
  };
}

export function createFindReplace(supabase: EngramClient) {
  /** The notes as they are now, each with its version; `not-found` when any is missing or hidden. */
  async function load(noteIds: string[]): Promise<ReplaceableNote[]> {
    const ids = validate(noteIdsSchema, noteIds);
    await currentUserId(supabase);
    const notes = await run(supabase.from("notes").select("id, version, kind, fields").in("id", ids));
    if (notes.length < ids.length) {
      throw new EngramError("not-found", "Some of these notes do not exist or are not shared with you.", {
        field: "note_ids",
      });
    }
    return notes.map((note) => ({ ...note, fields: note.fields as Record<string, string> }));
  }

  return {
    load,

    /**
     * What replacing in these notes would change, computed from the notes as
     * they are now; nothing is written. `find` is text, or a JavaScript regular
     * expression with `regex` (`$1` in `replace` for its first group); `field`
     * limits it to one field by name. Only text outside markup is searched.
     */
    async preview(noteIds: string[], options: FindReplaceOptions): Promise<FindReplacePreview> {
      checkedOptions(options);
      return previewReplace(await load(noteIds), options);
    },

    /**
     * Makes a preview's changes, all or none: `note/conflict` (nothing
     * changed; `detail.notes` names each stale note) when any note changed
     * since the preview, `permission-denied` unless the caller edits every
     * note's deck. Returns how many notes changed.
     */
    async apply(preview: Pick<FindReplacePreview, "changes">): Promise<number> {
      if (preview.changes.length === 0) return 0;
      if (preview.changes.length > maxBulkNotes) {
        throw new EngramError("validation", `Replace in at most ${maxBulkNotes} notes at once.`, { field: "note_ids" });
      }
      await currentUserId(supabase);
      const changed = await run(
        supabase
          .rpc("replace_in_notes", {
            p_changes: preview.changes.map(({ id, version, fields }) => ({ id, version, fields })),
          })
          .select("id"),
      );
      return changed.length;
    },
  };
}
