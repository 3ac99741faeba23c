import type { DeckStats } from "@engram/sdk";

export interface DueCounts {
  new: number;
  learning: number;
  review: number;
}

/**
 * One deck's counts for today as the study screen will show them: new cards
 * today's limits still allow, and `due_count` (learning and review cards due
 * before the study day ends) split with the learning ones first, since
 * learning steps are minutes long and so due today.
 */
export function dueCounts(stats: DeckStats | undefined): DueCounts {
  if (!stats) return { new: 0, learning: 0, review: 0 };
  const learning = Math.min(stats.learning_count, stats.due_count);
  return { new: stats.new_today, learning, review: stats.due_count - learning };
}

const queues = [
  { key: "new", label: "new" },
  { key: "learning", label: "learning" },
  { key: "review", label: "review" },
] as const;

/** Anki's three numbers, coloured as on the study screen. */
export function DeckCounts({ counts }: { counts: DueCounts }) {
  return (
    <ul className="deck-counts" aria-label="Due today">
      {queues.map(({ key, label }) => (
        <li key={key} className={`deck-count ${key}${counts[key] === 0 ? " zero" : ""}`}>
          <span className="deck-count-value">{counts[key]}</span> {label}
        </li>
      ))}
    </ul>
  );
}
