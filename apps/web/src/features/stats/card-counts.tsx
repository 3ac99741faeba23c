import { DonutChart } from "../../charts/donut-chart.js";
import { formatCount, percent, plural } from "../../lib/stats-format.js";
import { stateColors } from "./colors.js";
import type { UserStats } from "./stats-types.js";

const states = ["new", "learning", "relearning", "review", "suspended"] as const;
const labels = { new: "New", learning: "Learning", relearning: "Relearning", review: "Review", suspended: "Suspended" };

/** Cards by state (Anki's "Card counts"): a donut for the eyes beside a table of the numbers, which is also its key. */
export function CardCounts({ user }: { user: UserStats }) {
  const counts = user.card_counts;
  const total = states.reduce((sum, state) => sum + counts[state], 0);
  const slices = states.map((state) => ({ state, name: labels[state], value: counts[state] }));
  // No cards at all draws a grey ring.
  const drawn =
    total === 0
      ? [{ key: "none", value: 1, color: "var(--surface)" }]
      : slices.map((slice) => ({ key: slice.state, value: slice.value, color: stateColors[slice.state] }));
  const summary =
    total === 0
      ? "No cards yet."
      : `${plural(total, "card")}: ${states.map((state) => `${formatCount(counts[state])} ${labels[state].toLowerCase()}`).join(", ")}.`;

  return (
    <section className="stats-card" aria-labelledby="counts-title" data-section="counts">
      <div className="stats-card-header">
        <h2 id="counts-title">Card counts</h2>
      </div>
      <p className="stats-summary">{total === 0 ? "No cards yet." : `${plural(total, "card")} in all.`}</p>
      <div className="card-counts">
        <div className="stats-donut" role="img" aria-label={`Donut chart of cards by state. ${summary}`}>
          <DonutChart slices={drawn} />
          <p className="stats-donut-total" aria-hidden="true">
            <span>{formatCount(total)}</span> cards
          </p>
        </div>
        <table className="stats-table counts-table">
          <caption className="visually-hidden">Cards by state</caption>
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Cards</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {slices.map((slice) => (
              <tr key={slice.state}>
                <th scope="row">
                  <span className="stats-swatch" style={{ background: stateColors[slice.state] }} aria-hidden="true" />
                  {slice.name}
                </th>
                <td>{formatCount(slice.value)}</td>
                <td>{percent(slice.value, total) ?? "—"}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td>{formatCount(total)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
