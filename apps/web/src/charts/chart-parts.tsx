/** The tooltip card and the legend, set up once, so every chart on the screen reads the same. */
import type { ReactNode } from "react";
import "./chart-parts.css";

/** Every bar chart's height in pixels: its bars and the labels under them. */
export const chartHeight = 208;

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
