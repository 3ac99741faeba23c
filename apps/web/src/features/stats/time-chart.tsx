import { useCallback, useMemo } from "react";
import { BarChart, type BarSeries } from "../../charts/bar-chart.js";
import { TooltipCard } from "../../charts/chart-parts.js";
import { formatDuration } from "../../lib/stats-format.js";
import { ChartSection } from "./chart-section.js";
import { timeColor } from "./colors.js";
import { periodBars } from "./period-bars.js";
import { type Period, periodPhrases, periodSpans } from "./stats-params.js";
import type { ReviewStats } from "./stats-types.js";

type TimeDay = { date: string; time: number; duration_ms: number };

const series: BarSeries<TimeDay>[] = [{ name: "Time", color: timeColor, value: (day) => day.time }];
const axisNumber = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });

/** The axis' unit: seconds for a few answers, minutes for most days, hours for long ones. */
function unitFor(longest: number): { label: string; ms: number } {
  if (longest < 120_000) return { label: "s", ms: 1000 };
  if (longest < 3 * 3_600_000) return { label: "min", ms: 60_000 };
  return { label: "h", ms: 3_600_000 };
}

/** Time spent answering per day (per month past a year) over the period (Anki's "Review time"). */
export function TimeChart({ reviews, period }: { reviews: ReviewStats; period: Period }) {
  const { unit: per, bars, title, tick } = useMemo(() => periodBars(reviews), [reviews]);
  const longest = Math.max(0, ...bars.map((bar) => bar.duration_ms));
  const unit = unitFor(longest);
  const days = useMemo<TimeDay[]>(
    () =>
      bars.map((bar) => ({
        date: bar.date,
        duration_ms: bar.duration_ms,
        time: Math.round((bar.duration_ms / unit.ms) * 10) / 10,
      })),
    [bars, unit.ms],
  );
  const studied = days.filter((day) => day.duration_ms > 0);
  const total = studied.reduce((sum, day) => sum + day.duration_ms, 0);
  const span = periodSpans[period];
  const summary =
    total === 0
      ? `No study time ${periodPhrases[period]}.`
      : `${formatDuration(total)} ${periodPhrases[period]}: ${formatDuration(total / reviews.days)} a day on average.`;
  const categoryLabel = useCallback((day: TimeDay) => tick(day.date), [tick]);
  const valueLabel = useCallback((value: number) => `${axisNumber.format(value)} ${unit.label}`, [unit.label]);

  return (
    <ChartSection
      id="time"
      title="Study time"
      summary={summary}
      table={
        <table className="stats-table">
          <caption>
            Study time per {per}, {span}
          </caption>
          <thead>
            <tr>
              <th scope="col">{per === "day" ? "Day" : "Month"}</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {[...studied].reverse().map((day) => (
              <tr key={day.date}>
                <th scope="row">{title(day.date)}</th>
                <td>{formatDuration(day.duration_ms)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All days</th>
              <td>{formatDuration(total)}</td>
            </tr>
          </tfoot>
        </table>
      }
    >
      <BarChart
        label={`Bar chart of time studied per ${per}, ${span}. ${summary}`}
        data={days}
        series={series}
        categoryGap={days.length > 90 ? 0 : 0.15}
        categoryLabel={categoryLabel}
        valueLabel={valueLabel}
        decimals
        tooltip={(day) => (
          <TooltipCard title={title(day.date)} rows={[{ name: "Studied", value: formatDuration(day.duration_ms) }]} />
        )}
      />
    </ChartSection>
  );
}
