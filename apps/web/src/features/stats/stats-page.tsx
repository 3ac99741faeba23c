import { engramQueries } from "@engram/sdk/query";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { BarChart3, Play } from "lucide-react";
import { errorCode, errorMessage } from "../../lib/error-messages.js";
import { Link } from "../../lib/navigation.js";
import { useEngramQueries } from "../../session/factories.js";
import type { Prefetch } from "../../session/route-prefetch.js";
import { usePageTitle } from "../../ui/page-title.js";
import { AnswerButtons } from "./answer-buttons.js";
import { Calendar } from "./calendar.js";
import { CardCounts } from "./card-counts.js";
import { SectionSkeleton } from "./chart-section.js";
import { ForecastChart } from "./forecast-chart.js";
import { RetentionTable } from "./retention-table.js";
import { ReviewsChart } from "./reviews-chart.js";
import { StatsControls } from "./stats-controls.js";
import { readStatsParams, type StatsParams, useStatsParams } from "./stats-params.js";
import type { ReviewStats, UserStats } from "./stats-types.js";
import { TimeChart } from "./time-chart.js";
import { TodaySection } from "./today-section.js";
import "./stats.css";

/**
 * Anki's statistics for all decks or one: today, a year's calendar, reviews
 * and time per day, true retention, the due forecast, card counts and the
 * answer buttons. Changes made elsewhere arrive through the stats queries'
 * realtime invalidation.
 */
export function StatsPage() {
  usePageTitle("Statistics");
  const [params, update] = useStatsParams();
  const queries = useEngramQueries();
  const decks = useQuery(queries.decks.list());
  const figures = figureQueries(queries, params);
  // The previous figures stay on screen (dimmed) while another deck or period loads.
  const user = useQuery({ ...figures.user, placeholderData: keepPreviousData });
  const reviews = useQuery({ ...figures.reviews, placeholderData: keepPreviousData });
  const error = user.error ?? reviews.error;
  const updating = user.isPlaceholderData || reviews.isPlaceholderData;
  const state = error ? "error" : user.data && reviews.data ? (updating ? "updating" : "ready") : "loading";
  const deckName = decks.data?.find((deck) => deck.id === params.deckId)?.name;

  return (
    <div className="stats" data-state={state}>
      <div className="stats-header">
        <h1>
          <BarChart3 aria-hidden="true" className="stats-title-icon" /> Statistics
        </h1>
        <StatsControls decks={decks.data} params={params} onChange={update} />
      </div>
      <p className="visually-hidden" role="status">
        {state === "ready" ? `Showing ${deckName ? `the deck ${deckName}` : "all decks"}.` : ""}
      </p>
      {error ? (
        <div role="alert" className="notice stats-error">
          <p>{errorMessage(error)}</p>
          {errorCode(error) === "not-found" && params.deckId ? (
            <button type="button" className="button secondary" onClick={() => update({ deckId: undefined })}>
              Show all decks
            </button>
          ) : (
            <button
              type="button"
              className="button secondary"
              onClick={() => {
                void user.refetch();
                void reviews.refetch();
              }}
            >
              Try again
            </button>
          )}
        </div>
      ) : user.data && reviews.data ? (
        <Figures user={user.data} reviews={reviews.data} params={params} updating={updating} />
      ) : (
        <Skeletons />
      )}
    </div>
  );
}

/** The two requests behind the figures. */
function figureQueries(queries: ReturnType<typeof engramQueries>, params: StatsParams) {
  return {
    user: queries.stats.user({ deckId: params.deckId }),
    reviews: queries.stats.reviews({ deckId: params.deckId, days: params.period }),
  };
}

/** The figures' requests start with the route; the deck picker's list can wait its turn behind them. */
export const prefetchStats: Prefetch = (queryClient, engram, searchParams) => {
  const figures = figureQueries(engramQueries(engram), readStatsParams(searchParams));
  void queryClient.prefetchQuery(figures.user);
  void queryClient.prefetchQuery(figures.reviews);
};

function Figures({
  user,
  reviews,
  params,
  updating,
}: {
  user: UserStats;
  reviews: ReviewStats;
  params: StatsParams;
  updating: boolean;
}) {
  const studyPath = params.deckId ? `/decks/${params.deckId}/study` : "/study";
  if (user.heatmap.length === 0 && reviews.per_day.length === 0) {
    const cards = Object.values(user.card_counts).reduce((sum, count) => sum + count, 0);
    return (
      <div className="stats-grid" aria-busy={updating}>
        <section className="stats-empty stats-card wide" aria-labelledby="stats-empty-title">
          <BarChart3 aria-hidden="true" className="stats-empty-icon" />
          <h2 id="stats-empty-title">No reviews yet</h2>
          <p>
            Your statistics fill in as you study: answers per day, time, retention, what comes due next. Study a few
            cards and come back.
          </p>
          {cards > 0 ? (
            <Link className="button primary" to={studyPath}>
              <Play aria-hidden="true" /> Study now
            </Link>
          ) : (
            <Link className="button primary" to="/decks">
              Make a deck to study
            </Link>
          )}
        </section>
        {cards > 0 ? <CardCounts user={user} /> : null}
      </div>
    );
  }
  return (
    <div className="stats-grid" aria-busy={updating}>
      <TodaySection user={user} reviews={reviews} />
      <Calendar user={user} />
      <ReviewsChart reviews={reviews} period={params.period} />
      <TimeChart reviews={reviews} period={params.period} />
      <ForecastChart user={user} />
      <RetentionTable reviews={reviews} />
      <CardCounts user={user} />
      <AnswerButtons reviews={reviews} period={params.period} />
    </div>
  );
}

/** The panels' frames while the figures load, at their final heights. */
function Skeletons() {
  return (
    <div className="stats-grid" aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading statistics…
      </p>
      <SectionSkeleton title="Today" wide height="6.5rem" />
      <SectionSkeleton title="Past year" wide height="9rem" />
      <SectionSkeleton title="Reviews" wide />
      <SectionSkeleton title="Study time" />
      <SectionSkeleton title="Due forecast" />
    </div>
  );
}
