import { BarChart3, Table2 } from "lucide-react";
import { type ReactNode, useId, useState } from "react";

/**
 * One statistics panel: a heading, a line saying what the chart shows, the
 * chart (one named image to assistive technology: a bar chart names itself,
 * a figure is named by `label`) and the same figures as a table. The table is
 * always in the page for screen readers; "Show as table" puts it on screen in
 * place of the chart.
 */
export function ChartSection({
  id,
  title,
  summary,
  label,
  table,
  chartRole = "img",
  wide = false,
  children,
}: {
  id: string;
  title: string;
  summary: ReactNode;
  /** What a figure shows, in a sentence (its accessible name); an image names itself. */
  label?: string;
  table: ReactNode;
  /** "figure" when the chart's parts have names of their own (the calendar's days). */
  chartRole?: "img" | "figure";
  wide?: boolean;
  children: ReactNode;
}) {
  const [asTable, setAsTable] = useState(false);
  const tableId = useId();
  return (
    <section className={`stats-card${wide ? " wide" : ""}`} aria-labelledby={`${id}-title`} data-section={id}>
      <div className="stats-card-header">
        <h2 id={`${id}-title`}>{title}</h2>
        <button
          type="button"
          className="button secondary small"
          aria-controls={tableId}
          aria-expanded={asTable}
          aria-label={`${asTable ? "Show as chart" : "Show as table"}: ${title}`}
          onClick={() => setAsTable((value) => !value)}
        >
          {asTable ? <BarChart3 aria-hidden="true" /> : <Table2 aria-hidden="true" />}
          {asTable ? "Show as chart" : "Show as table"}
        </button>
      </div>
      <p className="stats-summary">{summary}</p>
      {asTable ? null : chartRole === "img" ? (
        <div className="stats-chart">{children}</div>
      ) : (
        <figure className="stats-chart" aria-label={label}>
          {children}
        </figure>
      )}
      <div id={tableId} className={asTable ? "stats-table-wrap" : "visually-hidden"}>
        {table}
      </div>
    </section>
  );
}

/** The panel's frame while its figures load: the same heading and height, so nothing jumps when they arrive. */
export function SectionSkeleton({ title, wide = false, height }: { title: string; wide?: boolean; height?: string }) {
  return (
    <section className={`stats-card${wide ? " wide" : ""}`} aria-label={title} aria-busy="true">
      <div className="stats-card-header">
        <h2>{title}</h2>
      </div>
      <p className="stats-summary skeleton-line" />
      <div className="stats-chart skeleton" style={height ? { height } : undefined} />
    </section>
  );
}
