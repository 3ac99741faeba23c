/** Decks: the user's own and shared decks, public decks to explore, create/update/delete, clone. */
import { deckInputSchema, deckNameSchema } from "@engram/core";
import { z } from "zod";
import type { EngramClient } from "./client.js";
import type { Database, Tables } from "./database.types.js";
import { refuseDeck } from "./deck-access.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";

export type Deck = Tables<"decks">;
export type DeckRole = Database["public"]["Enums"]["deck_role"];
/** A deck with the signed-in user's role in it. */
export type MyDeck = Deck & { role: DeckRole };
export type DeckInput = z.input<typeof deckInputSchema>;
export type DeckPatch = Partial<DeckInput>;

const deckPatchSchema = deckInputSchema.partial();
const idSchema = z.guid("Unknown deck.");
const searchSchema = z.object({
  search: z.string().trim().max(200).optional(),
  limit: z.int().min(1).max(100).default(30),
  offset: z.int().min(0).default(0),
});

export function createDecks(supabase: EngramClient) {
  return {
    /** Decks the user belongs to (any role), newest first; archived decks last. */
    async list(): Promise<MyDeck[]> {
      const userId = await currentUserId(supabase);
      const rows = await run(
        supabase
          .from("deck_members")
          .select("role, deck:decks!inner(*)")
          .eq("user_id", userId)
          .order("created_at", { ascending: false }),
      );
      return rows
        .map(({ role, deck }) => ({ ...deck, role }))
        .sort((a, b) => Number(a.archived_at !== null) - Number(b.archived_at !== null));
    },

    /** One deck the user can see (a member, or a public deck); `not-found` otherwise. */
    async get(deckId: string): Promise<Deck> {
      const id = validate(idSchema, deckId);
      return run(supabase.from("decks").select("*").eq("id", id).single());
    },

    /** Creates a deck owned by the user (the database makes them its owner member). */
    async create(input: DeckInput): Promise<Deck> {
      const deck = validate(deckInputSchema, input);
      const ownerId = await currentUserId(supabase);
      return run(
        supabase
          .from("decks")
          .insert({ ...deck, owner_id: ownerId })
          .select("*")
          .single(),
      );
    },

    /** Renames or changes settings (owners only). */
    async update(deckId: string, patch: DeckPatch): Promise<Deck> {
      const id = validate(idSchema, deckId);
      const checked = validate(deckPatchSchema, patch);
      const updated = await run(supabase.from("decks").update(checked).eq("id", id).select("*"));
      return updated[0] ?? refuseDeck(supabase, id, "Only the owner can change this deck.");
    },

    async rename(deckId: string, name: string): Promise<Deck> {
      return this.update(deckId, { name });
    },

    /** Deletes a deck with its notes, cards and schedules (owners only). */
    async remove(deckId: string): Promise<void> {
      const id = validate(idSchema, deckId);
      const deleted = await run(supabase.from("decks").delete().eq("id", id).select("id"));
      if (deleted.length === 0) await refuseDeck(supabase, id, "Only the owner can delete this deck.");
    },

    /** Public decks, optionally matching a search in name or description. */
    async explore(options: z.input<typeof searchSchema> = {}): Promise<Deck[]> {
      const { search, limit, offset } = validate(searchSchema, options);
      let query = supabase.from("decks").select("*").eq("is_public", true).is("archived_at", null);
      if (search) {
        const pattern = `%${search.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
        query = query.or(`name.ilike.${quote(pattern)},description.ilike.${quote(pattern)}`);
      }
      return run(query.order("updated_at", { ascending: false }).range(offset, offset + limit - 1));
    },

    /** Copies a deck the user can see into a new deck they own (notes only; schedules start fresh). */
    async clone(deckId: string, name?: string): Promise<string> {
      const id = validate(idSchema, deckId);
      const newName = name === undefined ? undefined : validate(deckNameSchema, name);
      return run(supabase.rpc("clone_deck", { p_deck_id: id, ...(newName ? { p_name: newName } : {}) }));
    },
  };
}

/** Quotes a value for PostgREST's `or=(…)` syntax, where commas and parentheses are reserved. */
function quote(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
