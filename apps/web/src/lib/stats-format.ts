/** Words and numbers as the statistics screen writes them. Study days are `YYYY-MM-DD` strings, read as UTC midnights. */

const dayMs = 86_400_000;
export const toTime = (date: string) => Date.parse(`${date}T00:00:00Z`);
export const toDate = (time: number) => new Date(time).toISOString().slice(0, 10);
export const addDays = (date: string, days: number) => toDate(toTime(date) + days * dayMs);

/** Every day of the `days` ending `today`, oldest first. */
export function daysEnding(today: string, days: number): string[] {
  return Array.from({ length: days }, (_, index) => addDays(today, index - days + 1));
}

const shortDay = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
const longDay = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const shortMonth = new Intl.DateTimeFormat(undefined, { month: "short", timeZone: "UTC" });
const longMonth = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric", timeZone: "UTC" });

export const formatShortDay = (date: string) => shortDay.format(toTime(date));
export const formatDay = (date: string) => longDay.format(toTime(date));
export const formatShortMonth = (date: string) => shortMonth.format(toTime(date));
export const formatMonth = (date: string) => longMonth.format(toTime(date));

const integer = new Intl.NumberFormat();
export const formatCount = (count: number) => integer.format(count);

export const plural = (count: number, one: string, many = `${one}s`) =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/** "1 h 5 min", "12 min", "40 s": study time as Anki writes it, to the minute once past one. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** `passed / (passed + failed)` as "92.3%", or null when there was nothing to count. */
export function percent(part: number, whole: number): string | null {
  if (whole === 0) return null;
  return `${((part / whole) * 100).toFixed(1)}%`;
}
