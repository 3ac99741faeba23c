/**
 * A year of answers as GitHub and Anki draw it: a square per day (a column per
 * week, Sunday on top), darker for busier days, each square named. One tab
 * stop: arrow keys move a day or a week, Home and End go to the first day and
 * today, and the day in focus is written out under the squares. The
 * dashboard and the statistics screen both show it.
 */
import { type CSSProperties, type KeyboardEvent, useMemo, useRef, useState } from "react";
import { addDays, formatCount, formatDay, formatMonth, formatShortMonth, plural, toTime } from "../lib/stats-format.js";
import "./year-calendar.css";

export interface YearDay {
  date: string;
  reviews: number;
  /** 0 for none, then 1–4 by share of the busiest day. */
  level: 0 | 1 | 2 | 3 | 4;
}

interface MonthTotal {
  month: string;
  reviews: number;
  days: number;
}

function levelOf(reviews: number, busiest: number): YearDay["level"] {
  if (reviews === 0) return 0;
  const share = reviews / busiest;
  return share <= 0.25 ? 1 : share <= 0.5 ? 2 : share <= 0.75 ? 3 : 4;
}

/** The 365 days ending `today` in weeks (columns, Sunday first); null pads the first week before the year starts. */
function yearWeeks(today: string, counts: { date: string; reviews: number }[]): (YearDay | null)[][] {
  const byDate = new Map(counts.map((day) => [day.date, day.reviews]));
  const busiest = Math.max(1, ...counts.map((day) => day.reviews));
  const first = addDays(today, -364);
  const padding = new Date(toTime(first)).getUTCDay();
  const weeks: (YearDay | null)[][] = [Array.from({ length: padding }, () => null)];
  for (let offset = 0; offset < 365; offset += 1) {
    const date = addDays(first, offset);
    const last = weeks[weeks.length - 1] as (YearDay | null)[];
    const week = last.length === 7 ? [] : last;
    if (week !== last) weeks.push(week);
    const reviews = byDate.get(date) ?? 0;
    week.push({ date, reviews, level: levelOf(reviews, busiest) });
  }
  return weeks;
}

/** Reviews and study days per calendar month, oldest first: the calendar as a table. */
function monthTotals(days: YearDay[]): MonthTotal[] {
  const byMonth = new Map<string, MonthTotal>();
  for (const day of days) {
    const key = day.date.slice(0, 7);
    const month = byMonth.get(key) ?? { month: formatMonth(`${key}-01`), reviews: 0, days: 0 };
    month.reviews += day.reviews;
    if (day.reviews > 0) month.days += 1;
    byMonth.set(key, month);
  }
  return [...byMonth.values()];
}

/** The past year laid out, with what the summaries and the month table say of it. */
export interface Year {
  weeks: (YearDay | null)[][];
  /** Oldest first, without the padding before the year starts. */
  days: YearDay[];
  months: MonthTotal[];
  total: number;
  studied: number;
}

export function useYear(today: string, counts: { date: string; reviews: number }[]): Year {
  return useMemo(() => {
    const weeks = yearWeeks(today, counts);
    const days = weeks.flat().filter((day): day is YearDay => day !== null);
    return {
      weeks,
      days,
      months: monthTotals(days),
      total: days.reduce((sum, day) => sum + day.reviews, 0),
      studied: days.filter((day) => day.reviews > 0).length,
    };
  }, [today, counts]);
}

const reviewsOn = (day: YearDay) => `${plural(day.reviews, "review")} on ${formatDay(day.date)}`;

/** Days a key moves the focus by: a row is a weekday, a column a week. */
const keySteps: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7 };
const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

export function YearCalendar({ today, year: { weeks, days } }: { today: string; year: Year }) {
  const grid = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState(today);
  const focusedDay = days.find((day) => day.date === focused) ?? (days.at(-1) as YearDay);
  const moveFocus = (event: KeyboardEvent) => {
    const index = days.indexOf(focusedDay);
    const step = keySteps[event.key];
    const target =
      event.key === "Home" ? 0 : event.key === "End" ? days.length - 1 : step === undefined ? null : index + step;
    if (target === null) return;
    event.preventDefault();
    const day = days[Math.min(Math.max(target, 0), days.length - 1)] as YearDay;
    setFocused(day.date);
    grid.current?.querySelector<HTMLElement>(`[data-date="${day.date}"]`)?.focus();
  };

  return (
    <>
      <div className="calendar" style={{ "--weeks": weeks.length } as CSSProperties}>
        <div className="calendar-months" aria-hidden="true">
          {weeks.map((week, index) => {
            const first = week.find((day) => day?.date.endsWith("-01"));
            return first ? (
              <span key={first.date} style={{ gridColumnStart: index + 2 }}>
                {formatShortMonth(first.date)}
              </span>
            ) : null;
          })}
        </div>
        {/* biome-ignore lint/a11y/useSemanticElements: a group of named squares, not of form controls (fieldset) */}
        <div
          ref={grid}
          className="calendar-grid"
          role="group"
          aria-label="Days of the past year: arrow keys move by day and week, Home and End go to the first day and today"
          onKeyDown={moveFocus}
        >
          {weekdays.map((name, row) => (
            <span key={name} className="calendar-weekday" aria-hidden="true" style={{ gridRowStart: row + 1 }}>
              {row % 2 === 1 ? name : ""}
            </span>
          ))}
          {weeks.map((week, column) =>
            week.map((day, row) =>
              day ? (
                <span
                  key={day.date}
                  role="img"
                  aria-label={reviewsOn(day)}
                  title={reviewsOn(day)}
                  className={`calendar-day level-${day.level}${day.date === today ? " today" : ""}`}
                  data-date={day.date}
                  data-reviews={day.reviews}
                  tabIndex={day.date === focusedDay.date ? 0 : -1}
                  onFocus={() => setFocused(day.date)}
                  style={{ gridColumnStart: column + 2, gridRowStart: row + 1 }}
                />
              ) : null,
            ),
          )}
        </div>
      </div>
      <div className="calendar-footer">
        {/* Screen readers hear the square's own name as it takes the focus. */}
        <p className="calendar-readout" aria-hidden="true">
          {reviewsOn(focusedDay)}
        </p>
        <div className="calendar-legend" aria-hidden="true">
          <span>Less</span>
          {([0, 1, 2, 3, 4] as const).map((level) => (
            <span key={level} className={`calendar-day level-${level}`} />
          ))}
          <span>More</span>
        </div>
      </div>
    </>
  );
}

/** Reviews and days studied per month: the calendar as a table. */
export function MonthTable({ months, className }: { months: MonthTotal[]; className: string }) {
  return (
    <table className={className}>
      <caption>Reviews per month, past year</caption>
      <thead>
        <tr>
          <th scope="col">Month</th>
          <th scope="col">Reviews</th>
          <th scope="col">Days studied</th>
        </tr>
      </thead>
      <tbody>
        {months.map((month) => (
          <tr key={month.month}>
            <th scope="row">{month.month}</th>
            <td>{formatCount(month.reviews)}</td>
            <td>{formatCount(month.days)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
