import type { DeckStats } from "@engram/sdk";
import { Link } from "react-router";
import { type DueCounts, dueCounts, totalDue } from "./due-counts.js";

const queues: { key: keyof DueCounts; label: string }[] = [
  { key: "new", label: "New" },
  { key: "learning", label: "Learning" },
  { key: "review", label: "Review" },
];

/** Anki's three numbers for one deck, coloured as on the study screen. */
export function DueNumbers({ counts }: { counts: DueCounts }) {
  return (
    <ul className="due-numbers" aria-label="Due today">
      {queues.map(({ key, label }) => (
        <li key={key} className={`due-number ${key}${counts[key] === 0 ? " zero" : ""}`}>
          <span className="due-number-value">{counts[key]}</span> {label.toLowerCase()}
        </li>
      ))}
    </ul>
  );
}

/** Each deck with what is due in it today and the way into studying it. */
export function DueDecks({ decks }: { decks: DeckStats[] }) {
  return (
    <ul className="due-decks" aria-label="Due today by deck">
      {decks.map((deck) => {
        const counts = dueCounts(deck);
        const nameId = `due-deck-${deck.deck_id}`;
        return (
          <li key={deck.deck_id} className="due-deck" aria-labelledby={nameId}>
            <Link id={nameId} className="due-deck-name" to={`/decks/${deck.deck_id}`}>
              {deck.name}
            </Link>
            <DueNumbers counts={counts} />
            {totalDue(counts) > 0 ? (
              <Link className="button secondary small" to={`/decks/${deck.deck_id}/study`}>
                Study<span className="visually-hidden"> {deck.name}</span>
              </Link>
            ) : (
              <span className="due-nothing">Nothing due</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
