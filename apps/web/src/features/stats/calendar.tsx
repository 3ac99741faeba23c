import { MonthTable, useYear, YearCalendar } from "../../charts/year-calendar.js";
import { plural } from "../../lib/stats-format.js";
import { ChartSection } from "./chart-section.js";
import type { UserStats } from "./stats-types.js";

/** The statistics screen's past year: the calendar, its summary, and the months as a table. */
export function Calendar({ user }: { user: UserStats }) {
  const year = useYear(user.today, user.heatmap);
  const summary =
    year.total === 0
      ? "No reviews in the past year yet."
      : `${plural(year.total, "review")} on ${plural(year.studied, "day")} of the past 365, ${(year.total / 365).toFixed(1)} a day on average.`;

  return (
    <ChartSection
      id="calendar"
      title="Past year"
      wide
      summary={summary}
      label={`Calendar of reviews per day, past year. ${summary}`}
      chartRole="figure"
      table={<MonthTable months={year.months} className="stats-table" />}
    >
      <YearCalendar today={user.today} year={year} />
    </ChartSection>
  );
}
