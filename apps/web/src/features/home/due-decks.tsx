import type { DeckStats } from "@engram/sdk";
import { Link } from "react-router";
import { DueCountList, dueCounts, totalDue } from "../../ui/due-counts.js";

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
            <DueCountList counts={counts} />
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
