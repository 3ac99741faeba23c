import { type CSSProperties, type KeyboardEvent, useMemo, useRef, useState } from "react";
import { ChartSection } from "./chart-section.js";
import { addDays, formatCount, formatDay, formatMonth, formatShortMonth, plural, toTime } from "./stats-format.js";
import type { UserStats } from "./stats-types.js";

interface CalendarDay {
  date: string;
  reviews: number;
  /** 0 for none, then 1–4 by share of the busiest day. */
  level: 0 | 1 | 2 | 3 | 4;
}

function levelOf(reviews: number, busiest: number): CalendarDay["level"] {
  if (reviews === 0) return 0;
  const share = reviews / busiest;
  return share <= 0.25 ? 1 : share <= 0.5 ? 2 : share <= 0.75 ? 3 : 4;
}

/** The 365 days ending today in weeks (columns, Sunday first); null pads the first week before the year starts. */
function calendarWeeks(today: string, heatmap: UserStats["heatmap"]): (CalendarDay | null)[][] {
  const byDate = new Map(heatmap.map((day) => [day.date, day.reviews]));
  const busiest = Math.max(1, ...heatmap.map((day) => day.reviews));
  const first = addDays(today, -364);
  const padding = new Date(toTime(first)).getUTCDay();
  const weeks: (CalendarDay | null)[][] = [Array.from({ length: padding }, () => null)];
  for (let offset = 0; offset < 365; offset += 1) {
    const date = addDays(first, offset);
    const last = weeks[weeks.length - 1] as (CalendarDay | null)[];
    const week = last.length === 7 ? [] : last;
    if (week !== last) weeks.push(week);
    const reviews = byDate.get(date) ?? 0;
    week.push({ date, reviews, level: levelOf(reviews, busiest) });
  }
  return weeks;
}

/** Days a key moves the focus by: a row is a weekday, a column a week. */
const keySteps: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7 };

const reviewsOn = (day: CalendarDay) => `${plural(day.reviews, "review")} on ${formatDay(day.date)}`;
const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * A year of answers as GitHub and Anki draw it: a square per day, darker for
 * busier days; each square is named. One tab stop: arrow keys move a day or a
 * week, Home and End go to the first day and today, and the day in focus is
 * also written out under the squares.
 */
export function Calendar({ user }: { user: UserStats }) {
  const weeks = useMemo(() => calendarWeeks(user.today, user.heatmap), [user.today, user.heatmap]);
  const days = weeks.flat().filter((day): day is CalendarDay => day !== null);
  const grid = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState(user.today);
  const focusedDay = days.find((day) => day.date === focused) ?? (days.at(-1) as CalendarDay);
  const moveFocus = (event: KeyboardEvent) => {
    const index = days.indexOf(focusedDay);
    const step = keySteps[event.key];
    const target =
      event.key === "Home" ? 0 : event.key === "End" ? days.length - 1 : step === undefined ? null : index + step;
    if (target === null) return;
    event.preventDefault();
    const day = days[Math.min(Math.max(target, 0), days.length - 1)] as CalendarDay;
    setFocused(day.date);
    grid.current?.querySelector<HTMLElement>(`[data-date="${day.date}"]`)?.focus();
  };
  const total = days.reduce((sum, day) => sum + day.reviews, 0);
  const studied = days.filter((day) => day.reviews > 0).length;
  const months = useMemo(() => {
    const byMonth = new Map<string, { month: string; reviews: number; days: number }>();
    for (const day of days) {
      const key = day.date.slice(0, 7);
      const month = byMonth.get(key) ?? { month: formatMonth(`${key}-01`), reviews: 0, days: 0 };
      month.reviews += day.reviews;
      if (day.reviews > 0) month.days += 1;
      byMonth.set(key, month);
    }
    return [...byMonth.values()];
  }, [days]);
  const summary =
    total === 0
      ? "No reviews in the past year yet."
      : `${plural(total, "review")} on ${plural(studied, "day")} of the past 365, ${(total / 365).toFixed(1)} a day on average.`;

  return (
    <ChartSection
      id="calendar"
      title="Past year"
      wide
      summary={summary}
      label={`Calendar of reviews per day, past year. ${summary}`}
      chartRole="figure"
      table={
        <table className="stats-table">
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
      }
    >
      <div className="calendar-scroll">
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
                    className={`calendar-day level-${day.level}${day.date === user.today ? " today" : ""}`}
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
    </ChartSection>
  );
}
