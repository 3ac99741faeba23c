import type { SessionCounts as Counts, StudyQueue } from "@engram/sdk";

const queues: { queue: StudyQueue; name: string }[] = [
  { queue: "new", name: "New" },
  { queue: "learning", name: "Learning" },
  { queue: "review", name: "Review" },
];

/** Anki's three numbers: cards left that are new, in learning, and due for review; the current card's queue underlined. */
export function SessionCounts({ counts, currentQueue }: { counts: Counts; currentQueue: StudyQueue | undefined }) {
  return (
    <ul className="session-counts" aria-label="Cards left">
      {queues.map(({ queue, name }) => (
        <li key={queue} className={`session-count ${queue}`} aria-current={queue === currentQueue ? "true" : undefined}>
          <span className="session-count-number">{counts[queue]}</span>{" "}
          <span className="session-count-name">{name}</span>
        </li>
      ))}
    </ul>
  );
}
