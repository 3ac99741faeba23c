/**
 * `engram.personalNotes`: the signed-in user's own layer on a note — their
 * tags and "My notes" — on any note of a deck they can read, a shared one
 * included. Nobody else sees it, and it is saved apart from the note, so it
 * never conflicts with anyone's edit of the note (docs/product.md §3).
 */
import { limits, tagsSchema } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "./database.types.js";
import { run, runAllPages, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

/** The user's tags and My notes (plain text) on one note. */
export type PersonalNote = Pick<Tables<"personal_notes">, "note_id" | "deck_id" | "tags" | "text" | "updated_at">;

export interface PersonalNoteInput {
  tags?: string[];
  /** Plain text, shown as text (never as HTML); at most 20,000 characters. */
  text?: string;
}

const columns = "note_id, deck_id, tags, text, updated_at";
/** The user's own tag that marks a note, as Anki's "mark note" does. */
export const markedTag = "marked";
const noteIdSchema = z.guid("Unknown note.");
const deckIdSchema = z.guid("Unknown deck.");
const inputSchema = z.object({
  tags: z._default(tagsSchema, []),
  text: z._default(
    z
      .string({ error: "My notes must be text." })
      .check(z.maxLength(limits.fieldLength, `Use at most ${limits.fieldLength} characters.`)),
    "",
  ),
});

export function createPersonalNotes(supabase: EngramClient) {
  return {
    /** The user's layer on a note, or null when they have none there. */
    async get(noteId: string): Promise<PersonalNote | null> {
      const id = validate(noteIdSchema, noteId);
      const userId = await currentUserId(supabase);
      return run<PersonalNote | null>(
        supabase.from("personal_notes").select(columns).eq("user_id", userId).eq("note_id", id).maybeSingle(),
      );
    },

    /**
     * The user's layer on every note of a deck that has one. RLS gives each
     * user only their own rows, so this needs no session of its own and runs
     * as well on a client made from an access token (exports do).
     */
    async listForDeck(deckId: string): Promise<PersonalNote[]> {
      const id = validate(deckIdSchema, deckId);
      return runAllPages<PersonalNote>((from, to) =>
        supabase.from("personal_notes").select(columns).eq("deck_id", id).order("note_id").range(from, to),
      );
    },

    /**
     * Replaces the user's tags and My notes on a note. No tags and blank text
     * remove them: the result is then null. Throws `validation` for bad tags or
     * text, `not-found` for a note the user cannot read.
     */
    async save(noteId: string, input: PersonalNoteInput): Promise<PersonalNote | null> {
      const id = validate(noteIdSchema, noteId);
      const { tags, text } = validate(inputSchema, input);
      await currentUserId(supabase);
      const rows = await run<PersonalNote[]>(
        supabase.rpc("save_personal_note", { p_note_id: id, p_tags: tags, p_text: text }).select(columns),
      );
      return rows[0] ?? null;
    },

    /**
     * Marks the note for the user (Anki's "mark note": their own tag `marked`)
     * or unmarks it, keeping their other tags and My notes. Returns the layer
     * as saved (null when nothing is left in it).
     */
    async setMarked(noteId: string, marked: boolean): Promise<PersonalNote | null> {
      const id = validate(noteIdSchema, noteId);
      const value = validate(z.boolean({ error: "Marked must be true or false." }), marked);
      const userId = await currentUserId(supabase);
      const current = await run<Pick<PersonalNote, "tags" | "text"> | null>(
        supabase.from("personal_notes").select("tags, text").eq("user_id", userId).eq("note_id", id).maybeSingle(),
      );
      const others = (current?.tags ?? []).filter((tag) => tag.toLowerCase() !== markedTag);
      const tags = value ? [...others, markedTag] : others;
      const rows = await run<PersonalNote[]>(
        supabase
          .rpc("save_personal_note", { p_note_id: id, p_tags: tags, p_text: current?.text ?? "" })
          .select(columns),
      );
      return rows[0] ?? null;
    },

    /** Removes the user's tags and My notes from a note; nothing happens when there are none. */
    async clear(noteId: string): Promise<void> {
      const id = validate(noteIdSchema, noteId);
      const userId = await currentUserId(supabase);
      await run(supabase.from("personal_notes").delete().eq("user_id", userId).eq("note_id", id));
    },
  };
}
