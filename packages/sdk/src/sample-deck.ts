/**
 * The sample deck (docs/product.md §2, "The first minute"): @engram/core's sample notes added as a
 * new deck of the user's own through the import path, so it lands whole or
 * not at all (a failed import removes the deck it made).
 */
import { sampleDeckKey, sampleDeckName, sampleDeckNotes } from "@engram/core";
import { run } from "./request.js";
import type { EngramClient } from "./supabase-client.js";
import { newJobId } from "./transfer/ids.js";
import { runImportJob } from "./transfer/job.js";
import { SkipTally, type StagedNote } from "./transfer/staged.js";

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
      const notes: StagedNote[] = sampleDeckNotes.map((note, index) => ({
        guid: `sample ${sampleDeckKey} ${index}`,
        kind: note.kind,
        fields: note.fields,
        tags: note.tags,
        cards: [],
      }));
      const summary = await runImportJob(supabase, {
        jobId: newJobId(),
        source: "csv",
        origin,
        target: { newDeckName: sampleDeckName },
        existing: "skip",
        notes,
        media: [],
        skipped: new SkipTally(),
      });
      return { deckId: summary.deckId, created: true };
    },
  };
}
