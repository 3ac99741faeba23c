import { useMemo } from "react";
import { formatCount, formatDay, plural } from "../stats/stats-format.js";
import { monthTotals, YearCalendar, type YearDay, yearWeeks } from "../stats/year-calendar.js";

/**
 * The dashboard's past year: the statistics screen's calendar (each square
 * named, arrow keys between days) with a summary, and the months as a table
 * for screen readers.
 */
export function Heatmap({ today, counts }: { today: string; counts: { date: string; reviews: number }[] }) {
  const weeks = useMemo(() => yearWeeks(today, counts), [today, counts]);
  const days = useMemo(() => weeks.flat().filter((day): day is YearDay => day !== null), [weeks]);
  const months = useMemo(() => monthTotals(days), [days]);
  const total = days.reduce((sum, day) => sum + day.reviews, 0);
  const studied = days.filter((day) => day.reviews > 0).length;
  const busiest = days.reduce<YearDay | null>((best, day) => (day.reviews > (best?.reviews ?? 0) ? day : best), null);

  return (
    <section className="heatmap-section" aria-labelledby="heatmap-title">
      <h2 id="heatmap-title">Past year</h2>
      <p className="heatmap-summary">
        {total === 0
          ? "No reviews in the past year yet."
          : `${plural(total, "review")} on ${plural(studied, "day")} in the past year.`}
        {busiest ? ` Busiest day: ${formatDay(busiest.date)}, ${plural(busiest.reviews, "review")}.` : ""}
      </p>
      <YearCalendar today={today} weeks={weeks} />
      <table className="visually-hidden">
        <caption>Reviews per month, past year</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Reviews</th>
            <th scope="col">Days studied</th>
          </tr>
        </thead>
        <tbody>
          {months.map((month) => (
            <tr key={month.month}>
              <th scope="row">{month.month}</th>
              <td>{formatCount(month.reviews)}</td>
              <td>{formatCount(month.days)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
