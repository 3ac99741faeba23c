/**
 * The workload simulator beside the desired retention: reviews a day over the
 * next year at the retention being chosen, simulated from the user's own
 * cards, limits and answer times, and the retention with the least work per
 * card remembered. Loaded on its own, after the form.
 */
import { type Simulation, simulateWorkload, type Workload } from "@engram/sdk";
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useMemo } from "react";
import { BarChart, type BarSeries } from "../../charts/bar-chart.js";
import { TooltipCard } from "../../charts/chart-parts.js";
import { errorMessage } from "../../lib/error-messages.js";
import { useEngramQueries } from "../../session/factories.js";
import "./workload-chart.css";

const whole = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const dayMs = 86_400_000;
const shortDate = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
const monthName = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric" });

type Day = Simulation["days"][number] & { date: Date };

const series: BarSeries<Day>[] = [{ name: "Reviews", color: "var(--accent)", value: (day) => day.reviews }];
const dayName = (day: Day) => (day.day === 0 ? "Today" : shortDate.format(day.date));

const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
/** Averages under ten keep a decimal, so a light year does not read as "0 minutes". */
const average = (value: number) => (value < 10 ? oneDecimal : whole).format(value);
const plural = (text: string, word: string) => `${text} ${word}${text === "1" ? "" : "s"}`;

/** A year's figures in a sentence: what the chart shows, for everyone. */
export function describeSimulation(simulation: Simulation, retention: number): string {
  const days = simulation.days.length;
  const reviews = simulation.days.reduce((sum, day) => sum + day.reviews, 0);
  return `At ${retention.toFixed(2)}, about ${plural(average(reviews / days), "review")} a day over the next year (${plural(
    average(simulation.totalMinutes / days),
    "minute",
  )} a day with new cards), and about ${plural(whole.format(simulation.memorised), "card")} remembered at its end.`;
}

/** The simulated days by calendar month, for the table that stands in for the chart. */
function byMonth(days: Day[]) {
  const months: { label: string; reviews: number; learned: number; minutes: number }[] = [];
  for (const day of days) {
    const label = monthName.format(day.date);
    let month = months[months.length - 1];
    if (month?.label !== label) {
      month = { label, reviews: 0, learned: 0, minutes: 0 };
      months.push(month);
    }
    month.reviews += day.reviews;
    month.learned += day.learned;
    month.minutes += day.minutes;
  }
  return months;
}

export default function WorkloadChart({
  retention,
  onUseRetention,
}: {
  retention: number;
  onUseRetention: (retention: number) => void;
}) {
  const workload = useQuery(useEngramQueries().stats.workload());
  // Typing a retention re-simulates the year; the field stays responsive while it does.
  const chosen = useDeferredValue(retention);
  if (workload.isPending) {
    return (
      <p className="workload-status" role="status">
        Simulating your next year…
      </p>
    );
  }
  if (workload.isError) {
    return (
      <p className="field-error" role="alert">
        The workload could not be estimated: {errorMessage(workload.error)}
      </p>
    );
  }
  return <WorkloadFigures workload={workload.data} retention={chosen} onUseRetention={onUseRetention} />;
}

function WorkloadFigures({
  workload,
  retention,
  onUseRetention,
}: {
  workload: Workload;
  retention: number;
  onUseRetention: (retention: number) => void;
}) {
  // The chart and its sentence need the cards remembered at the year's end only.
  const simulation = useMemo(
    () => simulateWorkload(workload.input, retention, { memorisedEveryDay: false }),
    [workload, retention],
  );
  const days = useMemo<Day[]>(() => {
    const today = new Date();
    return simulation.days.map((day) => ({ ...day, date: new Date(today.getTime() + day.day * dayMs) }));
  }, [simulation]);
  const recommended = workload.recommendation?.retention;
  const summary = describeSimulation(simulation, retention);

  return (
    <section className="workload-simulation" aria-labelledby="workload-title">
      <h3 id="workload-title">Workload</h3>
      <p className="workload-summary">{summary}</p>
      <div className="workload-chart">
        <BarChart
          label={`Bar chart of reviews per day over the next year. ${summary}`}
          data={days}
          series={series}
          categoryGap={0}
          categoryLabel={dayName}
          minLabelGap={32}
          tooltip={(day) => (
            <TooltipCard
              title={dayName(day)}
              rows={[
                { name: "Reviews", value: whole.format(day.reviews) },
                { name: "New cards", value: whole.format(day.learned) },
                { name: "Minutes", value: whole.format(day.minutes) },
              ]}
            />
          )}
        />
      </div>
      {/* A table ignores the 1px width visually-hidden gives; its wrapper does not. */}
      <div className="visually-hidden">
        <table>
          <caption>Simulated reviews, new cards and minutes per month at {retention.toFixed(2)}</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Reviews</th>
              <th scope="col">New cards</th>
              <th scope="col">Minutes</th>
            </tr>
          </thead>
          <tbody>
            {byMonth(days).map((month) => (
              <tr key={month.label}>
                <th scope="row">{month.label}</th>
                <td>{whole.format(month.reviews)}</td>
                <td>{whole.format(month.learned)}</td>
                <td>{whole.format(month.minutes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {recommended === undefined ? (
        <p className="workload-recommendation">Add cards to see which retention costs you least.</p>
      ) : (
        <div className="workload-recommendation">
          <p>
            Least work per card remembered: <strong>{recommended.toFixed(2)}</strong>
          </p>
          <button
            type="button"
            className="button secondary small"
            disabled={Math.abs(recommended - retention) < 0.005}
            onClick={() => onUseRetention(recommended)}
          >
            Use {recommended.toFixed(2)}
          </button>
        </div>
      )}
    </section>
  );
}
