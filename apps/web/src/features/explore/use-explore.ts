/** Public decks page by page, a deck's first notes for its preview, and cloning one into the user's decks. */
import type { ExploreSort } from "@engram/sdk";
import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";

export const pageSize = 20;
export const previewSize = 10;

export function usePublicDecks(search: string, sort: ExploreSort) {
  const params = { ...(search ? { search } : {}), sort };
  return useInfiniteQuery({
    ...useEngramQueries().decks.explorePages(params, pageSize),
    // The previous results stay while a new search loads.
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
