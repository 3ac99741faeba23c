/**
 * `pnpm bench`: the study queue, answer recording and the stats on a heavy
 * account (100,000 cards in 20 decks, 1,000,000 review logs over four years),
 * on PGlite and, when a server is given, on PostgreSQL.
 * Prints figures next to their targets.
 */
import type { EngineKind, Operation } from "./config.js";
import { reviewLogsFor, workload } from "./config.js";
import { chooseEngines, type Engine } from "./engines.js";
import { explainMissed } from "./explain.js";
import { loadAccount } from "./load.js";
import { summarize } from "./measure.js";
import { printLoad, printLoadStep, printRow, printTable, type Row, targetOf } from "./report.js";
import {
  benchOneRowFloor,
  benchQueueRowsFloor,
  benchRecordReview,
  benchRecordReviewWithoutTriggers,
  benchStats,
  benchStudyQueue,
  fetchQueue,
  type StatsOperation,
  statsSql,
} from "./workload.js";

async function benchEngine(engine: Engine): Promise<Row[]> {
  console.log(`\n== ${engine.label}`);
  console.log("  load:");
  const reviewLogs = reviewLogsFor[engine.kind];
  if (reviewLogs < workload.reviewLogs) {
    console.log(
      `  (${engine.kind} loads ${reviewLogs} review logs instead of ${workload.reviewLogs}, as BENCH_PGLITE_REVIEW_LOGS asks)`,
    );
  }
  const load = await loadAccount(engine.db, reviewLogs, printLoadStep);
  printLoad(load);
  const { account } = load;

  const queue = await fetchQueue(engine.db, account);
  const byKind = (kind: string) => queue.filter((row) => row.queue === kind).length;
  console.log(
    `  today's queue (all decks): ${queue.length} cards — ${byKind("learning")} learning, ${byKind("review")} review, ${byKind("new")} new`,
  );
  console.log(`  ${workload.warmupCalls} warm-up + ${workload.measuredCalls} measured calls each:`);

  const rows: Row[] = [];
  const record = (operation: Operation, summary: Row["summary"]) => {
    const row: Row = { engine: engine.kind, label: engine.label, operation, summary };
    rows.push(row);
    printRow(row);
    return row;
  };
  // Each floor follows what it is under: what that cannot go below here, whatever the functions do.
  record("study_queue()", summarize(await benchStudyQueue(engine.db, account, false)));
  record("floor: queue rows", summarize(await benchQueueRowsFloor(engine.db, account)));
  record("study_queue(deck)", summarize(await benchStudyQueue(engine.db, account, true)));
  record("floor: one row", summarize(await benchOneRowFloor(engine.db, account, queue[0]?.card_id ?? "")));
  record("record_review", summarize(await benchRecordReview(engine.db, account)));
  record("floor: bare answer", summarize(await benchRecordReviewWithoutTriggers(engine.db, account)));
  for (const operation of Object.keys(statsSql) as StatsOperation[]) {
    record(operation, summarize(await benchStats(engine.db, account, operation)));
  }

  for (const row of rows) {
    const target = targetOf(row.engine, row.operation);
    if (target !== undefined && row.summary.p95 >= target) await explainMissed(engine, account, row.operation);
  }
  return rows;
}

async function main() {
  const rows: Row[] = [];
  const skipped: { kind: EngineKind; reason: string }[] = [];
  for (const choice of chooseEngines()) {
    if ("skipped" in choice) {
      console.log(`\n== ${choice.kind}: skipped — ${choice.skipped}`);
      skipped.push({ kind: choice.kind, reason: choice.skipped });
      continue;
    }
    let engine: Engine;
    try {
      engine = await choice.open();
    } catch (error) {
      const reason = `could not prepare a database: ${(error as Error).message}`;
      console.log(`\n== ${choice.kind}: skipped — ${reason}`);
      skipped.push({ kind: choice.kind, reason });
      continue;
    }
    try {
      rows.push(...(await benchEngine(engine)));
    } finally {
      await engine.dispose();
    }
  }
  printTable(rows, skipped);
}

await main();
