/**
 * A year of a user's studying, simulated day by day as fsrs-rs's `simulate`
 * does (Anki's FSRS simulator): cards come due at the interval for the desired
 * retention, each review is remembered with the model's probability, answers
 * cost the seconds the user takes, and daily limits hold back what does not fit.
 * A seeded random source makes every run with the same inputs the same.
 */
import { limits } from "../limits";
import { seededRandom } from "../seeded-random";
import { fsrsModel, type Memory, type Model } from "./model";

/** A studied card, its days counted from today's study day (0 today, negative in the past). */
export type SimulatedCard = {
  stability: number;
  difficulty: number;
  /** The study day it comes due; overdue cards are due today. */
  dueDay: number;
  /** The study day it was last answered. */
  lastDay: number;
};

type FourRatings = readonly [again: number, hard: number, good: number, easy: number];

/** Seconds an answer takes, by the card's state and the rating (Again, Hard, Good, Easy). */
export type AnswerCosts = { learning: FourRatings; review: FourRatings; relearning: FourRatings };

/** fsrs-rs's defaults, from Anki users' collections: used where a user's own history has no answers. */
export const defaultAnswerCosts: AnswerCosts = {
  learning: [19.58, 18.79, 13.78, 10.71],
  review: [19.38, 17.59, 12.38, 8.94],
  relearning: [16.44, 15.25, 12.32, 8.03],
};
/** How often a new card's first answer is Again, Hard, Good, Easy. */
export const defaultFirstRatings: FourRatings = [0.24, 0.094, 0.495, 0.171];
/** How often a remembered review is Hard, Good, Easy. */
export const defaultRecallRatings: readonly [hard: number, good: number, easy: number] = [0.224, 0.631, 0.145];

// The next answer during learning and relearning steps, given the one before (fsrs-rs's defaults).
const learningTransitions: readonly FourRatings[] = [
  [0.3686, 0.0628, 0.5108, 0.0577],
  [0.0442, 0.4553, 0.4457, 0.0549],
  [0.0519, 0.047, 0.8462, 0.055],
];
const relearningTransitions: readonly FourRatings[] = [
  [0.2157, 0.0643, 0.6595, 0.0604],
  [0.05, 0.4638, 0.4475, 0.0387],
  [0.1057, 0.1434, 0.7266, 0.0244],
];
// Engram's steps: learning 1m 10m, relearning 10m.
const learningSteps = 2;
const relearningSteps = 1;
const maxSteps = 5;

export type SimulationInput = {
  cards: readonly SimulatedCard[];
  /** Cards not yet studied, introduced at `newPerDay` until none are left. */
  newCards: number;
  newPerDay: number;
  reviewsPerDay: number;
  /** The 21 FSRS-6 weights, or null for the defaults. */
  parameters: readonly number[] | null;
  costs?: AnswerCosts;
  firstRatings?: FourRatings;
  recallRatings?: readonly [number, number, number];
  /** Default 365. */
  days?: number;
  /** Default 42, as fsrs-rs. */
  seed?: number;
};

export type SimulatedDay = {
  /** Study days from today (0). */
  day: number;
  reviews: number;
  /** New cards studied for the first time. */
  learned: number;
  minutes: number;
  /** Cards remembered at that day: the sum of every studied card's probability of recall. */
  memorised: number;
};

export type Simulation = {
  days: SimulatedDay[];
  totalMinutes: number;
  /** Cards remembered on the last day. */
  memorised: number;
};

function sample(random: () => number, weights: readonly number[]): number {
  let total = 0;
  for (const weight of weights) total += weight;
  let point = random() * total;
  for (let i = 0; i < weights.length; i++) {
    point -= weights[i] as number;
    if (point < 0) return i;
  }
  return weights.length - 1;
}

/** The short-term steps after a first answer or a lapse, until the card graduates; returns the state and seconds spent. */
function steps(
  fsrs: Model,
  random: () => number,
  state: Memory,
  firstRating: number | null,
  transitions: readonly FourRatings[],
  stepCount: number,
  costs: FourRatings,
) {
  let rating = firstRating ?? 1;
  let seconds = firstRating === null ? 0 : (costs[rating - 1] as number);
  let memory = state;
  let consecutive = 0;
  const needed = rating > 2 ? Math.max(0, stepCount - 1) : stepCount;
  for (let i = 0; i < maxSteps && consecutive < needed && rating < 4; i++) {
    rating = sample(random, transitions[rating - 1] as FourRatings) + 1;
    memory = fsrs.next(memory, 0, rating, 1);
    seconds += costs[rating - 1] as number;
    if (rating > 2) consecutive++;
    else if (rating === 1) consecutive = 0;
  }
  return { memory, seconds };
}

/** Options that only cost time: the recommendation needs the last day's figure alone. */
type Detail = { everyDay: boolean };

function run(input: SimulationInput, desiredRetention: number, detail: Detail): Simulation {
  if (!(desiredRetention > 0 && desiredRetention < 1)) {
    throw new RangeError(`Desired retention must be between 0 and 1, got ${desiredRetention}.`);
  }
  const days = input.days ?? 365;
  const costs = input.costs ?? defaultAnswerCosts;
  const firstRatings = input.firstRatings ?? defaultFirstRatings;
  const recallRatings = input.recallRatings ?? defaultRecallRatings;
  const random = seededRandom(input.seed ?? 42);
  const fsrs = fsrsModel(input.parameters, desiredRetention);
  const memorisedOf = recallTable(fsrs);

  const total = input.cards.length + Math.max(0, Math.floor(input.newCards));
  const stability = new Float64Array(total);
  const difficulty = new Float64Array(total);
  const lastDay = new Float64Array(total);
  // Cards due on each day; a day over its review limit passes the rest to the next.
  const due: number[][] = Array.from({ length: days }, () => []);
  input.cards.forEach((card, i) => {
    stability[i] = card.stability;
    difficulty[i] = card.difficulty;
    lastDay[i] = card.lastDay;
    const day = Math.max(0, Math.floor(card.dueDay));
    if (day < days) due[day]?.push(i);
  });
  let nextNew = input.cards.length;

  const reviews = new Array<number>(days).fill(0);
  const learned = new Array<number>(days).fill(0);
  const seconds = new Array<number>(days).fill(0);
  const memorised = new Array<number>(days).fill(0);
  const settle = (card: number, day: number, memory: Memory) => {
    stability[card] = memory.stability;
    difficulty[card] = memory.difficulty;
    lastDay[card] = day;
    const next = day + fsrs.interval(memory.stability);
    if (next < days) due[next]?.push(card);
  };

  // Cards due and not yet reviewed, easiest first: fsrs-rs's order among cards due the same day,
  // and cards held back by the review limit count as due the next day.
  const waiting = new MinHeap();
  const today: number[] = [];
  for (let day = 0; day < days; day++) {
    for (const card of due[day] as number[]) waiting.push(card, difficulty[card] as number);
    due[day] = [];
    today.length = 0;
    while (today.length < input.reviewsPerDay && waiting.size > 0) today.push(waiting.pop());
    let spent = 0;
    for (const card of today) {
      const memory = { stability: stability[card] as number, difficulty: difficulty[card] as number };
      const elapsed = day - (lastDay[card] as number);
      const recall = fsrs.recall(elapsed, memory.stability);
      if (random() < recall) {
        const rating = sample(random, recallRatings) + 2;
        settle(card, day, fsrs.next(memory, elapsed, rating, recall));
        spent += costs.review[rating - 1] as number;
      } else {
        const lapsed = fsrs.next(memory, elapsed, 1, recall);
        const relearnt = steps(fsrs, random, lapsed, null, relearningTransitions, relearningSteps, costs.relearning);
        settle(card, day, relearnt.memory);
        spent += (costs.review[0] as number) + relearnt.seconds;
      }
    }
    const introduce = Math.max(0, Math.min(input.newPerDay, total - nextNew));
    for (let n = 0; n < introduce; n++) {
      const rating = sample(random, firstRatings) + 1;
      const learnt = steps(
        fsrs,
        random,
        fsrs.first(rating),
        rating,
        learningTransitions,
        learningSteps,
        costs.learning,
      );
      settle(nextNew++, day, learnt.memory);
      spent += learnt.seconds;
    }
    reviews[day] = today.length;
    learned[day] = introduce;
    seconds[day] = spent;
    if (detail.everyDay || day === days - 1) {
      let sum = 0;
      for (let card = 0; card < nextNew; card++) {
        sum += memorisedOf(day - (lastDay[card] as number), stability[card] as number);
      }
      memorised[day] = sum;
    }
  }

  let totalSeconds = 0;
  for (const value of seconds) totalSeconds += value;
  return {
    days: reviews.map((count, day) => ({
      day,
      reviews: count,
      learned: learned[day] as number,
      minutes: (seconds[day] as number) / 60,
      memorised: memorised[day] as number,
    })),
    totalMinutes: totalSeconds / 60,
    memorised: memorised[days - 1] ?? 0,
  };
}

/** A binary min-heap of card indices by a key, so a backlog costs log n per card, not a sort per day. */
class MinHeap {
  private cards: number[] = [];
  private keys: number[] = [];

  get size(): number {
    return this.cards.length;
  }

  push(card: number, key: number): void {
    const { cards, keys } = this;
    let i = cards.length;
    cards.push(card);
    keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((keys[parent] as number) <= key) break;
      cards[i] = cards[parent] as number;
      keys[i] = keys[parent] as number;
      i = parent;
    }
    cards[i] = card;
    keys[i] = key;
  }

  pop(): number {
    const { cards, keys } = this;
    const top = cards[0] as number;
    const lastCard = cards.pop() as number;
    const lastKey = keys.pop() as number;
    const n = cards.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && (keys[child + 1] as number) < (keys[child] as number)) child++;
      if ((keys[child] as number) >= lastKey) break;
      cards[i] = cards[child] as number;
      keys[i] = keys[child] as number;
      i = child;
    }
    cards[i] = lastCard;
    keys[i] = lastKey;
    return top;
  }
}

/**
 * The forgetting curve by table lookup for the daily count of cards
 * remembered, which evaluates it for every card on every day. Recall depends
 * only on elapsed / stability; the table is spaced evenly in log2(1 + that),
 * which follows the curve's long tail (cards held back by the review limit),
 * and linear interpolation in steps of 1/256 stays within a millionth of it.
 */
function recallTable(fsrs: Model): (elapsed: number, stability: number) => number {
  const perUnit = 256;
  const end = 40;
  const table = new Float64Array(end * perUnit + 2);
  for (let i = 0; i < table.length; i++) table[i] = fsrs.recall(2 ** (i / perUnit) - 1, 1);
  return (elapsed, stability) => {
    const u = Math.log2(1 + elapsed / stability) * perUnit;
    if (!(u < end * perUnit)) return fsrs.recall(elapsed, stability);
    const i = Math.floor(u);
    const low = table[i] as number;
    return low + ((table[i + 1] as number) - low) * (u - i);
  };
}

/**
 * The next `days` study days (default 365) at a desired retention. Counting the
 * cards remembered on every day is most of the work for a large collection;
 * `{ memorisedEveryDay: false }` counts them on the last day only.
 */
export function simulateWorkload(
  input: SimulationInput,
  desiredRetention: number,
  options: { memorisedEveryDay?: boolean } = {},
): Simulation {
  return run(input, desiredRetention, { everyDay: options.memorisedEveryDay ?? true });
}

/** The retentions a recommendation may name. */
export const recommendationRange = { min: limits.desiredRetentionMin, max: 0.95 } as const;
const hundredthsRange = {
  min: Math.round(recommendationRange.min * 100),
  max: Math.round(recommendationRange.max * 100),
};

export type RetentionCost = { retention: number; minutesPerCard: number };

export type Recommendation = {
  /** The retention with the least study time per card remembered at the end. */
  retention: number;
  /** The retentions tried, in order, with their minutes per card remembered. */
  costs: RetentionCost[];
};

/**
 * Anki's "minimum recommended retention" (fsrs-rs `optimal_retention`): the
 * desired retention from 0.70 to 0.95 whose simulated year costs the least
 * time per card remembered at its end. Every retention is simulated with the
 * same random draws, so their differences come from the retention alone. It
 * tries every 0.05, then every 0.01 within 0.04 of the best of those.
 */
export function recommendRetention(input: SimulationInput): Recommendation {
  const tried = new Map<number, number>();
  const cost = (hundredths: number) => {
    let value = tried.get(hundredths);
    if (value === undefined) {
      const simulation = run(input, hundredths / 100, { everyDay: false });
      value = simulation.memorised > 0 ? simulation.totalMinutes / simulation.memorised : Number.POSITIVE_INFINITY;
      tried.set(hundredths, value);
    }
    return value;
  };
  const { min, max } = hundredthsRange;
  const best = (candidates: number[]) => candidates.reduce((a, b) => (cost(b) < cost(a) ? b : a));
  const coarse = best(Array.from({ length: (max - min) / 5 + 1 }, (_, i) => min + 5 * i));
  const fine: number[] = [];
  for (let h = Math.max(min, coarse - 4); h <= Math.min(max, coarse + 4); h++) fine.push(h);
  const retention = best(fine) / 100;
  const costs = [...tried]
    .sort(([a], [b]) => a - b)
    .map(([hundredths, minutesPerCard]) => ({ retention: hundredths / 100, minutesPerCard }));
  return { retention, costs };
}
