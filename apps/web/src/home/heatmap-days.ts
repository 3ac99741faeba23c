/**
 * The heatmap's calendar: study days as `YYYY-MM-DD` (the user's own days,
 * from the server), laid out in weeks from Sunday to Saturday. Dates are
 * handled as UTC midnights so no local timezone shifts a day.
 */

export interface HeatmapDay {
  date: string;
  reviews: number;
  /** 0 for none, then 1–4 by share of the busiest day. */
  level: 0 | 1 | 2 | 3 | 4;
}

const dayMs = 86_400_000;
const toTime = (date: string) => Date.parse(`${date}T00:00:00Z`);
const toDate = (time: number) => new Date(time).toISOString().slice(0, 10);

function levelOf(reviews: number, busiest: number): HeatmapDay["level"] {
  if (reviews === 0) return 0;
  const share = reviews / busiest;
  return share <= 0.25 ? 1 : share <= 0.5 ? 2 : share <= 0.75 ? 3 : 4;
}

/** 365 days ending `today`, in weeks (columns); the first week starts on the Sunday before. */
export function heatmapWeeks(today: string, counts: { date: string; reviews: number }[]): (HeatmapDay | null)[][] {
  const byDate = new Map(counts.map((day) => [day.date, day.reviews]));
  const busiest = Math.max(1, ...counts.map((day) => day.reviews));
  const end = toTime(today);
  const first = end - 364 * dayMs;
  const start = first - new Date(first).getUTCDay() * dayMs;
  const weeks: (HeatmapDay | null)[][] = [];
  for (let time = start; time <= end; time += dayMs) {
    const weekday = new Date(time).getUTCDay();
    if (weekday === 0) weeks.push([]);
    const date = toDate(time);
    const reviews = byDate.get(date) ?? 0;
    weeks[weeks.length - 1]?.push(time < first ? null : { date, reviews, level: levelOf(reviews, busiest) });
  }
  return weeks;
}

const monthFormat = new Intl.DateTimeFormat(undefined, { month: "short", timeZone: "UTC" });
const longMonthFormat = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric", timeZone: "UTC" });
const dayFormat = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

export const formatDay = (date: string) => dayFormat.format(toTime(date));
export const formatShortMonth = (date: string) => monthFormat.format(toTime(date));

/** The week index where each month's first day falls, for the labels above the grid. */
export function monthStarts(weeks: (HeatmapDay | null)[][]): { week: number; label: string }[] {
  const starts: { week: number; label: string }[] = [];
  weeks.forEach((week, index) => {
    const first = week.find((day) => day?.date.endsWith("-01"));
    if (first) starts.push({ week: index, label: formatShortMonth(first.date) });
  });
  return starts;
}

/** Reviews and study days per calendar month, oldest first: the heatmap as a table. */
export function monthTotals(days: HeatmapDay[]): { month: string; reviews: number; days: number }[] {
  const months = new Map<string, { month: string; reviews: number; days: number }>();
  for (const day of days) {
    const key = day.date.slice(0, 7);
    const month = months.get(key) ?? { month: longMonthFormat.format(toTime(`${key}-01`)), reviews: 0, days: 0 };
    month.reviews += day.reviews;
    if (day.reviews > 0) month.days += 1;
    months.set(key, month);
  }
  return [...months.values()];
}

export const reviewsLabel = (reviews: number) => `${reviews} ${reviews === 1 ? "review" : "reviews"}`;
