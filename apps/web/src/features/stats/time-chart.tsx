import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { axisProps, chartProps, cursorProps, gridProps, hovered, TooltipCard } from "../../charts/chart-parts.js";
import { formatDay, formatDuration } from "../../lib/stats-format.js";
import { ChartSection } from "./chart-section.js";
import { timeColor } from "./colors.js";
import { dateTick, periodDays } from "./reviews-chart.js";
import { type Period, periodLabels } from "./stats-params.js";
import type { ReviewStats } from "./stats-types.js";

type TimeDay = { date: string; time: number; duration_ms: number };

/** The axis' unit: seconds for a few answers, minutes for most days, hours for long ones. */
function unitFor(longest: number): { label: string; ms: number } {
  if (longest < 120_000) return { label: "s", ms: 1000 };
  if (longest < 3 * 3_600_000) return { label: "min", ms: 60_000 };
  return { label: "h", ms: 3_600_000 };
}

/** Time spent answering per day over the period, in minutes (Anki's "Review time"). */
export function TimeChart({ reviews, period }: { reviews: ReviewStats; period: Period }) {
  const longest = Math.max(0, ...reviews.per_day.map((day) => day.duration_ms));
  const unit = unitFor(longest);
  const days = useMemo<TimeDay[]>(
    () =>
      periodDays(reviews).map((day) => ({
        date: day.date,
        duration_ms: day.duration_ms,
        time: Math.round((day.duration_ms / unit.ms) * 10) / 10,
      })),
    [reviews, unit.ms],
  );
  const studied = reviews.per_day.filter((day) => day.duration_ms > 0);
  const total = studied.reduce((sum, day) => sum + day.duration_ms, 0);
  const span = periodLabels[period];
  const summary =
    total === 0
      ? `No study time in the past ${span}.`
      : `${formatDuration(total)} in the past ${span}: ${formatDuration(total / reviews.days)} a day on average.`;

  return (
    <ChartSection
      id="time"
      title="Study time"
      summary={summary}
      label={`Bar chart of time studied per day over the past ${span}. ${summary}`}
      table={
        <table className="stats-table">
          <caption>Study time per day, past {span}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {[...studied].reverse().map((day) => (
              <tr key={day.date}>
                <th scope="row">{formatDay(day.date)}</th>
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
      <BarChart {...chartProps} data={days} barCategoryGap={reviews.days > 90 ? 0 : "15%"}>
        <CartesianGrid {...gridProps} />
        <XAxis
          dataKey="date"
          {...axisProps}
          tickFormatter={dateTick(reviews.days)}
          minTickGap={24}
          interval="preserveStartEnd"
        />
        <YAxis {...axisProps} axisLine={false} unit={` ${unit.label}`} width={56} />
        <Tooltip
          cursor={cursorProps}
          isAnimationActive={false}
          content={(props) => {
            const day = hovered<TimeDay>(props);
            if (!day) return null;
            return (
              <TooltipCard
                title={formatDay(day.date)}
                rows={[{ name: "Studied", value: formatDuration(day.duration_ms) }]}
              />
            );
          }}
        />
        <Bar dataKey="time" name="Time" fill={timeColor} isAnimationActive={false} />
      </BarChart>
    </ChartSection>
  );
}
