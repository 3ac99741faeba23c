/**
 * `mutationOptions` for every write, each invalidating the keys it affects by
 * prefix. `onSuccess` returns the invalidation promise, so `isPending` lasts
 * until the refetch has landed.
 */
import { mutationOptions, type QueryClient } from "@tanstack/react-query";
import type { Engram } from "../client.js";
import type { DeckInput, DeckPatch } from "../decks.js";
import type { ProfilePatch } from "../profile.js";
import { engramKeys } from "./keys.js";

export function engramMutations(engram: Engram, queryClient: QueryClient) {
  const invalidate = (...keys: (readonly unknown[])[]) =>
    Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));

  return {
    auth: {
      signOut: () =>
        mutationOptions({
          mutationFn: (scope: "local" | "global" | "others" = "local") => engram.auth.signOut({ scope }),
          // Nothing cached belongs to the next user.
          onSuccess: () => queryClient.clear(),
        }),
    },
    profile: {
      update: () =>
        mutationOptions({
          mutationFn: (patch: ProfilePatch) => engram.profile.update(patch),
          onSuccess: (profile) => queryClient.setQueryData(engramKeys.profile.detail(), profile),
        }),
    },
    decks: {
      create: () =>
        mutationOptions({
          mutationFn: (input: DeckInput) => engram.decks.create(input),
          onSuccess: () => invalidate(engramKeys.decks.all),
        }),
      update: () =>
        mutationOptions({
          mutationFn: ({ deckId, patch }: { deckId: string; patch: DeckPatch }) => engram.decks.update(deckId, patch),
          onSuccess: () => invalidate(engramKeys.decks.all),
        }),
      remove: () =>
        mutationOptions({
          mutationFn: (deckId: string) => engram.decks.remove(deckId),
          onSuccess: () => invalidate(engramKeys.decks.all),
        }),
      clone: () =>
        mutationOptions({
          mutationFn: ({ deckId, name }: { deckId: string; name?: string }) => engram.decks.clone(deckId, name),
          onSuccess: () => invalidate(engramKeys.decks.all),
        }),
    },
  };
}
