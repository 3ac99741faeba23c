import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useEngramQueries } from "../../session/factories.js";
import { pathTo } from "../deck-tree/deck-tree.js";

/**
 * The deck's name as Anki writes it, the whole path from the top ("Old
 * Decks::Board Review 2023"), for a card's `{{Deck}}` and `{{Subdeck}}`;
 * undefined while decks load or for a deck the user is not in.
 */
export function useDeckPath(deckId: string): string | undefined {
  const decks = useQuery(useEngramQueries().decks.list());
  return useMemo(() => {
    const path = pathTo(
      decks.data ?? [],
      deckId,
      (deck) => deck.id,
      (deck) => deck.parent_id,
    );
    return path.length === 0 ? undefined : path.map((deck) => deck.name).join("::");
  }, [decks.data, deckId]);
}
