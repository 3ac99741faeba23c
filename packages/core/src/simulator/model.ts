/**
 * FSRS-6's formulas over a plain array of weights, for the simulator's inner
 * loop: ts-fsrs computes the same (its tests hold them equal) but reads its
 * weights through a Proxy and rounds every step, about twenty times slower
 * over the hundreds of thousands of answers a year of simulation gives.
 */
import { computeDecayFactor, default_w, generatorParameters } from "ts-fsrs";
import { defaults } from "../limits";

const sMin = 0.001;
const sMax = 36500;

export type Memory = { stability: number; difficulty: number };

export type Model = {
  /** Probability of recall after `elapsed` days at a stability. */
  recall(elapsed: number, stability: number): number;
  /** The state after a card's first answer. */
  first(rating: number): Memory;
  /** The state after an answer `elapsed` days after the one before (0: the same day, a short-term step). */
  next(memory: Memory, elapsed: number, rating: number, recall: number): Memory;
  /** Whole days until recall falls to the desired retention, 1 to the maximum interval. */
  interval(stability: number): number;
};

export function fsrsModel(parameters: readonly number[] | null, desiredRetention: number): Model {
  // ts-fsrs's clipping of trained weights, so both schedule with the same numbers.
  const w = Float64Array.from(generatorParameters({ w: [...(parameters ?? default_w)] }).w);
  const { decay, factor } = computeDecayFactor(Array.from(w));
  const intervalModifier = (desiredRetention ** (1 / decay) - 1) / factor;
  const at = (i: number) => w[i] as number;
  const clampS = (s: number) => Math.min(Math.max(s, sMin), sMax);
  const clampD = (d: number) => Math.min(Math.max(d, 1), 10);
  const initDifficulty = (rating: number) => at(4) - Math.exp((rating - 1) * at(5)) + 1;
  const easyDifficulty = initDifficulty(4);
  const nextDifficulty = (d: number, rating: number) => {
    const delta = -at(6) * (rating - 3);
    const damped = d + (delta * (10 - d)) / 9;
    return clampD(at(7) * easyDifficulty + (1 - at(7)) * damped);
  };
  return {
    recall: (elapsed, stability) => (1 + (factor * elapsed) / stability) ** decay,
    first: (rating) => ({ stability: Math.max(at(rating - 1), 0.1), difficulty: clampD(initDifficulty(rating)) }),
    next: ({ stability: s, difficulty: d }, elapsed, rating, r) => {
      let stability: number;
      if (elapsed === 0) {
        const sinc = s ** -at(19) * Math.exp(at(17) * (rating - 3 + at(18)));
        stability = clampS(s * (rating >= 2 ? Math.max(sinc, 1) : sinc));
      } else if (rating === 1) {
        const forgot = at(11) * d ** -at(12) * ((s + 1) ** at(13) - 1) * Math.exp((1 - r) * at(14));
        stability = clampS(Math.min(forgot, s / Math.exp(at(17) * at(18))));
      } else {
        const bonus = (rating === 2 ? at(15) : 1) * (rating === 4 ? at(16) : 1);
        stability = clampS(
          s * (1 + Math.exp(at(8)) * (11 - d) * s ** -at(9) * (Math.exp((1 - r) * at(10)) - 1) * bonus),
        );
      }
      return { stability, difficulty: nextDifficulty(d, rating) };
    },
    interval: (stability) =>
      Math.min(Math.max(1, Math.round(stability * intervalModifier)), defaults.maximumIntervalDays),
  };
}
