import { MonthTable, useYear, YearCalendar, type YearDay } from "../../charts/year-calendar.js";
import { formatDay, plural } from "../../lib/stats-format.js";

/**
 * The dashboard's past year: the statistics screen's calendar (each square
 * named, arrow keys between days) with a summary, and the months as a table
 * for screen readers.
 */
export function Heatmap({ today, counts }: { today: string; counts: { date: string; reviews: number }[] }) {
  const year = useYear(today, counts);
  const busiest = year.days.reduce<YearDay | null>(
    (best, day) => (day.reviews > (best?.reviews ?? 0) ? day : best),
    null,
  );

  return (
    <section className="heatmap-section" aria-labelledby="heatmap-title">
      <h2 id="heatmap-title">Past year</h2>
      <p className="heatmap-summary">
        {year.total === 0
          ? "No reviews in the past year yet."
          : `${plural(year.total, "review")} on ${plural(year.studied, "day")} in the past year.`}
        {busiest ? ` Busiest day: ${formatDay(busiest.date)}, ${plural(busiest.reviews, "review")}.` : ""}
      </p>
      <YearCalendar today={today} year={year} />
      <MonthTable months={year.months} className="visually-hidden" />
    </section>
  );
}
