/**
 * How well a set of FSRS parameters predicts a user's own answers, as Anki's
 * "Evaluate" shows it (fsrs-rs `FSRS::evaluate`): every training item's last answer
 * predicted from the history before it, items weighted for recency in the order of
 * their last answer, log loss over those weights and RMSE over Anki's bins.
 */
import { clipParameters, default_w, FSRSAlgorithm, generatorParameters } from "ts-fsrs";
import { limits } from "../limits";
import {
  type CardHistory,
  cardHistories,
  type ItemEnd,
  itemEnds,
  type StudyDayOptions,
  type TrainingLog,
} from "./items";

export type Evaluation = {
  /** Recency-weighted binary cross-entropy of the predicted recall against "remembered" (rating above 1). */
  logLoss: number;
  /** RMSE over bins of similar reviews, each bin counted by its items' weights. */
  rmseBins: number;
  /** Items evaluated: answers given on a later study day than the one before. */
  reviews: number;
};

export function evaluateParameters(
  logs: readonly TrainingLog[],
  parameters: readonly number[] | null,
  options: StudyDayOptions = {},
): Evaluation {
  return evaluateHistories(cardHistories(logs, options), parameters);
}

type Bin = { predicted: number; actual: number; count: number; weight: number };

export function evaluateHistories(histories: readonly CardHistory[], parameters: readonly number[] | null): Evaluation {
  return evaluateItems(itemEnds(histories), parameters);
}

/** fsrs-rs's `evaluate` over items in the order given (their rank sets their weight). */
export function evaluateItems(ends: readonly ItemEnd[], parameters: readonly number[] | null): Evaluation {
  if (parameters !== null && (parameters.length !== limits.fsrsParamCount || !parameters.every(Number.isFinite))) {
    throw new RangeError(`FSRS parameters must be ${limits.fsrsParamCount} finite numbers.`);
  }
  if (ends.length === 0) return { logLoss: Number.NaN, rmseBins: Number.NaN, reviews: 0 };
  // fsrs-rs clips what it is given for one relearning step, without short-term floors.
  const w = clipParameters([...(parameters ?? default_w)], 1, false);
  const algorithm = new FSRSAlgorithm(generatorParameters({ w, enable_short_term: true }));
  const weightOf = recencyWeights(ends.length);
  const predictions = new Map<CardHistory, Float64Array>();

  let loss = 0;
  let totalWeight = 0;
  const bins = new Map<number, Bin>();
  ends.forEach(({ history, last }, rank) => {
    let predicted = predictions.get(history);
    if (!predicted) {
      predicted = predict(history, algorithm);
      predictions.set(history, predicted);
    }
    const p = predicted[last] as number;
    const y = (history.ratings[last] as number) > 1 ? 1 : 0;
    const weight = weightOf(rank);
    loss -= (y * Math.log(p) + (1 - y) * Math.log(1 - p)) * weight;
    totalWeight += weight;
    const key = binOf(history, last);
    const bin = bins.get(key) ?? { predicted: 0, actual: 0, count: 0, weight: 0 };
    bin.predicted += p;
    bin.actual += y;
    bin.count++;
    bin.weight += weight;
    bins.set(key, bin);
  });
  let squared = 0;
  let binWeight = 0;
  for (const bin of bins.values()) {
    squared += (bin.predicted / bin.count - bin.actual / bin.count) ** 2 * bin.weight;
    binWeight += bin.weight;
  }
  return { logLoss: loss / totalWeight, rmseBins: Math.sqrt(squared / binWeight), reviews: ends.length };
}

/** fsrs-rs's recency weights: 0.25 for the oldest item rising to 1 for the newest, cubically. */
function recencyWeights(count: number): (rank: number) => number {
  const span = Math.max(count - 1, 1);
  return (rank) => 0.25 + 0.75 * (rank / span) ** 3;
}

/**
 * Each answer's predicted recall from the memory state before it, in one pass over
 * the card (an item's prediction depends only on its own card's earlier answers).
 */
function predict({ ratings, deltaTs }: CardHistory, algorithm: FSRSAlgorithm): Float64Array {
  const predicted = new Float64Array(ratings.length);
  let memory: { stability: number; difficulty: number } | null = null;
  for (let i = 0; i < ratings.length; i++) {
    const deltaT = deltaTs[i] as number;
    if (memory !== null) predicted[i] = algorithm.forgetting_curve(deltaT, memory.stability);
    memory = algorithm.next_state(memory, deltaT, ratings[i] as number);
  }
  return predicted;
}

/**
 * Anki's bin of an item (fsrs-rs `r_matrix_index`): days since the previous answer,
 * 2.48·3.62^k (in hundredths); answers on later days so far plus one, 1.99·1.89^k;
 * earlier lapses on later days, 1.65·1.73^k or 0; each k = floor(log base of the value).
 */
function binOf(history: CardHistory, last: number): number {
  const bucket = (scale: number, base: number, value: number) =>
    scale * base ** Math.floor(Math.log(value) / Math.log(base));
  let longTerm = 1;
  let lapses = 0;
  for (let i = 1; i <= last; i++) {
    if ((history.deltaTs[i] as number) === 0) continue;
    longTerm++;
    if (i < last && history.ratings[i] === 1) lapses++;
  }
  const deltaBin = Math.round(bucket(2.48, 3.62, history.deltaTs[last] as number) * 100);
  const lengthBin = Math.round(bucket(1.99, 1.89, longTerm));
  const lapseBin = lapses === 0 ? 0 : Math.round(bucket(1.65, 1.73, lapses));
  return (deltaBin * 10_000 + lengthBin) * 10_000 + lapseBin;
}
