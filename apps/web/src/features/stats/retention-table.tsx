import { formatCount, percent } from "../../lib/stats-format.js";
import type { RetentionRow, ReviewStats } from "./stats-types.js";

const periodLabels: Record<RetentionRow["period"], string> = {
  today: "Today",
  yesterday: "Yesterday",
  week: "Last week",
  month: "Last month",
  year: "Last year",
};

type Counts = { passed: number; failed: number };
const add = (a: Counts, b: Counts): Counts => ({ passed: a.passed + b.passed, failed: a.failed + b.failed });

/**
 * True retention as Anki reports it: of the answers to cards in review,
 * how many were not "again", for young (interval under 21 days) and mature
 * cards. A table is the chart here, as in Anki.
 */
export function RetentionTable({ reviews }: { reviews: ReviewStats }) {
  const month = reviews.retention.find((row) => row.period === "month");
  const monthTotal = month ? add(month.young, month.mature) : { passed: 0, failed: 0 };
  const monthRate = percent(monthTotal.passed, monthTotal.passed + monthTotal.failed);
  return (
    <section className="stats-card wide" aria-labelledby="retention-title" data-section="retention">
      <div className="stats-card-header">
        <h2 id="retention-title">True retention</h2>
      </div>
      <p className="stats-summary">
        {monthRate
          ? `${monthRate} of reviews passed in the last month. Answers to cards in review count; "Again" fails.`
          : `No reviews of cards in review in the last month yet. Answers to cards in review count; "Again" fails.`}
      </p>
      {/* Nine columns do not fit a phone: the table scrolls sideways in its own focusable box. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <section className="stats-scroll" tabIndex={0} aria-label="True retention table">
        <table className="stats-table retention-table">
          <caption className="visually-hidden">True retention by period, young and mature cards</caption>
          <thead>
            <tr>
              <td />
              <th scope="colgroup" colSpan={3}>
                Young
              </th>
              <th scope="colgroup" colSpan={3}>
                Mature
              </th>
              <th scope="colgroup" colSpan={3}>
                Total
              </th>
            </tr>
            <tr>
              <th scope="col">Period</th>
              {["young", "mature", "total"].map((group) => (
                <RateHeads key={group} group={group} />
              ))}
            </tr>
          </thead>
          <tbody>
            {reviews.retention.map((row) => (
              <tr key={row.period} data-period={row.period}>
                <th scope="row">{periodLabels[row.period]}</th>
                <RateCells counts={row.young} />
                <RateCells counts={row.mature} />
                <RateCells counts={add(row.young, row.mature)} strong />
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}

function RateHeads({ group }: { group: string }) {
  return (
    <>
      <th scope="col" className="group-start">
        Passed<span className="visually-hidden"> ({group})</span>
      </th>
      <th scope="col">
        Failed<span className="visually-hidden"> ({group})</span>
      </th>
      <th scope="col">
        Retention<span className="visually-hidden"> ({group})</span>
      </th>
    </>
  );
}

function RateCells({ counts, strong = false }: { counts: Counts; strong?: boolean }) {
  return (
    <>
      <td className="group-start">{formatCount(counts.passed)}</td>
      <td>{formatCount(counts.failed)}</td>
      <td className={strong ? "rate strong" : "rate"}>
        {percent(counts.passed, counts.passed + counts.failed) ?? "—"}
      </td>
    </>
  );
}
