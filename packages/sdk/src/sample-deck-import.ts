/**
 * Adding the sample deck through the import path: loaded with the first
 * `sampleDeck.add()`, so the import job's code is not part of every screen.
 */
import { sampleDeckKey, sampleDeckName, sampleDeckNotes } from "@engram/core";
import type { EngramClient } from "./supabase-client.js";
import { newJobId } from "./transfer/ids.js";
import { runImportJob } from "./transfer/job.js";
import { SkipTally, type StagedNote } from "./transfer/staged.js";

/** Imports @engram/core's sample notes as a new deck named for the sample; resolves with the deck's id. */
export async function importSampleDeck(supabase: EngramClient, origin: string): Promise<string> {
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
  return summary.deckId;
}
