/**
 * Card info, as Anki's (docs/product.md §2): one card's note, deck and
 * template, the user's own schedule with its retrievability and forgetting
 * curve, and every answer they gave it. Opened from a card in the browser
 * and from the card being studied.
 */
import type { CardInfo, CardReview } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../lib/error-messages.js";
import { useEngramQueries } from "../session/factories.js";
import { Dialog } from "../ui/dialog.js";
import { Loading } from "../ui/loading.js";
import { ForgettingCurve } from "./forgetting-curve.js";
import "./card-info.css";

const dayMs = 86_400_000;
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const ratingNames: Record<number, string> = { 1: "Again", 2: "Hard", 3: "Good", 4: "Easy" };
const stateNames: Record<CardReview["state"], string> = {
  new: "New",
  learning: "Learning",
  review: "Review",
  relearning: "Relearning",
};

const date = (value: string | null) => (value ? dateFormat.format(new Date(value)) : "—");
const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)} %`);
const days = (value: number | null) => {
  if (value === null) return "—";
  if (value < 1) return "Under a day";
  return value === 1 ? "1 day" : `${Math.round(value * 10) / 10} days`;
};
const seconds = (ms: number | null) => (ms === null ? "—" : `${Math.round(ms / 100) / 10} s`);

export function CardInfoDialog({ cardId, onClose }: { cardId: string; onClose: () => void }) {
  const queries = useEngramQueries();
  const info = useQuery(queries.cards.info(cardId));
  return (
    <Dialog title="Card info" onClose={onClose} size="wide" closeButton closeOnOutsideClick className="card-info">
      {info.isPending ? (
        <Loading label="Loading the card's info…" />
      ) : info.isError ? (
        <p role="alert">{errorMessage(info.error)}</p>
      ) : (
        <CardInfoBody info={info.data} />
      )}
    </Dialog>
  );
}

function CardInfoBody({ info }: { info: CardInfo }) {
  const facts: [string, string][] = [
    ["Note", info.sortField || "(empty)"],
    ["Deck", info.deckName],
    ["Note type", info.noteTypeName],
    ["Card", info.template],
    ["Added", date(info.added)],
    ["First review", date(info.firstReview)],
    ["Latest review", date(info.latestReview)],
    ["Due", info.suspended ? "Suspended" : info.due ? date(info.due) : "Not studied yet"],
    ["Interval", days(info.intervalDays)],
    ["Stability", days(info.stability)],
    ["Difficulty", percent(info.difficulty)],
    ["Retrievability", percent(info.retrievability)],
    ["Reviews", String(info.reviewCount)],
    ["Lapses", String(info.lapses)],
    ["Average time", seconds(info.averageTimeMs)],
    ["Total time", seconds(info.totalTimeMs)],
  ];
  const sinceLast = info.latestReview ? Math.max(0, (Date.now() - Date.parse(info.latestReview)) / dayMs) : null;
  return (
    <div className="card-info-body">
      <dl className="card-info-facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {info.stability !== null && info.stability > 0 && sinceLast !== null ? (
        <ForgettingCurve
          stability={info.stability}
          decay={info.decay}
          today={sinceLast}
          intervalDays={info.intervalDays ?? 0}
        />
      ) : null}
      {info.reviews.length === 0 ? (
        <p className="muted">You have not answered this card yet.</p>
      ) : (
        <div className="card-info-reviews">
          <table>
            <caption>Your reviews of this card</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Type</th>
                <th scope="col">Rating</th>
                <th scope="col">Interval</th>
                <th scope="col">Stability</th>
                <th scope="col">Difficulty</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {[...info.reviews].reverse().map((review) => (
                <tr key={review.reviewedAt}>
                  <td>{dateTimeFormat.format(new Date(review.reviewedAt))}</td>
                  <td>{stateNames[review.state]}</td>
                  <td className={`rating rating-${review.rating}`}>{ratingNames[review.rating] ?? review.rating}</td>
                  <td>{days(review.intervalDays)}</td>
                  <td>{days(review.stability)}</td>
                  <td>{percent(review.difficulty)}</td>
                  <td>{seconds(review.durationMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
