import type { DeckStats } from "@engram/sdk";
import type { DueCounts } from "../due-counts.js";

/**
 * What studying a deck gives today with its subdecks (`deck_stats`' tree
 * figures: each subdeck within its own limits, the deck's limits capping the
 * sum), as the deck list and the dashboard show next to a deck.
 */
export function treeDueCounts(stats: DeckStats | undefined): DueCounts {
  if (!stats) return { new: 0, learning: 0, review: 0 };
  return { new: stats.tree_new_today, learning: stats.tree_learning_today, review: stats.tree_review_today };
}
