/** Who may do what in a deck, asked the way RLS answers it. */

import type { Database } from "./database.types.js";
import { EngramError } from "./errors.js";
import { run } from "./request.js";
import type { EngramClient } from "./supabase-client.js";

/** The role a user has in a deck, as far as the caller can see (members see co-members). */
export async function memberRole(
  supabase: EngramClient,
  deckId: string,
  userId: string,
): Promise<Database["public"]["Enums"]["deck_role"] | null> {
  const rows = await run(
    supabase.from("deck_members").select("role").eq("deck_id", deckId).eq("user_id", userId).limit(1),
  );
  return rows[0]?.role ?? null;
}

/**
 * RLS hides what the caller may not see and refuses what they may not change
 * alike; this tells "not there" (not-found) from "not yours" (permission-denied).
 */
export async function refuseDeck(supabase: EngramClient, deckId: string, message: string): Promise<never> {
  const visible = await run(supabase.from("decks").select("id").eq("id", deckId));
  if (visible.length === 0) throw new EngramError("not-found", "This deck does not exist or is not shared with you.");
  throw new EngramError("permission-denied", message);
}
