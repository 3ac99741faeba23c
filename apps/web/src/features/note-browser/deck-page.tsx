/** `/decks/:deckId`: the deck's header and its note browser, or a clear "not found". */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { errorMessage } from "../../lib/error-messages.js";
import { Link, useParams } from "../../lib/navigation.js";
import { useEngramQueries } from "../../session/factories.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { browseOptions, useBrowserParams } from "./browser-params.js";
import { DeckScreen } from "./deck-screen.js";
import { pageSize, useDeckAccess } from "./use-deck.js";
import "./deck.css";

export function DeckPage() {
  const { deckId = "" } = useParams();
  const access = useDeckAccess(deckId);
  // Whether this visit began with the user a member: losing the deck then means they were removed (or it was deleted).
  const wasMember = useRef(false);
  if (access.status === "ready" && access.role !== null) wasMember.current = true;
  const [params] = useBrowserParams();
  const queries = useEngramQueries();
  const queryClient = useQueryClient();
  // The first page of notes is asked for alongside the deck, not after it:
  // one round trip less before the first rows show.
  useEffect(() => {
    void queryClient.prefetchInfiniteQuery(queries.notes.browsePages(deckId, browseOptions(params), pageSize));
  }, [queryClient, queries, deckId, params]);

  if (access.status === "loading") return <Loading label="Loading the deck…" />;
  if (access.status === "error") {
    return (
      <div className="page" role="alert">
        <p>{errorMessage(access.error)}</p>
        <button type="button" className="button secondary" onClick={() => access.retry()}>
          Try again
        </button>
      </div>
    );
  }
  if (access.status === "not-found") return wasMember.current ? <AccessLost /> : <DeckNotFound />;
  return <DeckScreen key={deckId} deck={access.deck} role={access.role} />;
}

function AccessLost() {
  usePageTitle("No longer shared with you");
  return (
    <div className="page">
      <h1>You no longer have access to this deck</h1>
      <p role="alert">Its owner removed you from it, or deleted it. Your other decks are where you left them.</p>
      <p>
        <Link to="/decks" className="button primary">
          Go to your decks
        </Link>
      </p>
    </div>
  );
}

function DeckNotFound() {
  usePageTitle("Deck not found");
  return (
    <div className="page">
      <h1>Deck not found</h1>
      <p>This deck doesn't exist, or it isn't shared with you. Ask its owner for an invite link.</p>
      <p>
        <Link to="/decks">Back to your decks</Link>
      </p>
    </div>
  );
}
