/**
 * Invalidation sets for changes made outside the mutations: work done in a
 * worker or another process (`@engram/sdk/transfer`) writes to the database
 * directly, and the cache learns of it here. Each set is named for the event
 * and lists exactly the keys that event can change.
 */
import type { QueryClient } from "@tanstack/react-query";
import { engramKeys } from "./keys.js";

type Key = readonly unknown[];

/** Invalidates every query under each key (by prefix); resolves once the active ones have refetched. */
export function invalidateKeys(queryClient: QueryClient, keys: readonly Key[]): Promise<void> {
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined);
}

export const engramChanges = {
  /**
   * An import (`importDeck`): it may create decks (with the presets of the
   * package's option groups) and adds or updates notes, their cards,
   * schedules and review history, so the deck list and its counts, presets,
   * notes, cards, what is due and every statistic change. It records an import
   * job, and media it uploads may replace files of the same name, whose links
   * are signed again.
   */
  imported: () => [
    engramKeys.decks.all,
    engramKeys.presets.all,
    engramKeys.notes.all,
    engramKeys.cards.all,
    engramKeys.study.all,
    engramKeys.stats.all,
    engramKeys.imports.all,
    engramKeys.media.all,
  ],
  /**
   * New FSRS parameters saved to the profile (`optimizeScheduler`): the profile
   * shows them, the study queue's scheduler and the workload forecast use them.
   * Due dates stay as they are until the cards are rescheduled.
   */
  parametersSaved: () => [engramKeys.profile.all, engramKeys.study.all, engramKeys.stats.all],
  /**
   * Cards rescheduled with new parameters (`rescheduleCards`): due dates moved,
   * so every count of what is due and the schedules shown are stale.
   */
  cardsRescheduled: () => [engramKeys.study.all, engramKeys.stats.all, engramKeys.cards.all, engramKeys.decks.all],
} satisfies Record<string, () => Key[]>;

/** The invalidation for each event in `engramChanges`, bound to a query client. */
export function engramInvalidations(queryClient: QueryClient) {
  return {
    imported: () => invalidateKeys(queryClient, engramChanges.imported()),
    parametersSaved: () => invalidateKeys(queryClient, engramChanges.parametersSaved()),
    cardsRescheduled: () => invalidateKeys(queryClient, engramChanges.cardsRescheduled()),
  };
}
