/**
 * A card's forgetting curve, drawn by hand (no chart library on this path):
 * the chance of recall from the last review over about twice the interval,
 * with today marked. Screen readers get the summary as the image's label, and
 * everyone gets the main numbers as text under it (docs/conventions.md §11).
 */
import { retrievabilityAfter } from "@engram/sdk";

const width = 320;
const height = 140;
const pad = { left: 36, right: 12, top: 10, bottom: 24 };
const plotWidth = width - pad.left - pad.right;
const plotHeight = height - pad.top - pad.bottom;
const samples = 48;

const percent = (value: number) => `${Math.round(value * 100)} %`;
const daysText = (days: number) => (days === 1 ? "1 day" : `${Math.round(days * 10) / 10} days`);

export interface ForgettingCurveProps {
  stability: number;
  decay: number;
  /** Days from the last review to now. */
  today: number;
  /** The interval the last answer set, in days. */
  intervalDays: number;
}

export function ForgettingCurve({ stability, decay, today, intervalDays }: ForgettingCurveProps) {
  // About twice the interval, and always far enough to show today.
  const span = Math.max(2 * intervalDays, 2, Math.ceil(today * 1.2));
  const at = (days: number) => retrievabilityAfter(days, stability, decay);
  const x = (days: number) => pad.left + (days / span) * plotWidth;
  const y = (recall: number) => pad.top + (1 - recall) * plotHeight;
  const points = Array.from({ length: samples + 1 }, (_, i) => (i / samples) * span);
  const path = points
    .map((days, i) => `${i === 0 ? "M" : "L"}${x(days).toFixed(1)},${y(at(days)).toFixed(1)}`)
    .join(" ");
  const now = at(today);
  const end = at(span);
  const due = intervalDays > 0 ? at(intervalDays) : null;
  const summary =
    `Forgetting curve: the chance of recall falls from 100 % at the last review to ${percent(end)} after ${daysText(span)}; ` +
    `today, ${daysText(today)} after the last review, it is ${percent(now)}` +
    (due === null ? "." : `; on the due date, after ${daysText(intervalDays)}, ${percent(due)}.`);

  return (
    <figure className="forgetting-curve">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
        {[1, 0.5, 0].map((recall) => (
          <g key={recall} className="curve-grid">
            <line x1={pad.left} x2={width - pad.right} y1={y(recall)} y2={y(recall)} />
            <text x={pad.left - 4} y={y(recall) + 4} textAnchor="end">
              {percent(recall)}
            </text>
          </g>
        ))}
        <text className="curve-axis" x={pad.left} y={height - 6}>
          0
        </text>
        <text className="curve-axis" x={width - pad.right} y={height - 6} textAnchor="end">
          {daysText(span)}
        </text>
        <path className="curve-line" d={path} />
        <line className="curve-today" x1={x(today)} x2={x(today)} y1={pad.top} y2={pad.top + plotHeight} />
        <circle className="curve-today-dot" cx={x(today)} cy={y(now)} r={3.5} />
        <text className="curve-today-label" x={x(today) + 4} y={pad.top + 10}>
          Today
        </text>
      </svg>
      <figcaption>
        Recall today: <strong>{percent(now)}</strong>
        {due === null ? null : (
          <>
            {" "}
            · on the due date: <strong>{percent(due)}</strong>
          </>
        )}{" "}
        · after {daysText(span)}: <strong>{percent(end)}</strong>
      </figcaption>
    </figure>
  );
}
