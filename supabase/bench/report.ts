import { type EngineKind, type Operation, targets } from "./config.js";
import type { LoadReport } from "./load.js";
import type { Summary } from "./measure.js";

export interface Row {
  engine: EngineKind;
  label: string;
  operation: Operation;
  summary: Summary;
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

export function targetOf(engine: EngineKind, operation: Operation): number | undefined {
  return targets[engine][operation];
}

export function verdict(row: Row): string {
  const target = targetOf(row.engine, row.operation);
  if (target === undefined) return "(no target)";
  return `p95 < ${target} ms: ${row.summary.p95 < target ? "met" : "MISSED"}`;
}

export function printLoadStep(step: string, took: number) {
  console.log(`    ${step.padEnd(48)} ${(took / 1000).toFixed(1).padStart(7)} s`);
}

export function printLoad(report: LoadReport) {
  console.log(`    ${"total".padEnd(48)} ${(report.totalMs / 1000).toFixed(1).padStart(7)} s`);
  const c = report.counts;
  console.log(
    `  account: ${c.notes} notes, ${c.cards} cards (new ${c.new}, learning ${c.learning}, review ${c.review}, ` +
      `relearning ${c.relearning}; suspended ${c.suspended}, buried ${c.buried}), ${c.due_today} due today, ` +
      `${c.review_logs} review logs (${c.last_year} in the last year; ${c.rollup_rows} rollup rows)`,
  );
}

export function printRow(row: Row, extra = "") {
  const s = row.summary;
  console.log(
    `  ${row.operation.padEnd(18)} n=${s.calls}  median ${ms(s.median).padStart(9)}  p95 ${ms(s.p95).padStart(9)}  ` +
      `max ${ms(s.max).padStart(9)}  (whole request p95 ${ms(s.requestP95)})  ${verdict(row)}${extra}`,
  );
}

export function printTable(rows: Row[], skipped: { kind: EngineKind; reason: string }[]) {
  const header = ["engine", "operation", "calls", "median", "p95", "request p95", "target (p95)"];
  const body = rows.map((row) => {
    const target = targetOf(row.engine, row.operation);
    return [
      row.engine,
      row.operation,
      String(row.summary.calls),
      ms(row.summary.median),
      ms(row.summary.p95),
      ms(row.summary.requestP95),
      target === undefined ? "—" : `< ${target} ms ${row.summary.p95 < target ? "met" : "MISSED"}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  console.log(`\n${line(header)}`);
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const cells of body) console.log(line(cells));
  for (const { kind, reason } of skipped) console.log(`${kind}: skipped — ${reason}`);
  console.log("median/p95: the RPC statement; request p95: begin + role/claims + RPC + commit, as PostgREST runs it.");
  console.log(
    "floors: queue rows = study_queue()'s rows read back from a table; one row = a schedule read by its key; " +
      "bare answer = record_review with its tables' triggers off (foreign keys checked).",
  );
}
