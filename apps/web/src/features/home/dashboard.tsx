import type { DeckStats, UserStats } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { CalendarClock, CheckCircle2, FileUp, Flame, Layers, Play } from "lucide-react";
import { errorMessage } from "../../lib/error-messages.js";
import { Link } from "../../lib/navigation.js";
import { formatDay } from "../../lib/stats-format.js";
import { OptimiseScheduler } from "../../optimiser/optimise-scheduler.js";
import { AddSampleDeckButton, SampleDeckAdded, useAddSampleDeck } from "../../sample-deck/sample-deck.js";
import { useEngramQueries } from "../../session/factories.js";
import { LiveUpdates } from "../../session/live-updates.js";
import { DueCountList, type DueCounts, dueCounts, totalDue } from "../../ui/due-counts.js";
import { Loading } from "../../ui/loading.js";
import { usePageTitle } from "../../ui/page-title.js";
import { DueDecks } from "./due-decks.js";
import { Heatmap } from "./heatmap.js";
import "./dashboard.css";

/** The signed-in start page: what is due today per deck, the streak and a year of reviews. */
export function Dashboard() {
  usePageTitle("Today");
  const queries = useEngramQueries();
  const decks = useQuery(queries.stats.decks());
  const user = useQuery(queries.stats.user());
  const addSample = useAddSampleDeck();

  return (
    <div className="page dashboard">
      {/* `/` is outside the signed-in routes' layout, so it follows changes made elsewhere itself. */}
      <LiveUpdates />
      <h1>Today</h1>
      {addSample.data ? <SampleDeckAdded sample={addSample.data} /> : null}
      {decks.isPending || user.isPending ? (
        <Loading label="Loading your day…" />
      ) : decks.isError || user.isError ? (
        <div role="alert" className="notice">
          <p>{errorMessage(decks.error ?? user.error)}</p>
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              void decks.refetch();
              void user.refetch();
            }}
          >
            Try again
          </button>
        </div>
      ) : decks.data.length === 0 ? (
        addSample.data ? null : (
          <FirstDeck addSample={addSample} />
        )
      ) : (
        <Overview decks={decks.data} user={user.data} />
      )}
    </div>
  );
}

function FirstDeck({ addSample }: { addSample: ReturnType<typeof useAddSampleDeck> }) {
  return (
    <section className="dashboard-empty" aria-labelledby="first-deck-title">
      <Layers aria-hidden="true" className="dashboard-empty-icon" />
      <h2 id="first-deck-title">Make your first deck</h2>
      <p>
        A deck holds the notes you want to remember. Name one, add a few notes, and Engram shows each card right before
        you would forget it. Or start with a sample deck and see how studying works.
      </p>
      <div className="form-actions">
        <Link className="button primary" to="/decks" state={{ createDeck: true }}>
          Create a deck
        </Link>
        <Link className="button secondary" to="/import">
          <FileUp aria-hidden="true" /> Import
        </Link>
        <AddSampleDeckButton add={addSample} />
      </div>
    </section>
  );
}

function sum(decks: DeckStats[]): DueCounts {
  return decks.map(dueCounts).reduce(
    (total, counts) => ({
      new: total.new + counts.new,
      learning: total.learning + counts.learning,
      review: total.review + counts.review,
    }),
    { new: 0, learning: 0, review: 0 },
  );
}

const cardsLabel = (count: number) => `${count} ${count === 1 ? "card" : "cards"}`;

function Overview({ decks, user }: { decks: DeckStats[]; user: UserStats }) {
  const due = sum(decks);
  const dueTotal = totalDue(due);
  const tomorrow = user.forecast[1]?.due;
  return (
    <>
      <section className="dashboard-today" aria-label="Today at a glance">
        <div className="today-due">
          {dueTotal > 0 ? (
            <>
              <p className="today-due-total">
                <span className="today-due-number">{dueTotal}</span> {dueTotal === 1 ? "card" : "cards"} due today
              </p>
              <DueCountList counts={due} />
              <Link className="button primary" to="/study">
                <Play aria-hidden="true" /> Study all
              </Link>
            </>
          ) : (
            <CaughtUp user={user} decks={decks} />
          )}
        </div>
        <dl className="today-figures">
          <div className="today-figure">
            <dt>
              <Flame aria-hidden="true" /> Streak
            </dt>
            <dd>
              {user.streak} {user.streak === 1 ? "day" : "days"}
            </dd>
          </div>
          <div className="today-figure">
            <dt>
              <CheckCircle2 aria-hidden="true" /> Reviewed today
            </dt>
            <dd>{cardsLabel(user.reviewed_today)}</dd>
          </div>
          {tomorrow === undefined ? null : (
            <div className="today-figure">
              <dt>
                <CalendarClock aria-hidden="true" /> Due tomorrow
              </dt>
              <dd>{cardsLabel(tomorrow)}</dd>
            </div>
          )}
        </dl>
      </section>
      <section className="dashboard-decks" aria-labelledby="dashboard-decks-title">
        <div className="dashboard-decks-header">
          <h2 id="dashboard-decks-title">Decks</h2>
          <Link to="/decks">Manage decks</Link>
        </div>
        <DueDecks decks={decks} />
      </section>
      <Heatmap today={user.today} counts={user.heatmap} />
      <OptimiseScheduler />
    </>
  );
}

/** Nothing due: say so, and when the next cards come, as far as the 30-day forecast tells. */
function CaughtUp({ user, decks }: { user: UserStats; decks: DeckStats[] }) {
  const next = user.forecast.find((day) => day.date > user.today && day.due > 0);
  const newWaiting = decks.some((deck) => deck.new_count > 0);
  let when: string;
  if (next && next === user.forecast[1]) when = `Next up: ${cardsLabel(next.due)} tomorrow.`;
  else if (next) when = `Next up: ${cardsLabel(next.due)} on ${formatDay(next.date)}.`;
  else if (newWaiting) when = "More new cards come tomorrow, when today's limit starts over.";
  else when = "Nothing is due in the next 30 days. Add notes to a deck to keep learning.";
  return (
    <div className="caught-up" role="status">
      <p className="caught-up-title">
        <CheckCircle2 aria-hidden="true" /> All caught up
      </p>
      <p>{when}</p>
    </div>
  );
}
