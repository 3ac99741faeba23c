/**
 * The one place realtime events reach the query cache. Events name what
 * changed, never its contents: each invalidates the queries it makes stale
 * (import progress refetches the job), and a resync after a dropped
 * connection invalidates everything that stream covers.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { Engram } from "../client.js";
import type { EngramError } from "../errors.js";
import type { ImportJob } from "../storage.js";
import { engramChanges } from "./invalidations.js";
import { engramKeys } from "./keys.js";

export interface WireRealtimeOptions {
  /** Decks whose content (notes, cards, members, settings) the screen shows. */
  deckIds?: readonly string[];
  onError?: (error: EngramError) => void;
  /** Every subscription is confirmed by the server. */
  onReady?: () => void;
}

/**
 * Subscribes the cache to the user's schedule, memberships, imports and the
 * given decks; returns the function that stops it.
 */
export function wireRealtime(
  engram: Engram,
  queryClient: QueryClient,
  options: WireRealtimeOptions = {},
): () => Promise<void> {
  const invalidate = (...keys: (readonly unknown[])[]) => {
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  const streams = 5 + 2 * (options.deckIds?.length ?? 0);
  let ready = 0;
  const errors = {
    ...(options.onError ? { onError: options.onError } : {}),
    onReady: () => {
      ready += 1;
      if (ready === streams) options.onReady?.();
    },
  };

  const importJobs = jobRefresher(engram, (job) => {
    queryClient.setQueryData(engramKeys.imports.detail(job.id), job);
    queryClient.setQueryData<ImportJob[]>(engramKeys.imports.list(), (jobs) =>
      jobs ? [job, ...jobs.filter((other) => other.id !== job.id)] : jobs,
    );
    // A finished import added decks, notes, cards, schedules and answers.
    if (job.status === "done") invalidate(...engramChanges.imported().filter((key) => key !== engramKeys.imports.all));
  });

  const stops = [
    // Another device answered, undid or suspended: the queue, schedules and figures moved.
    engram.realtime.onOwnSchedule(
      () => invalidate(engramKeys.study.all, engramKeys.cards.all, engramKeys.stats.all),
      errors,
    ),
    // A deck was shared with the user (an invite accepted on any device), their role changed, or they were removed.
    engram.realtime.onOwnMemberships(
      () => invalidate(engramKeys.decks.all, engramKeys.members.all, engramKeys.study.all, engramKeys.stats.all),
      errors,
    ),
    // The user's own tags and My notes changed on another device: the notes list carries their tags too.
    engram.realtime.onOwnPersonalNotes(
      () => invalidate(engramKeys.personalNotes.all, [...engramKeys.notes.all, "deck"]),
      errors,
    ),
    engram.realtime.onImportProgress((event) => {
      // A deleted job cannot be read again: the lists drop it on refetch.
      if (event.type === "resync" || event.type === "delete" || event.ids === null) {
        return invalidate(engramKeys.imports.all);
      }
      for (const jobId of event.ids) importJobs.refresh(jobId);
    }, errors),
    // The user's suggestions were reviewed or closed, on any device.
    engram.suggestions.onOwnChanges(() => invalidate(engramKeys.suggestions.mine()), errors),
    // A deck's suggestions were made or reviewed: its queue and count (RLS shows them to maintainers only).
    ...(options.deckIds ?? []).map((deckId) =>
      engram.suggestions.onDeckChanges(deckId, () => invalidate(engramKeys.suggestions.deck(deckId)), errors),
    ),
    ...(options.deckIds ?? []).map((deckId) =>
      engram.realtime.onDeckContent(
        deckId,
        (event) => {
          if (event.type === "resync" || event.table === "decks" || event.table === "deck_members") {
            // A deck's options may have come from its preset, whose count of decks may have changed.
            invalidate(
              engramKeys.decks.all,
              engramKeys.presets.all,
              engramKeys.members.list(deckId),
              engramKeys.stats.decks(),
            );
          }
          if (event.type === "resync" || event.table === "note_types") {
            // A type's change may also rewrite its notes and cards, which are announced themselves.
            invalidate(engramKeys.noteTypes.deck(deckId));
            if (event.type !== "resync") {
              if (event.ids === null) invalidate([...engramKeys.noteTypes.all, "detail"]);
              else for (const typeId of event.ids) invalidate(engramKeys.noteTypes.detail(typeId));
            }
          }
          if (event.type === "resync" || event.table === "notes" || event.table === "cards") {
            invalidate(engramKeys.notes.deck(deckId), engramKeys.cards.all, engramKeys.study.all, engramKeys.stats.all);
            // A note moved in or out takes the user's personal layer on it along.
            invalidate(engramKeys.personalNotes.deck(deckId));
            if (event.type !== "resync" && event.table === "notes") {
              if (event.ids === null) invalidate([...engramKeys.notes.all, "detail"]);
              else for (const noteId of event.ids) invalidate(engramKeys.notes.detail(noteId));
            }
          }
        },
        errors,
      ),
    ),
  ];
  return async () => {
    importJobs.stop();
    await Promise.all(stops.map((stop) => stop()));
  };
}

/**
 * Reads import jobs again as their changes are announced: one read per job at
 * a time, and one more when a change arrives during it, so the last read
 * always follows the last change and an older answer never overwrites a newer.
 */
function jobRefresher(engram: Engram, apply: (job: ImportJob) => void) {
  const reading = new Map<string, { again: boolean }>();
  let stopped = false;
  return {
    refresh(jobId: string) {
      const current = reading.get(jobId);
      if (current) {
        current.again = true;
        return;
      }
      const state = { again: false };
      reading.set(jobId, state);
      void (async () => {
        do {
          state.again = false;
          // A job gone (deleted) or unreadable is left to the next resync.
          const job = await engram.storage.importJob(jobId).catch(() => null);
          if (job && !stopped) apply(job);
        } while (state.again && !stopped);
        reading.delete(jobId);
      })();
    },
    stop() {
      stopped = true;
    },
  };
}
