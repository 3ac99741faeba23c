/**
 * `/decks/:deckId/custom-study?mode=…`: a custom session (docs/product.md,
 * "Custom study") on the study screen, under a banner naming what it studies
 * and whether answers reschedule the cards.
 */
import { customStudyLimit } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { type CustomChoice, describeChoice, parseCustomChoice } from "../../custom-study/custom-params.js";
import { errorMessage } from "../../lib/error-messages.js";
import { isId } from "../../lib/ids.js";
import { Link, useParams, useSearchParams } from "../../lib/navigation.js";
import { useEngramQueries } from "../../session/factories.js";
import { Loading } from "../../ui/loading.js";
import { NotFoundPage } from "../../ui/not-found-page.js";
import { usePageTitle } from "../../ui/page-title.js";
import { StudySession } from "./study-session.js";
import { type CardSource, useOpenSession } from "./use-study-session.js";
import "./study.css";
import "../../custom-study/custom-study.css";

export function CustomStudyPage() {
  const { deckId } = useParams();
  const [params] = useSearchParams();
  const address = params.toString();
  // One object per address, so the session opens once per choice.
  const choice = useMemo(
    () => (deckId && isId(deckId) ? parseCustomChoice(new URLSearchParams(address), deckId) : null),
    [address, deckId],
  );
  if (deckId === undefined || !isId(deckId)) return <NotFoundPage />;
  return choice ? (
    <CustomStudyScreen key={address} deckId={deckId} choice={choice} />
  ) : (
    <div className="page study-page">
      <h1>Custom study</h1>
      <p role="alert">This address names no custom study. Choose one from the deck.</p>
      <Link to={`/decks/${deckId}`} className="button secondary">
        Back to the deck
      </Link>
    </div>
  );
}

const count = new Intl.NumberFormat("en");

function CustomStudyScreen({ deckId, choice }: { deckId: string; choice: CustomChoice }) {
  const queries = useEngramQueries();
  const deck = useQuery({ ...queries.decks.detail(deckId), retry: false });
  usePageTitle(`Custom study ${deck.data?.name ?? ""}`.trim());
  const source = useMemo<CardSource>(() => ({ kind: "custom", ...choice }), [choice]);
  const opening = useOpenSession(deckId, source);

  return (
    <div className="page study-page">
      <header className="study-header">
        <h1>{deck.data ? `${deck.data.name}: custom study` : "Custom study"}</h1>
        <Link to={`/decks/${deckId}`} className="study-back">
          Back to the deck
        </Link>
      </header>
      <section className="custom-study-banner" aria-label="Custom study">
        <p>{describeChoice(choice.options)}.</p>
        <p>
          <strong>
            {choice.preview ? "Preview — your schedule is not changed." : "Answers reschedule these cards as usual."}
          </strong>
        </p>
        {opening.status === "ready" && opening.matched > customStudyLimit ? (
          <p>
            The first {count.format(customStudyLimit)} of {count.format(opening.matched)} matching cards.
          </p>
        ) : null}
      </section>
      {opening.status === "loading" && <Loading label="Loading the cards…" />}
      {opening.status === "error" && (
        <div className="notice study-error" role="alert">
          <p>{errorMessage(opening.error)}</p>
          <button type="button" className="button secondary" onClick={opening.retry}>
            Try again
          </button>
        </div>
      )}
      {opening.status === "ready" &&
        (opening.cards.size === 0 ? (
          <section className="study-state" aria-labelledby="no-match-heading">
            <h2 id="no-match-heading">No cards match</h2>
            <p>Nothing to study with this choice now.</p>
            <div className="study-state-actions">
              <Link className="button secondary" to={`/decks/${deckId}`}>
                Back to the deck
              </Link>
            </div>
          </section>
        ) : (
          <StudySession
            key={opening.attempt}
            session={opening.session}
            cards={opening.cards}
            fromDevice={false}
            deckId={deckId}
          />
        ))}
    </div>
  );
}
