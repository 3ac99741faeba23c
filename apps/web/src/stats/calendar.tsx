import { useMemo } from "react";
import { ChartSection } from "./chart-section.js";
import { formatCount, plural } from "./stats-format.js";
import type { UserStats } from "./stats-types.js";
import { monthTotals, YearCalendar, type YearDay, yearWeeks } from "./year-calendar.js";

/** The statistics screen's past year: the calendar, its summary, and the months as a table. */
export function Calendar({ user }: { user: UserStats }) {
  const weeks = useMemo(() => yearWeeks(user.today, user.heatmap), [user.today, user.heatmap]);
  const days = useMemo(() => weeks.flat().filter((day): day is YearDay => day !== null), [weeks]);
  const months = useMemo(() => monthTotals(days), [days]);
  const total = days.reduce((sum, day) => sum + day.reviews, 0);
  const studied = days.filter((day) => day.reviews > 0).length;
  const summary =
    total === 0
      ? "No reviews in the past year yet."
      : `${plural(total, "review")} on ${plural(studied, "day")} of the past 365, ${(total / 365).toFixed(1)} a day on average.`;

  return (
    <ChartSection
      id="calendar"
      title="Past year"
      wide
      summary={summary}
      label={`Calendar of reviews per day, past year. ${summary}`}
      chartRole="figure"
      table={
        <table className="stats-table">
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
      }
    >
      <YearCalendar today={user.today} weeks={weeks} />
    </ChartSection>
  );
}
