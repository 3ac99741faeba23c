import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../../lib/error-messages.js";
import { isId } from "../../lib/ids.js";
import { Link, useParams } from "../../lib/navigation.js";
import { useEngramQueries } from "../../session/factories.js";
import { Loading } from "../../ui/loading.js";
import { NotFoundPage } from "../../ui/not-found-page.js";
import { usePageTitle } from "../../ui/page-title.js";
import { StudySession } from "./study-session.js";
import { useOpenSession } from "./use-study-session.js";
import "./study.css";

/** `/decks/:deckId/study` (one deck) and `/study` (every deck): Anki's study screen. */
export function StudyPage() {
  const { deckId } = useParams();
  // An address that cannot name a deck is a page that does not exist, not a form to correct.
  if (deckId !== undefined && !isId(deckId)) return <NotFoundPage />;
  return <StudyScreen deckId={deckId} />;
}

function StudyScreen({ deckId }: { deckId: string | undefined }) {
  const queries = useEngramQueries();
  // The name is a nicety: offline it may be missing, and studying goes on without it.
  const deck = useQuery({ ...queries.decks.detail(deckId ?? ""), enabled: deckId !== undefined, retry: false });
  const title = deckId ? (deck.data ? deck.data.name : "Study") : "All decks";
  usePageTitle(deckId ? `Study ${deck.data?.name ?? ""}`.trim() : "Study all decks");
  const opening = useOpenSession(deckId);

  return (
    <div className="page study-page">
      <header className="study-header">
        <h1>{title}</h1>
        <Link to={deckId ? `/decks/${deckId}` : "/decks"} className="study-back">
          {deckId ? "Back to the deck" : "Back to your decks"}
        </Link>
      </header>
      {opening.status === "loading" && <Loading label="Loading today's cards…" />}
      {opening.status === "error" && (
        <div className="notice study-error" role="alert">
          <p>{errorMessage(opening.error)}</p>
          <button type="button" className="button secondary" onClick={opening.retry}>
            Try again
          </button>
        </div>
      )}
      {opening.status === "ready" && (
        <StudySession
          key={`${deckId ?? "all"}:${opening.attempt}`}
          session={opening.session}
          cards={opening.cards}
          fromDevice={opening.fromDevice}
          deckId={deckId}
        />
      )}
    </div>
  );
}
