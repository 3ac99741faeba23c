/** Anki's three numbers of what is due today — new, learning, review — as the deck list and dashboard show them. */
import type { DeckStats } from "@engram/sdk";
import "./due-counts.css";

export interface DueCounts {
  new: number;
  learning: number;
  review: number;
}

/**
 * Today's counts of one deck from `deck_stats`: the new, learning and review
 * cards a study session of the deck gives now (the database counts the same
 * cards `study_queue` returns: within the deck's daily allowance, without
 * buried siblings), so their sum over all decks is what "Study all" gives.
 */
export function dueCounts(stats: DeckStats | undefined): DueCounts {
  if (!stats) return { new: 0, learning: 0, review: 0 };
  return { new: stats.new_today, learning: stats.learning_today, review: stats.review_today };
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
