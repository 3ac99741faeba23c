/**
 * How long training takes and how much it improves the fit: a simulated collection of
 * 100,000 reviews whose outcomes follow FSRS-6's defaults, then every Anki fixture with
 * enough reviews. Run with `pnpm --filter @engram/core bench`.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { ankiFixtureFiles, fixtureLogs } from "../src/optimizer/fixtures-test-support";
import { type OptimizeResult, optimizeParameters, type TrainingLog } from "../src/optimizer/index";
import { simulateLogs } from "../src/optimizer/simulate-test-support";

const wasm = await readFile(createRequire(import.meta.url).resolve("fsrs-browser/fsrs_browser_bg.wasm"));

type Row = Record<string, string | number>;

async function measure(name: string, logs: TrainingLog[]): Promise<Row> {
  const started = performance.now();
  const result: OptimizeResult = await optimizeParameters(logs, { wasm });
  const seconds = (performance.now() - started) / 1000;
  return {
    history: name,
    reviews: logs.length,
    trained: result.reviews,
    cards: result.cards,
    "train s": seconds.toFixed(2),
    "log loss before": result.before.logLoss.toFixed(4),
    "log loss after": result.after.logLoss.toFixed(4),
    "RMSE(bins) before": result.before.rmseBins.toFixed(4),
    "RMSE(bins) after": result.after.rmseBins.toFixed(4),
  };
}

const rows: Row[] = [];
const simulated = simulateLogs({ cards: 10_000, reviewsPerCard: 10, seed: 42 });
rows.push(await measure("simulated, FSRS-6 defaults", simulated));
for (const file of ankiFixtureFiles) {
  const logs = await fixtureLogs(file);
  if (logs.length >= 400) rows.push(await measure(file, logs));
}
console.table(rows);
