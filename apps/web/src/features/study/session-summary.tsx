import { Rating } from "@engram/core";
import { useState } from "react";
import { LeaveStudy } from "./leave-study.js";

const rows = [
  { rating: Rating.again, name: "Again" },
  { rating: Rating.hard, name: "Hard" },
  { rating: Rating.good, name: "Good" },
  { rating: Rating.easy, name: "Easy" },
] as const;

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

/** The end of a session: how many answers, which buttons, how long, and how often "again". */
export function SessionSummary({
  ratings,
  startedAt,
  deckId,
}: {
  ratings: readonly Rating[];
  startedAt: number;
  deckId: string | undefined;
}) {
  const [endedAt] = useState(() => Date.now());
  const total = ratings.length;
  const count = (rating: Rating) => ratings.filter((r) => r === rating).length;
  const againRate = total === 0 ? 0 : Math.round((count(Rating.again) / total) * 100);
  return (
    <section className="study-state study-summary" aria-labelledby="summary-heading">
      <h2 id="summary-heading">Congratulations! You've finished for now.</h2>
      <p role="status">
        You answered {total === 1 ? "1 card" : `${total} cards`} in {duration(endedAt - startedAt)}. Again {againRate}%
        of the time, so you remembered {100 - againRate}%.
      </p>
      <table className="summary-table">
        <caption className="visually-hidden">Answers by button</caption>
        <thead>
          <tr>
            {rows.map((row) => (
              <th key={row.rating} scope="col" className={`summary-${row.name.toLowerCase()}`}>
                {row.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {rows.map((row) => (
              <td key={row.rating}>{count(row.rating)}</td>
            ))}
          </tr>
        </tbody>
      </table>
      <LeaveStudy deckId={deckId} />
    </section>
  );
}
