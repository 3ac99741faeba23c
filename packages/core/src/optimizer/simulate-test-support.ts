/** Review histories whose outcomes follow a known FSRS model, for the optimiser's tests and benchmark. */
import { default_w, FSRSAlgorithm, generatorParameters } from "ts-fsrs";
import { seededRandom } from "../seeded-random";
import type { TrainingLog } from "./items";

export type SimulationOptions = {
  cards: number;
  reviewsPerCard: number;
  seed?: number;
  /** The model outcomes are drawn from; the FSRS-6 defaults unless given. */
  parameters?: readonly number[];
};

const dayMs = 86_400_000;
const start = Date.UTC(2024, 0, 1, 10);

/**
 * Each card is first answered on a random day of a year, then reviewed at the interval
 * for 90% retention stretched by 0.5–2× (so recall probabilities vary), remembered
 * with the model's probability.
 */
export function simulateLogs(options: SimulationOptions): TrainingLog[] {
  const random = seededRandom(options.seed ?? 1);
  const algorithm = new FSRSAlgorithm(generatorParameters({ w: [...(options.parameters ?? default_w)] }));
  const logs: TrainingLog[] = [];
  for (let card = 0; card < options.cards; card++) {
    const cardId = `card-${card}`;
    let day = Math.floor(random() * 365);
    const first = pick<TrainingLog["rating"]>(random, [1, 2, 3, 4], [0.2, 0.1, 0.6, 0.1]);
    logs.push({ cardId, rating: first, reviewedAt: at(day, random), state: "new" });
    let memory = algorithm.next_state(null, 0, first);
    for (let review = 1; review < options.reviewsPerCard; review++) {
      const interval = Math.max(1, Math.round(algorithm.next_interval(memory.stability, 0) * (0.5 + random() * 1.5)));
      day += interval;
      const recalled = random() < algorithm.forgetting_curve(interval, memory.stability);
      const rating = recalled ? pick<TrainingLog["rating"]>(random, [2, 3, 4], [0.15, 0.75, 0.1]) : 1;
      logs.push({ cardId, rating, reviewedAt: at(day, random), state: "review" });
      memory = algorithm.next_state(memory, interval, rating);
    }
  }
  return logs;
}

function at(day: number, random: () => number): Date {
  // Between 10:00 and 20:00 UTC: well inside a study day that starts at 04:00.
  return new Date(start + day * dayMs + Math.floor(random() * 10 * 3_600_000));
}

function pick<T>(random: () => number, values: readonly T[], weights: readonly number[]): T {
  let r = random();
  for (let i = 0; i < values.length; i++) {
    r -= weights[i] ?? 0;
    if (r < 0) return values[i] as T;
  }
  return values[values.length - 1] as T;
}
