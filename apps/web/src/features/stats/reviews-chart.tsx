import { useCallback, useMemo } from "react";
import { BarChart, type BarSeries } from "../../charts/bar-chart.js";
import { Legend, TooltipCard } from "../../charts/chart-parts.js";
import { formatCount, plural } from "../../lib/stats-format.js";
import { ChartSection } from "./chart-section.js";
import { stateColors } from "./colors.js";
import { periodBars } from "./period-bars.js";
import { type Period, periodPhrases, periodSpans } from "./stats-params.js";
import type { DayAnswers, ReviewStats } from "./stats-types.js";

export const answerStates = ["new", "learning", "relearning", "review"] as const;
export const stateLabels = { new: "New", learning: "Learning", relearning: "Relearning", review: "Review" } as const;

const totalOf = (day: Pick<DayAnswers, (typeof answerStates)[number]>) =>
  day.new + day.learning + day.relearning + day.review;

const series: BarSeries<DayAnswers>[] = answerStates.map((state) => ({
  name: stateLabels[state],
  color: stateColors[state],
  value: (day) => day[state],
}));

/** Answers per day over the period, stacked by the card's state before the answer (Anki's "Reviews" graph). */
export function ReviewsChart({ reviews, period }: { reviews: ReviewStats; period: Period }) {
  const { unit, bars, title, tick } = useMemo(() => periodBars(reviews), [reviews]);
  const studied = reviews.per_day.filter((day) => totalOf(day) > 0);
  const totals = answerStates.map((state) => studied.reduce((sum, day) => sum + day[state], 0));
  const total = totals.reduce((sum, count) => sum + count, 0);
  const average = total / reviews.days;
  const span = periodSpans[period];
  const summary =
    total === 0
      ? `No reviews ${periodPhrases[period]}.`
      : `${plural(total, "review")} ${periodPhrases[period]}: ${average.toFixed(1)} a day on average, on ${studied.length} of ${reviews.days} days.`;
  const breakdown = answerStates.map((state, index) => `${totals[index]} ${stateLabels[state].toLowerCase()}`);
  const label = `Bar chart of reviews per ${unit}, ${span}, by card state. ${summary} ${total === 0 ? "" : `In all: ${breakdown.join(", ")}.`}`;
  const categoryLabel = useCallback((day: DayAnswers) => tick(day.date), [tick]);

  return (
    <ChartSection
      id="reviews"
      title="Reviews"
      wide
      summary={summary}
      table={
        <table className="stats-table">
          <caption>
            Reviews per {unit} by card state, {span}
          </caption>
          <thead>
            <tr>
              <th scope="col">{unit === "day" ? "Day" : "Month"}</th>
              {answerStates.map((state) => (
                <th key={state} scope="col">
                  {stateLabels[state]}
                </th>
              ))}
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {bars
              .filter((bar) => totalOf(bar) > 0)
              .reverse()
              .map((day) => (
                <tr key={day.date}>
                  <th scope="row">{title(day.date)}</th>
                  {answerStates.map((state) => (
                    <td key={state}>{formatCount(day[state])}</td>
                  ))}
                  <td>{formatCount(totalOf(day))}</td>
                </tr>
              ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All days</th>
              {totals.map((count, index) => (
                <td key={answerStates[index]}>{formatCount(count)}</td>
              ))}
              <td>{formatCount(total)}</td>
            </tr>
          </tfoot>
        </table>
      }
    >
      <BarChart
        label={label}
        data={bars}
        series={series}
        categoryGap={bars.length > 90 ? 0 : 0.15}
        categoryLabel={categoryLabel}
        tooltip={(day) => (
          <TooltipCard
            title={`${title(day.date)}: ${plural(totalOf(day), "review")}`}
            rows={answerStates.map((state) => ({
              name: stateLabels[state],
              value: day[state],
              color: stateColors[state],
            }))}
          />
        )}
      />
      <Legend items={answerStates.map((state) => ({ name: stateLabels[state], color: stateColors[state] }))} />
    </ChartSection>
  );
}
