import type { Deck, DeckRole } from "@engram/sdk";

/**
 * Whether the note browser offers suggesting instead of editing: to viewers
 * unless the deck takes no suggestions, and to readers of a public deck that
 * takes them from anyone (docs/product.md §4, "Suggestions"). The database
 * decides; this only chooses the buttons.
 */
export function offersSuggestions(deck: Pick<Deck, "suggestions_from">, role: DeckRole | null): boolean {
  if (role === "owner" || role === "editor") return false;
  if (role === "viewer") return deck.suggestions_from !== "nobody";
  return deck.suggestions_from === "public";
}
