/** Dates in the browser read relative to now ("in 3 days", "2 mo ago"), with the exact date as their title. */
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto", style: "short" });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "short" });

const units: readonly [unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** How long from `now` until `date` (negative: ago), in the largest unit that fits. */
export function relativeTime(date: Date, now = Date.now()): string {
  const seconds = (date.getTime() - now) / 1000;
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(0, "minute");
}

export const exactTime = (date: Date) => exact.format(date);
