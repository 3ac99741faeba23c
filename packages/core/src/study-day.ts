/**
 * The user's "today" (docs/product.md §4), computed exactly as the database does:
 *
 *   local := date_trunc('day', (now at time zone tz) - make_interval(hours => h))
 *   start := (local + make_interval(hours => h)) at time zone tz
 *   end   := (local + interval '1 day' + make_interval(hours => h)) at time zone tz
 *
 * The subtle part is `timestamp at time zone tz` for a wall time that a clock
 * change skips or repeats. PostgreSQL (DetermineTimeZoneOffsetInternal in
 * src/backend/utils/adt/datetime.c) then picks the *later* instant:
 * - skipped (spring forward): it applies the offset in force before the
 *   change, so 02:30 on New York's spring-forward day is 03:30 EDT;
 * - repeated (fall back): it applies the offset in force after the change,
 *   so 01:30 on New York's fall-back day is 01:30 EST (the second one).
 * Days are therefore 23 or 25 hours long (23.5/24.5 on Lord Howe Island)
 * across a change, and when the day-start hour itself is repeated, a `now`
 * in its first pass lies before `start` — the database behaves the same.
 * Both sides read time-zone rules from their own tz database (ICU here,
 * PostgreSQL's or the system's there); they agree unless one is out of date.
 */

export type StudyDay = { start: Date; end: Date };

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/** Offset from UTC in ms (local wall clock minus UTC) at an instant. */
function offsetAt(timezone: string, instant: number): number {
  const fields: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(timezone).formatToParts(instant)) fields[part.type] = part.value;
  const field = (type: Intl.DateTimeFormatPartTypes): number => Number(fields[type]);
  const year = fields.era === "BC" ? 1 - field("year") : field("year");
  const wall = new Date(0);
  wall.setUTCFullYear(year, field("month") - 1, field("day"));
  wall.setUTCHours(field("hour"), field("minute"), field("second"), 0);
  // The parts carry whole seconds, so compare against the instant's second.
  return wall.getTime() - Math.floor(instant / 1000) * 1000;
}

/** `timestamptz at time zone tz`: the local wall clock, as ms since the epoch read as UTC. */
function toWallTime(timezone: string, instant: number): number {
  return instant + offsetAt(timezone, instant);
}

/**
 * `timestamp at time zone tz` with PostgreSQL's choice for skipped and
 * repeated wall times (the later instant). Like PostgreSQL, it assumes at
 * most one offset change within a day of the wall time.
 */
function fromWallTime(timezone: string, wall: number): number {
  const before = offsetAt(timezone, wall - dayMs);
  const after = offsetAt(timezone, wall + dayMs);
  if (before === after) return wall - before;
  const withBefore = wall - before;
  const withAfter = wall - after;
  const beforeFits = offsetAt(timezone, withBefore) === before;
  const afterFits = offsetAt(timezone, withAfter) === after;
  if (beforeFits !== afterFits) return beforeFits ? withBefore : withAfter;
  return Math.max(withBefore, withAfter);
}

/** The study day containing `now` for a user in `timezone` whose day starts at `dayStartsAt` (0–23). */
export function studyDay(now: Date, timezone: string, dayStartsAt: number): StudyDay {
  if (!Number.isInteger(dayStartsAt) || dayStartsAt < 0 || dayStartsAt > 23) {
    throw new RangeError(`The day start hour must be an integer 0–23, got ${dayStartsAt}.`);
  }
  if (!isValidTimezone(timezone)) throw new RangeError(`Unknown time zone "${timezone}".`);
  const shift = dayStartsAt * hourMs;
  const localDay = Math.floor((toWallTime(timezone, now.getTime()) - shift) / dayMs) * dayMs;
  return {
    start: new Date(fromWallTime(timezone, localDay + shift)),
    end: new Date(fromWallTime(timezone, localDay + dayMs + shift)),
  };
}

// A name, not an offset: Intl accepts "+05:00" but PostgreSQL reads such
// strings as POSIX zones with the sign flipped. Segments start upper-case, as
// every tz database name does.
const zoneName = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;

/**
 * An IANA time-zone name, spelled exactly (the database looks it up in
 * pg_timezone_names, case-sensitively; Intl would accept "europe/berlin").
 * Aliases such as "Asia/Calcutta" or "US/Eastern" are fine in both.
 */
export function isValidTimezone(timezone: string): boolean {
  if (!zoneName.test(timezone)) return false;
  let resolved: string;
  try {
    resolved = formatterFor(timezone).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  // Intl canonicalises aliases but also fixes case; only the latter is refused.
  return resolved === timezone || resolved.toLowerCase() !== timezone.toLowerCase();
}
