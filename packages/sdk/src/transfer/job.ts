/**
 * Runs one import against the server: `start_import` (creates the job and, if
 * asked, the deck), media uploads, `stage_import` batches, then `finish_import`,
 * which commits everything in one transaction (into a new deck, a batch a call
 * while the rest is staged, the deck unseen until the last call). Any failure
 * or a cancel calls `abandon_import` (the job is marked failed and a deck it created is deleted)
 * and removes the media it uploaded. A retry with the same `jobId` reuses the
 * job: staged batches are idempotent and a finished job is returned as it is.
 */

import type { Json, Tables } from "../database.types.js";
import { deferred } from "../deferred.js";
import { EngramError, toEngramError } from "../errors.js";
import { run } from "../request.js";
import type { SvgRasterizer } from "../storage/svg.js";
import type { EngramClient } from "../supabase-client.js";
import { type PackageMedia, removeUploaded, spreadMedia, uploadMedia } from "./media.js";
import {
  batches,
  type SkipTally,
  type StagedDeckPreset,
  type StagedNote,
  type StagedNoteType,
  type StagedPreset,
} from "./staged.js";

export type ImportPhase = "reading" | "media" | "staging" | "finishing";
export type ImportProgress = { phase: ImportPhase; done: number; total: number };
export type ImportTarget = { deckId: string } | { newDeckName: string };

export type ImportSummary = {
  jobId: string;
  deckId: string;
  notesAdded: number;
  notesUpdated: number;
  notesSkipped: number;
  cards: number;
  media: number;
  reviews: number;
  skipped: { reason: string; count: number }[];
  /** The deck's note types the custom notes use: `created` by this import, or found already there. */
  noteTypes: { id: string; name: string; created: boolean }[];
  /** Media the notes use that the file did not hold: how many, and the first 50 names. */
  missingMedia: string[];
  missingMediaCount: number;
  /** Markup a kept note type's templates hold that cards never show, by note type. */
  droppedMarkup: { noteType: string; markup: string[] }[];
};

/** What the device found in the file that the summary tells about. */
export type ImportNotices = Pick<ImportSummary, "missingMedia" | "droppedMarkup">;

/** The summary is at most 64 KiB of JSON: enough for 50 file names. */
const missingNames = 50;

export type JobInput = {
  jobId: string;
  source: "apkg" | "csv";
  target: ImportTarget;
  existing: "update" | "skip";
  /** Kept in the job's options to find what it made later (the sample deck names its content). */
  origin?: string;
  /** Each note to the deck of its `deck` path under the target (finish_import makes the decks). */
  deckTree?: boolean;
  notes: StagedNote[];
  /** The note types the custom notes name, staged with the first batch. */
  noteTypes?: readonly StagedNoteType[];
  /** The decks' option groups, and the decks the import makes that take them, staged with the first batch. */
  presets?: { presets: readonly StagedPreset[]; deckPresets: readonly StagedDeckPreset[] };
  notices?: ImportNotices;
  media: readonly PackageMedia[];
  skipped: SkipTally;
  rasterizeSvg?: SvgRasterizer;
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
};

type Job = Tables<"import_jobs">;

function summaryOf(job: Job): ImportSummary {
  const summary = (job.summary ?? {}) as Record<string, unknown>;
  const count = (key: string) => (typeof summary[key] === "number" ? (summary[key] as number) : 0);
  return {
    jobId: job.id,
    deckId: job.deck_id ?? "",
    notesAdded: count("notes_added"),
    notesUpdated: count("notes_updated"),
    notesSkipped: count("notes_skipped"),
    cards: count("cards"),
    media: count("media"),
    reviews: count("reviews_added"),
    skipped: Array.isArray(summary.skipped) ? (summary.skipped as ImportSummary["skipped"]) : [],
    noteTypes: Array.isArray(summary.note_types) ? (summary.note_types as ImportSummary["noteTypes"]) : [],
    missingMedia: Array.isArray(summary.missing_media) ? (summary.missing_media as string[]) : [],
    missingMediaCount: count("missing_media_count"),
    droppedMarkup: Array.isArray(summary.dropped_markup)
      ? (summary.dropped_markup as ImportSummary["droppedMarkup"])
      : [],
  };
}

/**
 * Batches sent at once: while the database stores one, the next is already
 * on its way and being parsed (the job's lock still stores them one at a time).
 */
const stagedAtOnce = 3;

/** Runs `work` on every item, at most `atOnce` at a time; after a failure none starts, and it is thrown once those running settle. */
async function inTurns<T>(items: readonly T[], atOnce: number, work: (index: number, item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) {
      try {
        await work(index, items[index] as T);
      } catch (error) {
        next = items.length; // no more are started
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}

/** The import RPCs return the job row; PostgREST answers null only if the function returned nothing. */
function present(job: Job | null): Job {
  if (!job) throw new EngramError("internal", "The server did not return the import.");
  return job;
}

export async function runImportJob(supabase: EngramClient, input: JobInput): Promise<ImportSummary> {
  const { jobId, signal } = input;
  const progress = (phase: ImportPhase, done: number, total: number) => input.onProgress?.({ phase, done, total });
  const target = input.target;
  const job = present(
    await run(
      supabase.rpc("start_import", {
        p_job_id: jobId,
        p_source: input.source,
        p_total: input.notes.length,
        ...("deckId" in target ? { p_deck_id: target.deckId } : { p_deck_name: target.newDeckName }),
        p_options: {
          existing: input.existing,
          ...(input.deckTree ? { deck_tree: true } : {}),
          ...(input.origin ? { origin: input.origin } : {}),
        },
      }),
    ),
  );
  if (job.status === "done") return summaryOf(job);
  if (job.status === "failed") {
    throw new EngramError("conflict", "This import was cancelled or failed; start it again.", { field: "jobId" });
  }
  const deckId = job.deck_id;
  if (!deckId) throw new EngramError("not-found", "The import's deck no longer exists.");

  let uploaded: string[] = [];
  try {
    const media = await uploadMedia(
      supabase,
      deckId,
      input.media,
      input.notes,
      input.skipped,
      (done, total) => progress("media", done, total),
      signal,
      input.rasterizeSvg,
    );
    uploaded = media.uploaded;

    const parts = batches(input.notes);
    const clientSummary = {
      media: media.uploaded.length + media.reused,
      skipped: input.skipped.list(),
      missing_media: (input.notices?.missingMedia ?? []).slice(0, missingNames),
      missing_media_count: input.notices?.missingMedia.length ?? 0,
      dropped_markup: input.notices?.droppedMarkup ?? [],
    };
    // Into a new deck (with its subdecks) the server commits a batch a call, in
    // order, as soon as it is staged (finish_import's p_one_batch), so it
    // answers everyone else between calls and staging overlaps committing.
    const inSteps = job.created_deck;
    let staged = 0;
    let committed = 0;
    let stopped: unknown;
    const landed = parts.map(() => deferred());
    progress("staging", 0, input.notes.length);
    const stage = async (index: number, part: StagedNote[]) => {
      if (stopped) throw stopped;
      signal?.throwIfAborted();
      await run(
        supabase.rpc("stage_import", {
          p_job_id: jobId,
          p_batch: index,
          p_payload: {
            notes: part,
            ...(index === 0 && input.noteTypes?.length ? { note_types: input.noteTypes } : {}),
            ...(index === 0 && input.presets?.presets.length
              ? { presets: input.presets.presets, deck_presets: input.presets.deckPresets }
              : {}),
          } as unknown as Json,
          // The server keeps the largest count it was told, so batches may land in any order.
          p_processed: Math.min(input.notes.length, staged + part.length),
        }),
      );
      landed[index]?.resolve();
      staged += part.length;
      progress("staging", staged, input.notes.length);
      if (staged === input.notes.length) progress("finishing", committed, parts.length + 1);
    };
    // A step may commit part of a batch (about a second of work; a quarter on the embedded database);
    // one that commits nothing leaves the rest to the last call.
    const commitInOrder = async () => {
      let reached = "";
      for (const [index, batch] of landed.entries()) {
        await batch.promise;
        for (;;) {
          signal?.throwIfAborted();
          const stepped = present(await run(supabase.rpc("finish_import", { p_job_id: jobId, p_one_batch: true })));
          const finishing = (stepped.finishing ?? {}) as { batch?: number; offset?: number };
          const now = `${finishing.batch}:${finishing.offset}`;
          if (now === reached) return;
          reached = now;
          if ((finishing.batch ?? -1) >= index) break;
        }
        committed += 1;
        if (staged === input.notes.length) progress("finishing", committed, parts.length + 1);
      }
    };
    const staging = inTurns(parts, inSteps ? 1 : stagedAtOnce, stage).catch((error) => {
      for (const batch of landed) batch.reject(error);
      throw error;
    });
    const committing = (inSteps ? commitInOrder() : Promise.resolve()).catch((error) => {
      stopped = error;
      throw error;
    });
    const outcomes = await Promise.allSettled([committing, staging]);
    const failed = outcomes.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;

    signal?.throwIfAborted();
    // Commits what is left (everything, into an existing deck) and reveals a new deck.
    const finished = present(
      await run(supabase.rpc("finish_import", { p_job_id: jobId, p_summary: clientSummary as unknown as Json })),
    );
    const summary = summaryOf(finished);
    if (input.deckTree) {
      // The notes are in; moving their files into their decks is best effort.
      await spreadMedia(supabase, deckId, input.notes, uploaded, input.skipped).catch(() =>
        input.skipped.add("media-not-copied"),
      );
      summary.skipped = input.skipped.list();
    }
    progress("finishing", 1, 1);
    return summary;
  } catch (error) {
    const cancelled = signal?.aborted ?? false;
    const message = cancelled ? "cancelled" : toEngramError(error).message;
    // The cancel or failure is what matters to the caller; cleaning up is best effort.
    await supabase.rpc("abandon_import", { p_job_id: jobId, p_error: message }).then(
      () => undefined,
      () => undefined,
    );
    await removeUploaded(supabase, uploaded);
    throw cancelled ? signal?.reason : toEngramError(error);
  }
}
