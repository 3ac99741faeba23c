/**
 * The optimiser against the reference implementation, fsrs-rs (through
 * `@open-spaced-repetition/binding`, which runs it natively in Node), on real Anki
 * histories and a simulated one: the same training items as its own revlog
 * conversion, the same evaluation as its `evaluate`, the same parameters as its
 * training at the settings fsrs-browser trains with, and a fit as good as Anki's.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  computeParameters,
  convertCsvToFsrsItems,
  FSRSBinding,
  FSRSBindingItem,
  FSRSBindingReview,
  type TrainingConfig,
} from "@open-spaced-repetition/binding";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluateHistories, evaluateItems } from "./evaluate";
import { fixtureLogs } from "./fixtures-test-support";
import { type CardHistory, cardHistories, type ItemEnd, itemEnds, type TrainingLog } from "./items";
import { simulateLogs } from "./simulate-test-support";
import { type OptimizeResult, optimizeParameters } from "./train";

const wasm = readFileSync(createRequire(import.meta.url).resolve("fsrs-browser/fsrs_browser_bg.wasm"));

/** fsrs-rs's defaults, with the epochs and history length fsrs-browser 5.2 trains with. */
const fsrsBrowserSettings: TrainingConfig = {
  numEpochs: 5,
  batchSize: 512,
  seed: 2023,
  learningRate: 0.04,
  maxSeqLen: 64,
  gamma: 1,
};
/** What Anki 26.08 passes to fsrs-rs 6.6. */
const ankiSettings: TrainingConfig = { ...fsrsBrowserSettings, numEpochs: 8, maxSeqLen: 256 };

const stateCodes = { new: 0, learning: 1, review: 2, relearning: 3 } as const;

/** The logs as the revlog CSV the binding converts (card_id, review_time, review_rating, review_state, review_duration). */
function referenceItems(logs: readonly TrainingLog[]): FSRSBindingItem[] {
  const rows = logs.map((log) => `${log.cardId},${log.reviewedAt.getTime()},${log.rating},${stateCodes[log.state]},0`);
  const csv = `card_id,review_time,review_rating,review_state,review_duration\n${rows.join("\n")}`;
  return convertCsvToFsrsItems(new TextEncoder().encode(csv), 4, "UTC", () => 0);
}

function asBindingItem({ history, last }: ItemEnd): FSRSBindingItem {
  return new FSRSBindingItem(
    history.ratings.slice(0, last + 1).map((rating, i) => new FSRSBindingReview(rating, history.deltaTs[i] as number)),
  );
}

const pairs = (item: FSRSBindingItem) => item.reviews.map((r) => [r.rating, r.deltaT]);

type Case = [name: string, load: () => Promise<TrainingLog[]>];
const cases: Case[] = [
  ["BarRonPcAp.colpkg", () => fixtureLogs("BarRonPcAp.colpkg")],
  ["collection.apkg", () => fixtureLogs("collection.apkg")],
  ["a simulated history of 20,000 answers", async () => simulateLogs({ cards: 2000, reviewsPerCard: 10, seed: 11 })],
];

describe.each(cases)("on %s", (_name, load) => {
  let logs: TrainingLog[];
  let histories: CardHistory[];
  let ends: ItemEnd[];
  let engram: OptimizeResult;
  let sameSettings: number[];
  let anki: number[];

  beforeAll(async () => {
    logs = await load();
    histories = cardHistories(logs, { timeZone: "UTC", dayStartHour: 4 });
    ends = itemEnds(histories);
    const items = ends.map(asBindingItem);
    engram = await optimizeParameters(logs, { wasm, timeZone: "UTC", dayStartHour: 4 });
    sameSettings = await computeParameters(items, {
      enableShortTerm: true,
      numRelearningSteps: 1,
      trainingConfig: fsrsBrowserSettings,
    });
    anki = await computeParameters(items, {
      enableShortTerm: true,
      numRelearningSteps: 1,
      trainingConfig: ankiSettings,
    });
  });

  it("builds the training items the reference builds from the same revlog, in the same order", () => {
    const reference = referenceItems(logs);
    expect(ends.length).toBeGreaterThan(50);
    expect(ends.length).toBe(reference.length);
    expect(ends.map((end) => pairs(asBindingItem(end)))).toEqual(reference.map(pairs));
  });

  it("evaluates parameters exactly as fsrs-rs's evaluate", () => {
    // The binding's evaluate first moves items with one long-term answer ahead of the
    // rest and drops outliers among them; items with two or more pass through as they are.
    const passThrough = ends.filter((end) => asBindingItem(end).longTermReviewCnt() >= 2);
    for (const parameters of [null, engram.parameters, anki]) {
      const reference = new FSRSBinding(parameters ?? undefined).evaluate(passThrough.map(asBindingItem));
      const ours = evaluateItems(passThrough, parameters);
      expect(ours.logLoss).toBeCloseTo(reference.logLoss, 5);
      expect(ours.rmseBins).toBeCloseTo(reference.rmseBins, 5);
    }
  });

  it("trains the parameters fsrs-rs trains at the same settings, each within 0.01", () => {
    expect(engram.parameters).toHaveLength(21);
    engram.parameters.forEach((w, i) => {
      expect(Math.abs(w - (sameSettings[i] as number)), `w${i}`).toBeLessThan(0.01);
    });
  });

  it("fits the history as well as Anki's own training, under Anki's evaluation", () => {
    const ours = evaluateHistories(histories, engram.parameters);
    const theirs = evaluateHistories(histories, anki);
    const defaults = evaluateHistories(histories, null);
    expect(ours.rmseBins).toBeLessThan(theirs.rmseBins + 0.001);
    expect(ours.logLoss).toBeLessThan(theirs.logLoss + 0.001);
    expect(ours.rmseBins).toBeLessThan(defaults.rmseBins);
    expect(engram.after).toEqual(ours);
  });
});
