import { daysEnding, formatDay, formatMonth, formatShortDay, formatShortMonth } from "../../lib/stats-format.js";
import type { DayAnswers, ReviewStats } from "./stats-types.js";

/** What one bar of the per-day charts covers: a study day, or a month once the period passes a year. */
export type BarUnit = "day" | "month";

export interface PeriodBars {
  unit: BarUnit;
  /** Oldest first, every day (or month) of the period, empty ones as zeros so the bars keep their places in time. */
  bars: DayAnswers[];
  /** A bar's name for tooltips and tables: "Tue, Mar 10" or "March 2025". */
  title: (date: string) => string;
  /** The axis' tick labels: days over a month or three, months over a year, months and years beyond. */
  tick: (date: string) => string;
}

const empty = (date: string): DayAnswers => ({ date, new: 0, learning: 0, relearning: 0, review: 0, duration_ms: 0 });
const shortMonthYear = new Intl.DateTimeFormat(undefined, { month: "short", year: "2-digit", timeZone: "UTC" });

/** The period's answers as bars: one per study day up to a year, one per month beyond (years of imported history). */
export function periodBars(reviews: ReviewStats): PeriodBars {
  const days = daysEnding(reviews.today, reviews.days);
  if (reviews.days <= 365) {
    const byDate = new Map(reviews.per_day.map((day) => [day.date, day]));
    return {
      unit: "day",
      bars: days.map((date) => byDate.get(date) ?? empty(date)),
      title: formatDay,
      tick: reviews.days > 90 ? formatShortMonth : formatShortDay,
    };
  }
  const months = new Map<string, DayAnswers>();
  for (const date of days) {
    const month = `${date.slice(0, 7)}-01`;
    if (!months.has(month)) months.set(month, empty(month));
  }
  for (const day of reviews.per_day) {
    const bar = months.get(`${day.date.slice(0, 7)}-01`);
    if (!bar) continue;
    bar.new += day.new;
    bar.learning += day.learning;
    bar.relearning += day.relearning;
    bar.review += day.review;
    bar.duration_ms += day.duration_ms;
  }
  return {
    unit: "month",
    bars: [...months.values()],
    title: formatMonth,
    tick: (date) => shortMonthYear.format(Date.parse(`${date}T00:00:00Z`)),
  };
}
