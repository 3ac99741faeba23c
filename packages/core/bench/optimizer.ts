/**
 * The optimiser's speed and fit. First how long training takes on simulated
 * histories of 1,000 to 100,000 answers (building items, training, evaluating);
 * then, on every Anki fixture with enough history and a simulated 100,000-answer
 * history, the fit under Anki's evaluation of the FSRS-6 defaults, of Engram's
 * training, and of Anki's own (fsrs-rs 6.5 as Anki 26.08 runs it, 8 epochs, through
 * `@open-spaced-repetition/binding`). Run with `pnpm --filter @engram/core bench`.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { computeParameters, FSRSBindingItem, FSRSBindingReview } from "@open-spaced-repetition/binding";
import { evaluateHistories } from "../src/optimizer/evaluate";
import { ankiFixtureFiles, fixtureLogs } from "../src/optimizer/fixtures-test-support";
import { cardHistories, itemEnds, itemsOf, type TrainingLog } from "../src/optimizer/items";
import { simulateLogs } from "../src/optimizer/simulate-test-support";
import { optimizeParameters } from "../src/optimizer/train";

const wasm = await readFile(createRequire(import.meta.url).resolve("fsrs-browser/fsrs_browser_bg.wasm"));
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(2);
const simulated = (answers: number) => simulateLogs({ cards: answers / 10, reviewsPerCard: 10, seed: 42 });

// Load the wasm once, as a worker does before its first run.
await optimizeParameters(simulated(1_000), { wasm });

const speed: Record<string, string | number>[] = [];
for (const answers of [1_000, 10_000, 31_000, 100_000]) {
  const logs = simulated(answers);
  let started = performance.now();
  const histories = cardHistories(logs);
  const items = itemsOf(itemEnds(histories));
  const building = seconds(started);
  started = performance.now();
  evaluateHistories(histories, null);
  const evaluating = seconds(started);
  started = performance.now();
  const result = await optimizeParameters(logs, { wasm });
  speed.push({
    answers,
    items: items.lengths.length,
    "items s": building,
    "one evaluation s": evaluating,
    "optimise s (all of it)": seconds(started),
    improved: String(result.improved),
  });
}
console.log("Optimiser time in Node (fsrs-browser's wasm, one thread)");
console.table(speed);

async function anki(logs: TrainingLog[]): Promise<{ parameters: number[]; seconds: string }> {
  const items = itemEnds(cardHistories(logs)).map(
    ({ history, last }) =>
      new FSRSBindingItem(
        history.ratings.slice(0, last + 1).map((r, i) => new FSRSBindingReview(r, history.deltaTs[i] as number)),
      ),
  );
  const started = performance.now();
  const parameters = await computeParameters(items, {
    enableShortTerm: true,
    numRelearningSteps: 1,
    trainingConfig: { numEpochs: 8, batchSize: 512, seed: 2023, learningRate: 0.04, maxSeqLen: 256, gamma: 1 },
  });
  return { parameters, seconds: seconds(started) };
}

const fit: Record<string, string | number>[] = [];
const histories: [string, TrainingLog[]][] = [];
for (const file of ankiFixtureFiles) {
  const logs = await fixtureLogs(file);
  if (logs.length >= 400) histories.push([file, logs]);
}
histories.push(["simulated, 100,000 answers", simulated(100_000)]);
for (const [name, logs] of histories) {
  const cards = cardHistories(logs);
  const engram = await optimizeParameters(logs, { wasm });
  const reference = await anki(logs);
  const row = (label: string, parameters: number[] | null) => {
    const { logLoss, rmseBins } = evaluateHistories(cards, parameters);
    return { [`${label} log loss`]: logLoss.toFixed(4), [`${label} RMSE`]: rmseBins.toFixed(4) };
  };
  fit.push({
    history: name,
    items: engram.before.reviews,
    ...row("defaults", null),
    ...row("Engram", engram.parameters),
    ...row("Anki", reference.parameters),
    "Anki train s (native)": reference.seconds,
  });
}
console.log("Fit under Anki's evaluation (log loss and RMSE over bins, recency-weighted)");
console.table(fit);
