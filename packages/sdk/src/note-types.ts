/**
 * A deck's note types (Anki's note types): list, read, add (given, from a
 * stock type or as a copy of one), change with the version they were loaded
 * at, and remove when no note uses them. Custom notes take their fields and
 * cards from one; the database keeps them in step.
 */
import { builtInNoteTypes, type CardTemplate, type NoteType, validateNoteType } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "./database.types.js";
import { refuseDeck } from "./deck-access.js";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

/** A stored note type: its row, with templates typed. */
export type DeckNoteType = Omit<Tables<"note_types">, "templates"> & { templates: CardTemplate[] };
export type NoteTypeInput = NoteType & { sourceId?: number | null };
/** Anki's stock note types, by the names `builtInNoteTypes` gives them. */
export type StockNoteType = keyof typeof builtInNoteTypes;
/** A new note type named `name`: Anki's stock type `from`, or a copy of the note type whose id is `from`. */
export interface NoteTypeFrom {
  deckId: string;
  from: StockNoteType | string;
  name: string;
}

export interface NoteTypeUpdateOptions {
  /** Delete the cards the change would no longer make, with their schedules (else `note-type/in-use`, `detail` `{ cards, schedules }`). */
  deleteCards?: boolean;
  /** Drop fields that hold text in some note (else `note-type/in-use`, `detail` `{ field, notes }`). */
  discardText?: boolean;
  /**
   * For each field of the new list, the index of the stored field it continues
   * (its text in every note goes with it, whatever its new name or place), or
   * null for a new, empty field. Without it a field continues the stored field
   * of its name.
   */
  fieldMap?: (number | null)[];
  /**
   * For each template of the new list, the index of the stored template it
   * continues (its cards and their schedules go with it), or null for a new
   * one. Without it a template continues the stored one at its place.
   */
  templateMap?: (number | null)[];
}

const deckIdSchema = z.guid("Unknown deck.");
const noteTypeIdSchema = z.guid("Unknown note type.");
const versionSchema = z.int("Unknown note type version.").check(z.gte(1, "Unknown note type version."));
const mapSchema = z.optional(z.array(z.nullable(z.int().check(z.gte(0)))).check(z.maxLength(100)));
const stockNames = Object.keys(builtInNoteTypes);

function checked(input: unknown): NoteType {
  const result = validateNoteType(input);
  if (result.ok) return result.noteType;
  const issues = result.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message }));
  throw new EngramError("validation", issues[0]?.message ?? "Invalid note type.", {
    field: issues[0]?.field || undefined,
    detail: issues,
  });
}

/** The database's refusals in this resource's words: a type in use, or changed since it was loaded. */
function renamed(error: unknown): never {
  if (error instanceof EngramError && error.code === "conflict") {
    throw new EngramError("note-type/in-use", error.message, { detail: error.detail, cause: error.cause });
  }
  if (error instanceof EngramError && error.code === "note/conflict") {
    throw new EngramError("note-type/conflict", "This note type changed since it was loaded.", {
      detail: error.detail,
      cause: error.cause,
    });
  }
  throw error;
}

const row = (data: Tables<"note_types">): DeckNoteType => data as DeckNoteType;

/** A deck and the decks above it, nearest first, as far as the user can see (a tree is at most 10 deep). */
async function deckAndAncestors(supabase: EngramClient, deckId: string): Promise<string[]> {
  const chain = [deckId];
  for (let depth = 0; depth < 10; depth++) {
    const [deck] = await run(
      supabase
        .from("decks")
        .select("parent_id")
        .eq("id", chain[chain.length - 1] ?? ""),
    );
    if (!deck?.parent_id || chain.includes(deck.parent_id)) break;
    chain.push(deck.parent_id);
  }
  return chain;
}

/** What a new note type starts from: a stock type, or a note type the user can see, under the new name. */
async function origin(supabase: EngramClient, { from, name }: NoteTypeFrom): Promise<NoteType> {
  if (stockNames.includes(from)) return { ...builtInNoteTypes[from as StockNoteType], name };
  const id = validate(noteTypeIdSchema, from);
  const source = row(await run(supabase.from("note_types").select("*").eq("id", id).single()));
  return { name, kind: source.kind, fields: source.fields, templates: source.templates, css: source.css };
}

export function createNoteTypes(supabase: EngramClient) {
  return {
    /**
     * A deck's own note types, by name; with `inherited`, also those of its
     * ancestor decks, which its notes may use too (nearest deck first).
     */
    async list(deckId: string, options: { inherited?: boolean } = {}): Promise<DeckNoteType[]> {
      const id = validate(deckIdSchema, deckId);
      const deckIds = options.inherited ? await deckAndAncestors(supabase, id) : [id];
      const found = await run(supabase.from("note_types").select("*").in("deck_id", deckIds).order("name").order("id"));
      const depth = new Map(deckIds.map((deck, index) => [deck, index]));
      const rows = found.sort((a, b) => (depth.get(a.deck_id) ?? 0) - (depth.get(b.deck_id) ?? 0));
      if (rows.length === 0) {
        const visible = await run(supabase.from("decks").select("id").eq("id", id));
        if (visible.length === 0) {
          throw new EngramError("not-found", "This deck does not exist or is not shared with you.");
        }
      }
      return rows.map(row);
    },

    /** One note type the user can see; `not-found` otherwise. */
    async get(noteTypeId: string): Promise<DeckNoteType> {
      const id = validate(noteTypeIdSchema, noteTypeId);
      return row(await run(supabase.from("note_types").select("*").eq("id", id).single()));
    },

    /**
     * Adds a note type to a deck (owners and editors): the one given, or, with
     * `{ deckId, from, name }`, Anki's stock type `from` ("basic", "cloze" …)
     * or a copy of the note type whose id is `from`, under a new name. Anki's
     * rules are checked first (`validation` with the field).
     */
    async create(deckOrFrom: string | NoteTypeFrom, given?: NoteTypeInput): Promise<DeckNoteType> {
      const [deckId, input] =
        typeof deckOrFrom === "string" ? [deckOrFrom, given] : [deckOrFrom.deckId, await origin(supabase, deckOrFrom)];
      const id = validate(deckIdSchema, deckId);
      const type = checked(input);
      await currentUserId(supabase);
      const inserted = await run<Tables<"note_types">>(
        supabase
          .from("note_types")
          .insert({ deck_id: id, ...type })
          .select("*")
          .single(),
      ).catch(async (error: unknown) => {
        if (error instanceof EngramError && error.code === "permission-denied") {
          await refuseDeck(supabase, id, "Only the deck's owner and editors can add note types to it.");
        }
        throw error;
      });
      return row(inserted);
    },

    /**
     * Changes a note type (owners and editors), stating the `version` it was
     * loaded at: if it changed since, nothing is saved (`note-type/conflict`,
     * `detail` = the current `{ version }`). Notes of the type keep the fields
     * that stay and gain new ones empty; cards a template now makes are added.
     * `fieldMap` and `templateMap` say where each field and template came
     * from, so renamed and moved fields keep their text and moved templates
     * their cards, as in Anki's Fields and Cards dialogs. A change that would
     * delete cards fails with `note-type/in-use` (`detail` `{ cards, schedules }`:
     * how many, and how many studied schedules go with them) unless
     * `deleteCards`; dropping a field that holds text in a note fails with
     * `note-type/in-use` (`detail` `{ field, notes }`) unless `discardText`.
     */
    async update(
      noteTypeId: string,
      version: number,
      patch: Partial<NoteType>,
      options: NoteTypeUpdateOptions = {},
    ): Promise<DeckNoteType> {
      const id = validate(noteTypeIdSchema, noteTypeId);
      const loaded = validate(versionSchema, version);
      const fieldMap = validate(mapSchema, options.fieldMap);
      const templateMap = validate(mapSchema, options.templateMap);
      const current = await this.get(id);
      const { name, kind, fields, templates, css } = { ...current, ...patch };
      if (kind !== current.kind) {
        throw new EngramError("validation", "A note type stays standard or cloze.", { field: "kind" });
      }
      const type = checked({ name, kind, fields, templates, css });
      const updated = await run<Tables<"note_types">>(
        supabase
          .rpc("update_note_type", {
            p_note_type_id: id,
            p_version: loaded,
            p_name: type.name,
            p_fields: type.fields,
            p_templates: type.templates,
            p_css: type.css,
            p_delete_cards: options.deleteCards ?? false,
            p_discard_text: options.discardText ?? false,
            // null (not absent) in the maps stands for a new field or template.
            ...(fieldMap ? { p_field_map: fieldMap as number[] } : {}),
            ...(templateMap ? { p_template_map: templateMap as number[] } : {}),
          })
          .single(),
      ).catch(renamed);
      return row(updated);
    },

    /** Removes a note type no note uses (owners and editors); `note-type/in-use` (`detail` `{ notes }`) otherwise. */
    async remove(noteTypeId: string): Promise<void> {
      const id = validate(noteTypeIdSchema, noteTypeId);
      await currentUserId(supabase);
      const deleted = await run(supabase.from("note_types").delete().eq("id", id).select("id, deck_id")).catch(renamed);
      if (deleted.length > 0) return;
      const type = await this.get(id);
      await refuseDeck(supabase, type.deck_id, "Only the deck's owner and editors can remove its note types.");
      throw new EngramError("not-found", "This note type no longer exists.");
    },
  };
}
