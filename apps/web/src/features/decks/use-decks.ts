/** Deck data for the screens, straight from the SDK's query and mutation factories. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";

export function useDecks() {
  return useQuery(useEngramQueries().decks.list());
}

export function useCreateDeck() {
  return useMutation(useEngramMutations().decks.create());
}

export function useUpdateDeck() {
  return useMutation(useEngramMutations().decks.update());
}

export function useRemoveDeck() {
  return useMutation(useEngramMutations().decks.remove());
}

export function useLeaveDeck() {
  return useMutation(useEngramMutations().members.leave());
}

/** Today's figures per deck (due counts), by deck id. */
export function useDeckStats() {
  return useQuery(useEngramQueries().stats.decks());
}

/** Moves a deck in the tree (owners only). */
export function useSetDeckParent() {
  return useMutation(useEngramMutations().decks.setParent());
}
