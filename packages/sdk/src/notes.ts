/**
 * Notes in a deck: browse and search, add, edit, delete, move and tag in bulk.
 * The database generates each note's cards and keeps them in step with edits.
 */
import {
  type NoteInput as CoreNoteInput,
  noteInputSchema,
  parseSearch,
  type SearchNode,
  SearchSyntaxError,
  tagSchema,
} from "@engram/core";
import { z } from "zod/mini";
import type { Json, Tables, TablesInsert, TablesUpdate } from "./database.types.js";
import { memberRole, refuseDeck } from "./deck-access.js";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

/** A note as stored (without its computed fields: `sort_key`, which the list orders by, and the user's own tags). */
export type Note = Omit<Tables<"notes">, "sort_key" | "my_tags" | "tags_with_mine">;
export type NoteWithCards = Note & { cards: Tables<"cards">[] };
/** A note of a built-in kind, or a custom note of one of its deck's note types (`noteTypeId`) with exactly its fields. */
export type NoteInput = z.input<typeof noteInputSchema> | z.input<typeof customNoteSchema>;
/** A note as a bulk action states it: its id and the version the caller loaded. */
export type NoteVersion = Pick<Note, "id" | "version">;
/** A note as the browser lists it: with how many cards it has and the user's own tags on it. */
export type ListedNote = Note & { card_count: number; my_tags: string[] };
export interface NotePage {
  notes: ListedNote[];
  /** How many notes match, over all pages. */
  total: number;
}

/** Bulk calls take at most this many notes at once. */
export const maxBulkNotes = 500;

const deckIdSchema = z.guid("Unknown deck.");
// The fields are checked against the note type by the database (validation, field "fields").
const customNoteSchema = z.object({
  kind: z.literal("custom"),
  noteTypeId: z.guid("Choose a note type."),
  fields: z.record(z.string(), z.string({ error: "Fields are text." })),
  tags: z._default(z.array(tagSchema).check(z.maxLength(50)), []),
});

type StoredNote = Required<Pick<TablesInsert<"notes">, "kind" | "fields" | "tags">> & { note_type_id: string | null };

/** A note input as the notes table stores it. */
function stored(input: NoteInput): StoredNote {
  if ((input as { kind?: unknown }).kind === "custom") {
    const note = validate(customNoteSchema, input);
    return { kind: "custom", fields: note.fields, tags: note.tags, note_type_id: note.noteTypeId };
  }
  const note: CoreNoteInput = validate(noteInputSchema, input);
  return { kind: note.kind, fields: note.fields, tags: note.tags, note_type_id: null };
}
const noteIdSchema = z.guid("Unknown note.");
const versionSchema = z.int("Unknown note version.").check(z.gte(1, "Unknown note version."));
const noteVersionsSchema = z.pipe(
  z
    .array(z.object({ id: noteIdSchema, version: versionSchema }))
    .check(
      z.minLength(1, "Choose at least one note."),
      z.maxLength(maxBulkNotes, `Choose at most ${maxBulkNotes} notes at once.`),
    ),
  z.transform((notes: { id: string; version: number }[]) => {
    const byId = new Map(notes.map((note) => [note.id, note.version]));
    return { p_note_ids: [...byId.keys()], p_versions: [...byId.values()] };
  }),
);
/** The named orders a deck's notes can be listed in. */
export const noteSorts = ["newest", "oldest", "edited", "alphabetical"] as const;
export type NoteSort = (typeof noteSorts)[number];
/**
 * What a list can be ordered by: the sort field (ignoring case), when notes
 * were added or last edited, or one field by its name in the notes' fields
 * (a custom note type's field name, or a built-in kind's key such as `back`).
 */
export type NoteSortColumn = "sort_field" | "created" | "modified" | { field: string };
export const noteSortColumns = ["sort_field", "created", "modified"] as const;
export type SortDirection = "asc" | "desc";
/** A named order, or a column and direction (ascending by default). */
export type NoteOrder = NoteSort | { by: NoteSortColumn; dir?: SortDirection };

const namedOrders: Record<NoteSort, { by: NoteSortColumn; dir: SortDirection }> = {
  newest: { by: "created", dir: "desc" },
  oldest: { by: "created", dir: "asc" },
  edited: { by: "modified", dir: "desc" },
  alphabetical: { by: "sort_field", dir: "asc" },
};
const sortSchema = z.union(
  [
    z.enum(noteSorts),
    z.object({
      by: z.union([
        z.enum(noteSortColumns),
        // Field names as note types allow them (no double quote), so a name quotes safely in the order.
        z.strictObject({
          field: z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[^"]+$/)),
        }),
      ]),
      dir: z._default(z.enum(["asc", "desc"]), "asc"),
    }),
  ],
  { error: "Unknown order." },
);
export const filterSchema = z.object({
  search: z.optional(z.string().check(z.trim(), z.maxLength(1000, "Search for at most 1,000 characters."))),
  tags: z.optional(z.array(tagSchema).check(z.maxLength(50))),
  kind: z.optional(
    z.enum(["basic", "basic_reversed", "cloze", "type_in", "image_occlusion", "custom"], {
      error: "Unknown note type.",
    }),
  ),
  noteTypeId: z.optional(z.guid("Unknown note type.")),
});
const listSchema = z.extend(filterSchema, {
  sort: z._default(sortSchema, "newest"),
  limit: z._default(z.int().check(z.gte(1), z.lte(200)), 50),
  offset: z._default(z.int().check(z.gte(0)), 0),
});
export type NoteFilter = z.input<typeof filterSchema>;
const bulkTagsSchema = z.object({
  tags: z.array(tagSchema).check(z.minLength(1, "Choose at least one tag."), z.maxLength(50)),
});

export function createNotes(supabase: EngramClient) {
  return {
    /**
     * A page of a deck's notes with the total count. `search` is Anki's search
     * syntax (`mito*`, `"a phrase"`, `-x`, `or`, `( )`, `front:`, `tag:`, `deck:`,
     * `is:due`, `prop:ivl>10`, `rated:7`, `re:`, `w:`, …; docs/product.md §3),
     * evaluated by the database with the user's own schedules; one that does
     * not parse fails with `search/syntax`, whose `detail` is `{ kind, at }`;
     * `tags` keeps notes having all of them, as the note's tags or the user's
     * own (`my_tags`, which each note comes with); `kind` one kind, `noteTypeId` the
     * custom notes of one note type. `sort`: newest (the default) or oldest
     * added, recently edited, alphabetical by the sort field (the first field
     * as plain text), or `{ by, dir }`: the sort field, created, modified or
     * `{ field: "Name" }`, ascending or descending. Each note comes with its
     * number of cards.
     */
    async list(deckId: string, options: z.input<typeof listSchema> = {}): Promise<NotePage> {
      const id = validate(deckIdSchema, deckId);
      const { sort, limit, offset, ...filter } = validate(listSchema, options);
      const query = ordered(
        filtered(notesOf(supabase, id, searchTree(filter.search), "*, cards(count), my_tags"), id, filter),
        typeof sort === "string" ? namedOrders[sort] : sort,
      );
      const { notes, total } = await run(
        query.range(offset, offset + limit - 1).then(({ data, count, ...result }) => ({
          ...result,
          data: data && {
            notes: data.map(({ cards, my_tags, ...note }) => ({
              ...note,
              card_count: cards[0]?.count ?? 0,
              my_tags: my_tags ?? [],
            })),
            total: count ?? data.length,
          },
        })),
      );
      if (total === 0) await requireVisibleDeck(supabase, id);
      return { notes, total };
    },

    /**
     * The ids of every note matching a filter (as `list` takes it), for "select
     * all": at most `maxBulkNotes`, with the total so a caller knows when more
     * match, and each note's version for the bulk actions.
     */
    async ids(
      deckId: string,
      filter: NoteFilter = {},
    ): Promise<{ ids: string[]; notes: NoteVersion[]; total: number }> {
      const id = validate(deckIdSchema, deckId);
      const parsed = validate(filterSchema, filter);
      const query = filtered(notesOf(supabase, id, searchTree(parsed.search), "id, version"), id, parsed);
      const { notes, total } = await run(
        ordered(query, namedOrders.newest)
          .range(0, maxBulkNotes - 1)
          .then(({ data, count, ...result }) => ({
            ...result,
            data: data && { notes: data, total: count ?? data.length },
          })),
      );
      if (total === 0) await requireVisibleDeck(supabase, id);
      return { ids: notes.map((note) => note.id), notes, total };
    },

    /** One note the user can see; `not-found` otherwise. */
    async get(noteId: string): Promise<Note> {
      const id = validate(noteIdSchema, noteId);
      return run(supabase.from("notes").select("*").eq("id", id).single());
    },

    /** Adds a note (owners and editors) and returns it with the cards generated from it. */
    async create(deckId: string, input: NoteInput): Promise<NoteWithCards> {
      const id = validate(deckIdSchema, deckId);
      const note = stored(input);
      const createdBy = await currentUserId(supabase);
      const inserted = await run<Note>(
        supabase
          .from("notes")
          .insert({ deck_id: id, ...note, created_by: createdBy })
          .select("*")
          .single(),
      ).catch((error: unknown) => explainRefusal(supabase, id, error, "add notes to"));
      return { ...inserted, cards: await cardsOf(supabase, inserted.id) };
    },

    /**
     * Replaces a note's kind, fields and tags (owners and editors). Cards that
     * still exist keep everyone's schedules; the rest are added or deleted.
     * `version` is the note's version when it was loaded: if the note changed
     * since, nothing is saved and the call fails with `note/conflict`, whose
     * `detail` holds the current `{ version }`.
     */
    async update(noteId: string, version: number, input: NoteInput): Promise<NoteWithCards> {
      const id = validate(noteIdSchema, noteId);
      const loaded = validate(versionSchema, version);
      const changes: TablesUpdate<"notes"> = { ...stored(input), version: loaded };
      const updated = await run(supabase.from("notes").update(changes).eq("id", id).select("*"));
      const saved = updated[0] ?? (await refuseNotes(supabase, [id], "edit"));
      return { ...saved, cards: await cardsOf(supabase, id) };
    },

    /*
     * The bulk actions take each note with the version the caller loaded. All
     * or nothing: if any note changed since, nothing changes and the call fails
     * with `note/conflict`, whose `detail.notes` lists the changed notes with
     * their current versions.
     */

    /** Deletes notes with their cards and schedules (owners and editors); returns how many. */
    async remove(notes: NoteVersion[]): Promise<number> {
      const stated = validate(noteVersionsSchema, notes);
      await currentUserId(supabase);
      return run(supabase.rpc("delete_notes", stated));
    },

    /** Moves notes, their cards and everyone's schedules to another deck; returns how many moved. */
    async move(notes: NoteVersion[], deckId: string): Promise<number> {
      const stated = validate(noteVersionsSchema, notes);
      const target = validate(deckIdSchema, deckId);
      await currentUserId(supabase);
      return run(supabase.rpc("move_notes", { ...stated, p_deck_id: target }));
    },

    /**
     * Adds tags to every note given (those that have them already keep one
     * copy). A note that would break the tag rules fails the call.
     */
    async addTags(notes: NoteVersion[], tags: string[]): Promise<Note[]> {
      return retag(supabase, notes, { p_add: validate(bulkTagsSchema, { tags }).tags });
    },

    /** Removes tags from every note given, in one change. */
    async removeTags(notes: NoteVersion[], tags: string[]): Promise<Note[]> {
      return retag(supabase, notes, { p_remove: validate(bulkTagsSchema, { tags }).tags });
    },
  };
}

/** A search in Anki's syntax as the tree search_notes takes; null for none. */
export function searchTree(search: string | undefined): SearchNode | null {
  if (!search) return null;
  try {
    return parseSearch(search);
  } catch (error) {
    if (!(error instanceof SearchSyntaxError)) throw error;
    throw new EngramError("search/syntax", error.message, { detail: { kind: error.kind, at: error.at }, cause: error });
  }
}

/**
 * Where a list reads from: the notes table, or the notes a search matches
 * (search_notes returns notes, so the same select, filters, order, count and
 * range apply on top).
 */
function notesOf<Columns extends string>(
  supabase: EngramClient,
  deckId: string,
  tree: SearchNode | null,
  columns: Columns,
) {
  const table = supabase.from("notes").select(columns, { count: "exact" });
  if (!tree) return table;
  const query = tree as unknown as Json;
  return supabase
    .rpc("search_notes", { p_deck_id: deckId, p_query: query }, { count: "exact" })
    .select(columns) as unknown as typeof table;
}

/** The filters `list` and `ids` share; each maps onto an index (deck and date, tags). */
// biome-ignore lint/suspicious/noExplicitAny: both select shapes of the same table's builder pass through.
function filtered<Q extends { eq: any; contains: any }>(
  query: Q,
  deckId: string,
  { tags, kind, noteTypeId }: z.output<typeof filterSchema>,
): Q {
  let result: Q = query.eq("deck_id", deckId);
  // A note's tags with the user's own on it (docs/product.md §3).
  if (tags?.length) result = result.contains("tags_with_mine", tags);
  if (kind) result = result.eq("kind", kind);
  if (noteTypeId) result = result.eq("note_type_id", noteTypeId);
  return result;
}

// biome-ignore lint/suspicious/noExplicitAny: see filtered.
function ordered<Q extends { order: any }>(query: Q, { by, dir }: { by: NoteSortColumn; dir: SortDirection }): Q {
  const ascending = dir === "asc";
  // The id last, so notes that tie keep one order from page to page.
  const byId = (result: Q) => result.order("id", { ascending });
  switch (by) {
    case "created":
      return byId(query.order("created_at", { ascending }));
    case "modified":
      return byId(query.order("updated_at", { ascending }));
    case "sort_field":
      // sort_key: the sort field ignoring case, a computed field served by an index.
      return byId(query.order("sort_key", { ascending }));
    default:
      // Quoted, so a name with spaces, dots or commas stays one key; notes without it come last.
      return byId(
        query.order(`fields->>"${by.field}"`, { ascending, nullsFirst: false }).order("sort_key", { ascending }),
      );
  }
}

async function cardsOf(supabase: EngramClient, noteId: string): Promise<Tables<"cards">[]> {
  return run(supabase.from("cards").select("*").eq("note_id", noteId).order("ordinal"));
}

export async function requireVisibleDeck(supabase: EngramClient, deckId: string): Promise<void> {
  const visible = await run(supabase.from("decks").select("id").eq("id", deckId));
  if (visible.length === 0) throw new EngramError("not-found", "This deck does not exist or is not shared with you.");
}

/** An insert refused by RLS (42501) or pointing at a missing deck (23503) means "not yours" or "not there". */
async function explainRefusal(supabase: EngramClient, deckId: string, error: unknown, action: string): Promise<never> {
  if (error instanceof EngramError && (error.code === "permission-denied" || isForeignKeyError(error))) {
    await refuseDeck(supabase, deckId, `Only the deck's owner and editors can ${action} it.`);
  }
  throw error;
}

function isForeignKeyError(error: EngramError): boolean {
  return (error.cause as { code?: string } | undefined)?.code === "23503";
}

/**
 * Checks every note is visible and in a deck the user edits, before changing
 * any, so a bulk change is all or nothing.
 */
async function requireEditable(
  supabase: EngramClient,
  noteIds: string[],
  action: string,
): Promise<Pick<Note, "id" | "deck_id" | "tags">[]> {
  const notes = await run(supabase.from("notes").select("id, deck_id, tags").in("id", noteIds));
  if (notes.length < noteIds.length) {
    throw new EngramError("not-found", "Some of these notes do not exist or are not shared with you.", {
      field: "note_ids",
    });
  }
  const me = await currentUserId(supabase);
  for (const deckId of new Set(notes.map((note) => note.deck_id))) {
    const role = await memberRole(supabase, deckId, me);
    if (role !== "owner" && role !== "editor") {
      throw new EngramError("permission-denied", `Only the deck's owner and editors can ${action} its notes.`);
    }
  }
  return notes;
}

async function refuseNotes(supabase: EngramClient, noteIds: string[], action: string): Promise<never> {
  await requireEditable(supabase, noteIds, action);
  // Visible and editable now: it changed between the two requests.
  throw new EngramError("conflict", "The note changed meanwhile; try again.");
}

/** One `tag_notes` call: the database checks every note and applies every change in one statement. */
async function retag(
  supabase: EngramClient,
  notes: NoteVersion[],
  change: { p_add?: string[]; p_remove?: string[] },
): Promise<Note[]> {
  const stated = validate(noteVersionsSchema, notes);
  await currentUserId(supabase);
  return run(supabase.rpc("tag_notes", { ...stated, ...change }));
}
