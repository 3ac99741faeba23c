import { useCallback } from "react";
import { BarChart, type BarSeries } from "../../charts/bar-chart.js";
import { TooltipCard } from "../../charts/chart-parts.js";
import { formatCount, formatDay, formatShortDay, plural } from "../../lib/stats-format.js";
import { ChartSection } from "./chart-section.js";
import { forecastColor } from "./colors.js";
import type { UserStats } from "./stats-types.js";

type ForecastDay = UserStats["forecast"][number];

const series: BarSeries<ForecastDay>[] = [{ name: "Cards due", color: forecastColor, value: (day) => day.due }];

/** Cards coming due on each of the next 30 days; today's bar holds the overdue ones too (Anki's "Future due"). */
export function ForecastChart({ user }: { user: UserStats }) {
  const total = user.forecast.reduce((sum, day) => sum + day.due, 0);
  const tomorrow = user.forecast.find((day) => day.date > user.today)?.due ?? 0;
  const busiest = user.forecast.reduce<ForecastDay | null>(
    (best, day) => (day.due > (best?.due ?? 0) ? day : best),
    null,
  );
  const summary =
    total === 0
      ? "Nothing comes due in the next 30 days."
      : `${plural(total, "card")} due in the next 30 days, ${formatCount(tomorrow)} tomorrow.${busiest ? ` Busiest: ${formatDay(busiest.date)}, ${plural(busiest.due, "card")}.` : ""}`;
  const categoryLabel = useCallback(
    (day: ForecastDay) => (day.date === user.today ? "Today" : formatShortDay(day.date)),
    [user.today],
  );

  return (
    <ChartSection
      id="forecast"
      title="Due forecast"
      summary={summary}
      table={
        <table className="stats-table">
          <caption>Cards due per day, next 30 days</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Cards due</th>
            </tr>
          </thead>
          <tbody>
            {user.forecast.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date === user.today ? "Today (with overdue)" : formatDay(day.date)}</th>
                <td>{formatCount(day.due)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Next 30 days</th>
              <td>{formatCount(total)}</td>
            </tr>
          </tfoot>
        </table>
      }
    >
      <BarChart
        label={`Bar chart of cards due per day over the next 30 days. ${summary}`}
        data={user.forecast}
        series={series}
        categoryLabel={categoryLabel}
        tooltip={(day) => (
          <TooltipCard
            title={day.date === user.today ? "Today, with overdue cards" : formatDay(day.date)}
            rows={[{ name: "Due", value: plural(day.due, "card") }]}
          />
        )}
      />
    </ChartSection>
  );
}
