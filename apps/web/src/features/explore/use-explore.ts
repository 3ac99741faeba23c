/** Public decks page by page, a deck's first notes for its preview, and cloning one into the user's decks. */
import type { ExploreSort } from "@engram/sdk";
import { engramKeys } from "@engram/sdk/query";
import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { useEngram } from "../../session/engram-context.js";
import { useEngramMutations, useEngramQueries } from "../../session/factories.js";

export const pageSize = 20;
export const previewSize = 10;

export function usePublicDecks(search: string, sort: ExploreSort) {
  const engram = useEngram();
  const params = { ...(search ? { search } : {}), sort };
  return useInfiniteQuery({
    queryKey: [...engramKeys.decks.explore(params), "pages"],
    queryFn: ({ pageParam }) => engram.decks.explore({ ...params, limit: pageSize, offset: pageParam }),
    initialPageParam: 0,
    // A short page is the last one.
    getNextPageParam: (last, pages) => (last.length === pageSize ? pages.length * pageSize : undefined),
    placeholderData: (previous) => previous,
  });
}

export function usePreviewDeck(deckId: string) {
  return useQuery(useEngramQueries().decks.detail(deckId));
}

/** The deck's first notes, oldest first: the cards its author put at the start. */
export function usePreviewNotes(deckId: string) {
  return useQuery(useEngramQueries().notes.list(deckId, { limit: previewSize, sort: "oldest" }));
}

export function useCloneDeck() {
  return useMutation(useEngramMutations().decks.clone());
}
