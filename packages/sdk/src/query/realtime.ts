/**
 * The one place realtime events reach the query cache: each event invalidates
 * (or, for import progress, patches) the queries it makes stale, and a resync
 * after a dropped connection invalidates everything that stream covers.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { Engram } from "../client.js";
import type { EngramError } from "../errors.js";
import type { ImportJob } from "../storage.js";
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
  const streams = 3 + (options.deckIds?.length ?? 0);
  let ready = 0;
  const errors = {
    ...(options.onError ? { onError: options.onError } : {}),
    onReady: () => {
      ready += 1;
      if (ready === streams) options.onReady?.();
    },
  };

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
    engram.realtime.onImportProgress((event) => {
      if (event.type === "resync") return invalidate(engramKeys.imports.all);
      const job: ImportJob = event.row;
      queryClient.setQueryData(engramKeys.imports.detail(job.id), job);
      queryClient.setQueryData<ImportJob[]>(engramKeys.imports.list(), (jobs) =>
        jobs ? [job, ...jobs.filter((other) => other.id !== job.id)] : jobs,
      );
      if (job.status === "done") {
        invalidate(engramKeys.decks.all, engramKeys.notes.all, engramKeys.study.all, engramKeys.stats.all);
      }
    }, errors),
    ...(options.deckIds ?? []).map((deckId) =>
      engram.realtime.onDeckContent(
        deckId,
        (event) => {
          if (event.type === "resync" || event.table === "decks" || event.table === "deck_members") {
            invalidate(engramKeys.decks.all, engramKeys.members.list(deckId), engramKeys.stats.decks());
          }
          if (event.type === "resync" || event.table === "notes" || event.table === "cards") {
            invalidate(engramKeys.notes.deck(deckId), engramKeys.cards.all, engramKeys.study.all, engramKeys.stats.all);
            if (event.type !== "resync" && event.table === "notes") {
              const noteId = event.type === "delete" ? event.old.id : event.row.id;
              if (noteId) invalidate(engramKeys.notes.detail(noteId));
            }
          }
        },
        errors,
      ),
    ),
  ];
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
