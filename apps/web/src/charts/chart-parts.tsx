/** Axes, grid and tooltip set up once, so every chart on the screen reads the same. */
import type { ReactNode } from "react";
import type { TooltipContentProps } from "recharts";
import "./chart-parts.css";

export const chartHeight = 208;

/** Recharts' own keyboard layer is off: each chart is one named image, and its table carries the figures. */
export const chartProps = {
  responsive: true,
  accessibilityLayer: false,
  style: { width: "100%", height: chartHeight },
  margin: { top: 8, right: 8, bottom: 0, left: -12 },
} as const;

export const axisProps = {
  stroke: "var(--border)",
  tick: { fill: "var(--muted)", fontSize: 12 },
  tickLine: false,
} as const;

export const gridProps = { stroke: "var(--border)", strokeDasharray: "3 3", vertical: false } as const;

export const cursorProps = { fill: "color-mix(in srgb, var(--fg) 8%, transparent)" } as const;

/** The tooltip as a small card in the page's colours: a title, then a line per series. */
export function TooltipCard({
  title,
  rows,
}: {
  title: ReactNode;
  rows: { name: string; value: ReactNode; color?: string }[];
}) {
  return (
    <div className="stats-tooltip">
      <p className="stats-tooltip-title">{title}</p>
      {rows.map((row) => (
        <p key={row.name} className="stats-tooltip-row">
          {row.color ? <span className="stats-swatch" style={{ background: row.color }} /> : null}
          <span>{row.name}</span>
          <span className="stats-tooltip-value">{row.value}</span>
        </p>
      ))}
    </div>
  );
}

/** The data row under the pointer, as the chart was given it. */
export function hovered<T>(props: TooltipContentProps): T | undefined {
  if (!props.active) return undefined;
  return props.payload?.[0]?.payload as T | undefined;
}

/** A colour key under a chart; hidden from assistive technology, which gets the table. */
export function Legend({ items }: { items: { name: string; color: string }[] }) {
  return (
    <ul className="stats-legend" aria-hidden="true">
      {items.map((item) => (
        <li key={item.name}>
          <span className="stats-swatch" style={{ background: item.color }} />
          {item.name}
        </li>
      ))}
    </ul>
  );
}
