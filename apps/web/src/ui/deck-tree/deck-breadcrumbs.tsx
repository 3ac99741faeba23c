import { useQuery } from "@tanstack/react-query";
import { Link } from "../../lib/navigation.js";
import { useEngramQueries } from "../../session/factories.js";
import { pathTo } from "./deck-tree.js";
import "./deck-breadcrumbs.css";

/**
 * Where a subdeck sits: its parents, each a link, then itself ("Old Decks ›
 * Board Review 2023"). Nothing for a top-level deck, or while decks load.
 */
export function DeckBreadcrumbs({ deckId }: { deckId: string }) {
  const decks = useQuery(useEngramQueries().decks.list());
  const path = pathTo(
    decks.data ?? [],
    deckId,
    (deck) => deck.id,
    (deck) => deck.parent_id,
  );
  if (path.length < 2) return null;
  return (
    <nav className="deck-breadcrumbs" aria-label="Deck path">
      <ol>
        {path.map((deck, index) =>
          index === path.length - 1 ? (
            <li key={deck.id} aria-current="page">
              {deck.name}
            </li>
          ) : (
            <li key={deck.id}>
              <Link to={`/decks/${deck.id}`}>{deck.name}</Link>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}
