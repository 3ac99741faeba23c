/** The deck header's way to its review queue, with the number waiting, kept live (owners and editors). */
import { useQuery } from "@tanstack/react-query";
import { MessageSquareDiff } from "lucide-react";
import { Link } from "../lib/navigation.js";
import { useEngramQueries } from "../session/factories.js";
import "./suggestions-link.css";

export function SuggestionsLink({ deckId }: { deckId: string }) {
  const queries = useEngramQueries();
  const count = useQuery(queries.suggestions.pendingCount(deckId)).data ?? 0;
  return (
    <Link to={`/decks/${deckId}/suggestions`} className="button secondary suggestions-link">
      <MessageSquareDiff aria-hidden="true" /> Suggestions
      {count > 0 ? (
        <span className="suggestions-count" data-count={count}>
          {count}
          <span className="visually-hidden"> waiting</span>
        </span>
      ) : null}
    </Link>
  );
}
