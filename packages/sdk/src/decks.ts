/** Decks: the user's own and shared decks, public decks to explore, create/update/delete, clone, hand over. */
import { deckInputSchema, deckNameSchema } from "@engram/core";
import { z } from "zod/mini";
import type { Database, Tables } from "./database.types.js";
import { memberRole, refuseDeck } from "./deck-access.js";
import { toEngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import { storageRun } from "./storage/files.js";
import type { EngramClient } from "./supabase-client.js";

export type Deck = Tables<"decks">;
export type DeckRole = Database["public"]["Enums"]["deck_role"];
/** A deck with the signed-in user's role in it. */
export type MyDeck = Deck & { role: DeckRole };
export type DeckInput = z.input<typeof deckInputSchema>;
/** A new deck: its settings, and the deck it goes under (a subdeck; the parent's owner only). */
export type NewDeckInput = DeckInput & { parentId?: string | null };
export type DeckPatch = Partial<DeckInput>;
/** How a deck treats leeches, as its members' study sees it. */
export type LeechAction = Database["public"]["Enums"]["leech_action"];
/**
 * A public deck as the explore page lists it (without the study settings, which
 * only its members need). `owner_name` is null when the owner has none.
 */
export type PublicDeck = Omit<
  Deck,
  "leech_threshold" | "leech_action" | "bury_new" | "bury_reviews" | "bury_interday_learning" | "preset_id"
> & {
  note_count: number;
  clone_count: number;
  owner_name: string | null;
};
export type ExploreSort = "newest" | "most_cloned";

const deckPatchSchema = z.partial(deckInputSchema);
const idSchema = z.guid("Unknown deck.");
const parentIdSchema = z.nullable(z.guid("Unknown parent deck."));
const presetIdSchema = z.nullable(z.guid("Unknown preset."));
const userIdSchema = z.guid("Unknown member.");
const exploreSchema = z.object({
  search: z.optional(z.string().check(z.trim(), z.maxLength(200, "Search for at most 200 characters."))),
  sort: z._default(z.enum(["newest", "most_cloned"], { error: "Sort by newest or most cloned." }), "newest"),
  limit: z._default(z.int().check(z.gte(1), z.lte(100)), 30),
  offset: z._default(z.int().check(z.gte(0)), 0),
});
/** How many media files are copied at once when a deck is cloned. */
const copyConcurrency = 4;

/**
 * Every column of decks but `cloned_from`, which may name a private deck: the
 * API roles read it only through `deck_sources`, for a source they may read.
 */
const deckColumns =
  "id, owner_id, name, description, is_public, cover_path, new_per_day, reviews_per_day, archived_at, created_at, updated_at, clone_count, leech_threshold, leech_action, bury_new, bury_reviews, bury_interday_learning, parent_id, preset_id, suggestions_from";

/** The source of each copy among `ids` (null: the user's decks) whose source the user may read. */
async function sourcesOf(supabase: EngramClient, ids: string[] | null): Promise<Map<string, string>> {
  const rows = await run(supabase.rpc("deck_sources", ids ? { p_deck_ids: ids } : {}));
  return new Map(rows.map((row) => [row.deck_id, row.cloned_from]));
}

/** A deck as the API roles read it: every column but `cloned_from`. */
type DeckRow = Omit<Deck, "cloned_from">;

/** A deck as read without `cloned_from`, with its source where the user may see it (null otherwise). */
function withSource<T extends DeckRow>(deck: T, sources: Map<string, string>): T & Deck {
  return { ...deck, cloned_from: sources.get(deck.id) ?? null };
}

export function createDecks(supabase: EngramClient) {
  return {
    /**
     * Decks the user belongs to (any role), newest first; archived decks last.
     * `parent_id` places each in its tree; a parent the user is not a member
     * of is not listed.
     */
    async list(): Promise<MyDeck[]> {
      const userId = await currentUserId(supabase);
      const [rows, sources] = await Promise.all([
        run(
          supabase
            .from("deck_members")
            .select(`role, deck:decks!inner(${deckColumns})`)
            .eq("user_id", userId)
            .order("created_at", { ascending: false }),
        ),
        sourcesOf(supabase, null),
      ]);
      return rows
        .map(({ role, deck }) => ({ ...withSource(deck, sources), role }))
        .sort((a, b) => Number(a.archived_at !== null) - Number(b.archived_at !== null));
    },

    /** One deck the user can see (a member, or a public deck); `not-found` otherwise. */
    async get(deckId: string): Promise<Deck> {
      const id = validate(idSchema, deckId);
      const deck = run<DeckRow>(supabase.from("decks").select(deckColumns).eq("id", id).single());
      const sources = sourcesOf(supabase, [id]);
      return withSource(await deck, await sources);
    },

    /**
     * Creates a deck owned by the user (the database makes them its owner
     * member). With `parentId` it is a subdeck of a deck the user owns and
     * starts with that deck's members in their roles.
     */
    async create(input: NewDeckInput): Promise<Deck> {
      const { parentId, ...settings } = input;
      const deck = validate(deckInputSchema, settings);
      const parent = validate(parentIdSchema, parentId ?? null);
      const ownerId = await currentUserId(supabase);
      const created = await run<DeckRow>(
        supabase
          .from("decks")
          .insert({ ...deck, owner_id: ownerId, ...(parent ? { parent_id: parent } : {}) })
          .select(deckColumns)
          .single(),
      );
      // Only clone_deck makes a copy.
      return { ...created, cloned_from: null };
    },

    /** Renames or changes settings (owners only). */
    async update(deckId: string, patch: DeckPatch): Promise<Deck> {
      const id = validate(idSchema, deckId);
      const checked = validate(deckPatchSchema, patch);
      const [updated, sources] = await Promise.all([
        run<DeckRow[]>(supabase.from("decks").update(checked).eq("id", id).select(deckColumns)),
        sourcesOf(supabase, [id]),
      ]);
      const [deck] = updated;
      return deck ? withSource(deck, sources) : refuseDeck(supabase, id, "Only the owner can change this deck.");
    },

    async rename(deckId: string, name: string): Promise<Deck> {
      return this.update(deckId, { name });
    },

    /**
     * Moves a deck under another (null: to the top level). The user owns
     * both; a move into the deck's own subtree, or one that makes a tree
     * deeper than 10 decks, is refused with `validation` on `parent_id`.
     * Notes of the deck and its subdecks that use a note type of a deck it
     * leaves from under then use a copy of it in the moved deck.
     */
    async setParent(deckId: string, parentId: string | null): Promise<void> {
      const id = validate(idSchema, deckId);
      const parent = validate(parentIdSchema, parentId);
      await currentUserId(supabase);
      await run(supabase.rpc("set_deck_parent", { p_deck_id: id, p_parent_id: parent as string }));
    },

    /**
     * Makes the deck use one of the user's presets (owners only): the deck
     * takes the preset's options, and later changes of the preset. Null: the
     * deck keeps its options as its own. A preset that is not the deck
     * owner's is refused with `validation` on `preset_id`. Writing one of
     * these options through `update` with another value than the preset's
     * takes the deck off its preset too.
     */
    async setPreset(deckId: string, presetId: string | null): Promise<void> {
      const id = validate(idSchema, deckId);
      const preset = validate(presetIdSchema, presetId);
      await currentUserId(supabase);
      await run(supabase.rpc("set_deck_preset", { p_deck_id: id, p_preset_id: preset as string }));
    },

    /**
     * Deletes a deck with its subdecks, their notes, cards, schedules and
     * media files (owners only; a tree has one owner). The files go first:
     * once a deck is gone, nobody may touch its folder.
     */
    async remove(deckId: string): Promise<void> {
      const id = validate(idSchema, deckId);
      const me = await currentUserId(supabase);
      if ((await memberRole(supabase, id, me)) !== "owner") {
        await refuseDeck(supabase, id, "Only the owner can delete this deck.");
      }
      await removeMedia(supabase, await subtreeOf(supabase, id));
      const deleted = await run(supabase.from("decks").delete().eq("id", id).select("id"));
      if (deleted.length === 0) await refuseDeck(supabase, id, "Only the owner can delete this deck.");
    },

    /**
     * Public decks (not archived), newest or most cloned first, optionally
     * matching a search in name or description. Works signed out too.
     */
    async explore(options: z.input<typeof exploreSchema> = {}): Promise<PublicDeck[]> {
      const { search, sort, limit, offset } = validate(exploreSchema, options);
      const rows = await run(
        supabase.rpc("explore_decks", {
          ...(search ? { p_search: search } : {}),
          p_sort: sort,
          p_limit: limit,
          p_offset: offset,
        }),
      );
      return rows as PublicDeck[];
    },

    /**
     * Copies a deck the user can see into a new deck they own, with the
     * subdecks below it the user can see as a tree of the same shape: their
     * notes (schedules start fresh), the note types the notes use, and each
     * deck's media files. If a file cannot be copied, the new decks and the
     * files already copied are removed and the error is thrown. Returns the
     * new top deck's id.
     */
    async clone(deckId: string, name?: string): Promise<string> {
      const id = validate(idSchema, deckId);
      const newName = name === undefined ? undefined : validate(deckNameSchema, name);
      const newId: string = await run(
        supabase.rpc("clone_deck", { p_deck_id: id, ...(newName ? { p_name: newName } : {}) }),
      );
      const copies = await subtreeOf(supabase, newId);
      try {
        const sources = await sourcesOf(supabase, copies);
        for (const copy of copies) {
          const source = sources.get(copy);
          if (source) await copyMedia(supabase, source, copy);
        }
      } catch (error) {
        // Best effort: the copy's own error is the one worth reporting.
        await removeMedia(supabase, copies).catch(() => undefined);
        await run(supabase.from("decks").delete().eq("id", newId)).catch(() => undefined);
        throw toEngramError(error);
      }
      return newId;
    },

    /**
     * Hands the deck to another member (owners only): they become its owner,
     * the user an editor. Not the owner → `permission-denied`; not a member →
     * `not-found`; oneself → `validation`.
     */
    async transferOwnership(deckId: string, userId: string): Promise<void> {
      const deck = validate(idSchema, deckId);
      const user = validate(userIdSchema, userId);
      await currentUserId(supabase);
      await run(supabase.rpc("transfer_deck_ownership", { p_deck_id: deck, p_user_id: user }));
    },
  };
}

/** A deck and every deck below it, a level at a time (a tree is at most 10 deep). */
async function subtreeOf(supabase: EngramClient, deckId: string): Promise<string[]> {
  const all = [deckId];
  for (let level = [deckId]; level.length > 0; ) {
    const rows = await run(supabase.from("decks").select("id").in("parent_id", level));
    level = rows.map((row) => row.id);
    all.push(...level);
  }
  return all;
}

/** Removes every media file of the decks. */
async function removeMedia(supabase: EngramClient, deckIds: string[]): Promise<void> {
  for (const deck of deckIds) {
    const media = await listMedia(supabase, deck);
    for (let start = 0; start < media.length; start += 1000) {
      const batch = media.slice(start, start + 1000).map((name) => `${deck}/${name}`);
      await storageRun(supabase.storage.from("media").remove(batch));
    }
  }
}

/** Every file under a deck's media folder (`<deckId>/…`, subfolders included), as paths below it. */
async function listMedia(supabase: EngramClient, deckId: string): Promise<string[]> {
  const names: string[] = [];
  const folders = [""];
  const pageSize = 1000;
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    const prefix = folder ? `${deckId}/${folder}` : deckId;
    for (let offset = 0; ; offset += pageSize) {
      const page = await storageRun(
        supabase.storage
          .from("media")
          .list(prefix, { limit: pageSize, offset, sortBy: { column: "name", order: "asc" } }),
      );
      for (const entry of page) {
        const name = folder ? `${folder}/${entry.name}` : entry.name;
        // Storage lists a subfolder as an entry without an id.
        if (entry.id === null) folders.push(name);
        else names.push(name);
      }
      if (page.length < pageSize) break;
    }
  }
  return names;
}

/**
 * Copies every media file of one deck to the same names in another. On a
 * failure the copies already made are removed (in-flight ones are waited
 * for first) and the error is thrown.
 */
async function copyMedia(supabase: EngramClient, fromDeckId: string, toDeckId: string): Promise<void> {
  const bucket = supabase.storage.from("media");
  const pending = await listMedia(supabase, fromDeckId);
  const copied: string[] = [];
  const failed: { error?: unknown } = {};
  const worker = async () => {
    for (let name = pending.shift(); name !== undefined && !("error" in failed); name = pending.shift()) {
      try {
        await storageRun(bucket.copy(`${fromDeckId}/${name}`, `${toDeckId}/${name}`));
        copied.push(`${toDeckId}/${name}`);
      } catch (error) {
        if (!("error" in failed)) failed.error = error;
      }
    }
  };
  await Promise.all(Array.from({ length: copyConcurrency }, worker));
  if (!("error" in failed)) return;
  for (let start = 0; start < copied.length; start += 1000) {
    await storageRun(bucket.remove(copied.slice(start, start + 1000))).catch(() => undefined);
  }
  throw failed.error;
}
