/** Where an import's notes go: the choice the import screen's form edits (import-target.tsx). */
import { limits } from "@engram/core";
import type { MyDeck } from "@engram/sdk";

export type TargetChoice = {
  into: "new" | "existing";
  newDeckName: string;
  deckId: string;
  existing: "update" | "skip";
  includeSchedule: boolean;
  /** The package's option groups as presets of the decks the import makes (Anki's "Import deck presets"). */
  includePresets: boolean;
  /** An Anki package with several decks: one subdeck per Anki deck (true), or everything in one deck. */
  deckTree: boolean;
};

/**
 * Whether the package's deck tree can be kept: it has several decks, and they
 * go into a new deck or one the user owns (only owners add subdecks).
 */
export function canKeepTree(choice: TargetChoice, decks: MyDeck[], deckNames: readonly string[]): boolean {
  if (deckNames.length < 2) return false;
  return choice.into === "new" || decks.find((deck) => deck.id === choice.deckId)?.role === "owner";
}

/** A deck name as the database takes it: 1–120 characters once trimmed. */
export function deckNameError(name: string): string | undefined {
  const length = name.trim().length;
  if (length === 0) return "Name the new deck.";
  if (length > limits.deckName) return `Keep the name to ${limits.deckName} characters or fewer.`;
  return undefined;
}
