/** Anki's three numbers of what is due today — new, learning, review — as the deck list and dashboard show them. */
import type { DeckStats } from "@engram/sdk";
import "./due-counts.css";

export interface DueCounts {
  new: number;
  learning: number;
  review: number;
}

/**
 * Today's counts of one deck as the study screen will show them, from
 * `deck_stats`: new cards today's limits still allow, and the cards due
 * before the study day ends. `due_count` covers learning and review cards
 * together; learning steps are minutes long, so a deck's learning cards are
 * due today and the rest of what is due are reviews.
 */
export function dueCounts(stats: DeckStats | undefined): DueCounts {
  if (!stats) return { new: 0, learning: 0, review: 0 };
  const learning = Math.min(stats.learning_count, stats.due_count);
  return { new: stats.new_today, learning, review: stats.due_count - learning };
}

export const totalDue = (counts: DueCounts) => counts.new + counts.learning + counts.review;

const queues = ["new", "learning", "review"] as const;

/** The three numbers, coloured as on the study screen. */
export function DueCountList({ counts }: { counts: DueCounts }) {
  return (
    <ul className="due-counts" aria-label="Due today">
      {queues.map((queue) => (
        <li key={queue} className={`due-count ${queue}${counts[queue] === 0 ? " zero" : ""}`}>
          <span className="due-count-value">{counts[queue]}</span> {queue}
        </li>
      ))}
    </ul>
  );
}
