/** The deck screen's server state, straight from the SDK's query and mutation factories. */
import type { DeckNoteType, DeckRole } from "@engram/sdk";
import type { BrowsePagesParams, NotePagesParams } from "@engram/sdk/query";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useEngramQueries } from "../../session/factories.js";
import { useEngramMutations } from "../../session/mutations.js";

/** Notes fetched per page as the list scrolls. */
export const pageSize = 100;

/**
 * The deck and the user's role in it: a member's decks come with their role;
 * a public deck they do not belong to reads as role null (read-only).
 */
export function useDeckAccess(deckId: string) {
  const queries = useEngramQueries();
  const decks = useQuery(queries.decks.list());
  const mine = decks.data?.find((deck) => deck.id === deckId);
  const detail = useQuery({ ...queries.decks.detail(deckId), enabled: decks.isSuccess && !mine, retry: false });
  if (decks.isPending || (!mine && detail.isPending)) return { status: "loading" as const };
  if (decks.isError) return { status: "error" as const, error: decks.error, retry: () => decks.refetch() };
  if (mine) return { status: "ready" as const, deck: mine, role: mine.role as DeckRole | null };
  if (detail.isError) return { status: "not-found" as const, error: detail.error };
  if (!detail.data) return { status: "loading" as const };
  return { status: "ready" as const, deck: detail.data, role: null as DeckRole | null };
}

export const canEdit = (role: DeckRole | null) => role === "owner" || role === "editor";

export function useNotePages(deckId: string, params: NotePagesParams) {
  return useInfiniteQuery({
    ...useEngramQueries().notes.pages(deckId, params, pageSize),
    // The previous view stays while a new search loads, so the list does not flash empty.
    placeholderData: keepPreviousData,
  });
}

/** The browser's rows (notes or cards), sorted and paged by the database. */
export function useBrowsePages(deckId: string, params: BrowsePagesParams) {
  return useInfiniteQuery({
    ...useEngramQueries().notes.browsePages(deckId, params, pageSize),
    // The previous view stays while a new search or order loads, so the list does not flash empty.
    placeholderData: keepPreviousData,
  });
}

const noNoteTypes: DeckNoteType[] = [];

/** The note types the deck's notes may use (its own and its ancestors'), as a list and by id. */
export function useDeckNoteTypes(deckId: string) {
  const types = useQuery(useEngramQueries().noteTypes.usable(deckId));
  const list = types.data ?? noNoteTypes;
  const byId = useMemo(() => new Map(list.map((type) => [type.id, type])), [list]);
  return { list, byId, isPending: types.isPending };
}

export function useNoteCards(noteId: string) {
  return useQuery(useEngramQueries().cards.forNote(noteId));
}

export function useMembers(deckId: string, enabled: boolean) {
  return useQuery({ ...useEngramQueries().members.list(deckId), enabled });
}

export function useEditableDecks() {
  const decks = useQuery(useEngramQueries().decks.list());
  return (decks.data ?? []).filter((deck) => canEdit(deck.role));
}

export function useProfile() {
  return useQuery(useEngramQueries().profile.get());
}

export function useDeckMutations() {
  const mutations = useEngramMutations();
  return {
    addTags: useMutation(mutations.notes.addTags()),
    removeTags: useMutation(mutations.notes.removeTags()),
    move: useMutation(mutations.notes.move()),
    remove: useMutation(mutations.notes.remove()),
    suspendNotes: useMutation(mutations.cards.setSuspendedForNotes()),
    suspendCards: useMutation(mutations.cards.setSuspended()),
  };
}
