import { Link } from "../../lib/navigation.js";

/** The way out of a finished or empty session: back to the deck studied, or to all decks. */
export function LeaveStudy({ deckId }: { deckId: string | undefined }) {
  return (
    <div className="study-state-actions">
      <Link className="button secondary" to={deckId ? `/decks/${deckId}` : "/decks"}>
        {deckId ? "Back to the deck" : "Your decks"}
      </Link>
    </div>
  );
}
