import { type CSSProperties, useMemo } from "react";
import { formatDay, type HeatmapDay, heatmapWeeks, monthStarts, monthTotals, reviewsLabel } from "./heatmap-days.js";

/**
 * A year of answers, a square per day coloured by count (GitHub's and Anki's
 * picture). The grid is for the eyes (each square's title names its day);
 * screen readers get the summary and a table of the months instead of 365
 * cells.
 */
export function Heatmap({ today, counts }: { today: string; counts: { date: string; reviews: number }[] }) {
  const weeks = useMemo(() => heatmapWeeks(today, counts), [today, counts]);
  const days = useMemo(() => weeks.flat().filter((day): day is HeatmapDay => day !== null), [weeks]);
  const months = useMemo(() => monthTotals(days), [days]);
  const total = days.reduce((sum, day) => sum + day.reviews, 0);
  const studied = days.filter((day) => day.reviews > 0).length;
  const busiest = days.reduce<HeatmapDay | null>(
    (best, day) => (day.reviews > (best?.reviews ?? 0) ? day : best),
    null,
  );

  return (
    <section className="heatmap-section" aria-labelledby="heatmap-title">
      <h2 id="heatmap-title">Past year</h2>
      <p className="heatmap-summary">
        {total === 0
          ? "No reviews in the past year yet."
          : `${reviewsLabel(total)} on ${studied} ${studied === 1 ? "day" : "days"} in the past year.`}
        {busiest ? ` Busiest day: ${formatDay(busiest.date)}, ${reviewsLabel(busiest.reviews)}.` : ""}
      </p>
      <div className="heatmap" aria-hidden="true" style={{ "--weeks": weeks.length } as CSSProperties}>
        <div className="heatmap-months">
          {monthStarts(weeks).map(({ week, label }) => (
            <span key={`${week}-${label}`} style={{ gridColumnStart: week + 1 }}>
              {label}
            </span>
          ))}
        </div>
        <div className="heatmap-grid">
          {weeks.map((week, column) =>
            week.map((day, weekday) =>
              day ? (
                <span
                  key={day.date}
                  className={`heatmap-day level-${day.level}`}
                  data-date={day.date}
                  data-reviews={day.reviews}
                  title={`${reviewsLabel(day.reviews)} on ${formatDay(day.date)}`}
                  style={{ gridColumnStart: column + 1, gridRowStart: weekday + 1 }}
                />
              ) : null,
            ),
          )}
        </div>
      </div>
      <div className="heatmap-legend" aria-hidden="true">
        <span>Less</span>
        {([0, 1, 2, 3, 4] as const).map((level) => (
          <span key={level} className={`heatmap-day level-${level}`} />
        ))}
        <span>More</span>
      </div>
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
              <td>{month.reviews}</td>
              <td>{month.days}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
