/**
 * How well a set of FSRS parameters predicts a user's own answers: log loss and the
 * binned RMSE of the open-spaced-repetition benchmark (srs-benchmark), computed with
 * ts-fsrs, the engine that schedules Engram's cards.
 */
import { default_w, FSRSAlgorithm, generatorParameters } from "ts-fsrs";
import { limits } from "../limits";
import { type CardHistory, cardHistories, type StudyDayOptions, type TrainingLog } from "./items";

export type Evaluation = {
  /** Mean binary cross-entropy of the predicted recall against "remembered" (rating above 1). */
  logLoss: number;
  /** srs-benchmark's RMSE(bins): calibration error over bins of similar reviews. */
  rmseBins: number;
  /** Predictions evaluated: answers given at least one study day after the previous one. */
  reviews: number;
};

type Prediction = { p: number; y: number; bin: string };

const epsilon = 1e-6;

export function evaluateParameters(
  logs: readonly TrainingLog[],
  parameters: readonly number[] | null,
  options: StudyDayOptions = {},
): Evaluation {
  return evaluateHistories(cardHistories(logs, options), parameters);
}

export function evaluateHistories(histories: readonly CardHistory[], parameters: readonly number[] | null): Evaluation {
  if (parameters !== null && (parameters.length !== limits.fsrsParamCount || !parameters.every(Number.isFinite))) {
    throw new RangeError(`FSRS parameters must be ${limits.fsrsParamCount} finite numbers.`);
  }
  const algorithm = new FSRSAlgorithm(
    generatorParameters({ w: [...(parameters ?? default_w)], enable_short_term: true }),
  );
  const predictions: Prediction[] = [];
  for (const { ratings, deltaTs } of histories) {
    let memory: { stability: number; difficulty: number } | null = null;
    let lapses = 0;
    ratings.forEach((rating, i) => {
      const deltaT = deltaTs[i] ?? 0;
      // Same-day answers are short-term steps: the benchmark, like training, predicts only long-term ones.
      if (memory !== null && deltaT > 0) {
        const p = algorithm.forgetting_curve(deltaT, memory.stability);
        predictions.push({ p, y: rating > 1 ? 1 : 0, bin: binOf(lapses, deltaT, i + 1) });
        if (rating === 1) lapses++;
      }
      memory = algorithm.next_state(memory, deltaT, rating);
    });
  }
  return summarise(predictions);
}

/**
 * srs-benchmark's `get_bin`: a review falls in the bin of (lapses so far, rounded to
 * 0 or 1.65·1.73^k; days since the previous answer, 2.48·3.62^k; its 1-based position in
 * the card's history, 1.99·1.89^k), each k = floor(log base of the value). Lapses count
 * the long-term "again" answers before this one.
 */
function binOf(lapses: number, deltaT: number, position: number): string {
  const bucket = (scale: number, base: number, value: number, digits: number) => {
    const raw = scale * base ** Math.floor(Math.log(value) / Math.log(base));
    const unit = 10 ** digits;
    return Math.round(raw * unit) / unit;
  };
  const lapseBin = lapses === 0 ? 0 : bucket(1.65, 1.73, lapses, 0);
  return `${lapseBin}|${bucket(2.48, 3.62, deltaT, 2)}|${bucket(1.99, 1.89, position, 0)}`;
}

function summarise(predictions: Prediction[]): Evaluation {
  const n = predictions.length;
  if (n === 0) return { logLoss: Number.NaN, rmseBins: Number.NaN, reviews: 0 };
  let loss = 0;
  const bins = new Map<string, { p: number; y: number; n: number }>();
  for (const { p, y, bin } of predictions) {
    const clamped = Math.min(1 - epsilon, Math.max(epsilon, p));
    loss -= y * Math.log(clamped) + (1 - y) * Math.log(1 - clamped);
    const sums = bins.get(bin) ?? { p: 0, y: 0, n: 0 };
    sums.p += p;
    sums.y += y;
    sums.n++;
    bins.set(bin, sums);
  }
  // RMSE(bins) = sqrt(Σ_b n_b (mean p_b − mean y_b)² / N)
  let squared = 0;
  for (const sums of bins.values()) squared += sums.n * (sums.p / sums.n - sums.y / sums.n) ** 2;
  return { logLoss: loss / n, rmseBins: Math.sqrt(squared / n), reviews: n };
}
