/**
 * The sample deck (docs/product.md §2, "The first minute"): @engram/core's sample notes added as a
 * new deck of the user's own through the import path, so it lands whole or
 * not at all (a failed import removes the deck it made).
 */
import { sampleDeckKey } from "@engram/core";
import { run } from "./request.js";
import type { EngramClient } from "./supabase-client.js";

export type SampleDeck = { deckId: string; created: boolean };

const origin = `sample:${sampleDeckKey}`;

export function createSampleDeck(supabase: EngramClient) {
  /** The deck an earlier request made, while it exists (deleting a deck clears its import's deck). */
  async function find(): Promise<string | null> {
    const rows = await run(
      supabase
        .from("import_jobs")
        .select("deck_id")
        .eq("status", "done")
        .eq("options->>origin", origin)
        .not("deck_id", "is", null)
        .order("created_at", { ascending: false })
        .limit(1),
    );
    return rows[0]?.deck_id ?? null;
  }

  return {
    find,

    /**
     * Adds the sample deck to the signed-in user's decks, owned by them, or
     * returns the one they already have (`created: false`), so asking twice
     * makes one deck.
     */
    async add(): Promise<SampleDeck> {
      const existing = await find();
      if (existing) return { deckId: existing, created: false };
      // The import job's code loads with the first sample deck, not with every screen.
      const { importSampleDeck } = await import("./sample-deck-import.js");
      return { deckId: await importSampleDeck(supabase, origin), created: true };
    },
  };
}
