/**
 * FSRS-6 scheduling through ts-fsrs with Engram's fixed settings (docs/product.md §4,
 * §9), translated to and from the `card_states` row shape.
 */
import { type Card, type FSRS, fsrs, State } from "ts-fsrs";
import { defaults, limits } from "./limits";

export const Rating = { again: 1, hard: 2, good: 3, easy: 4 } as const;
export type Rating = (typeof Rating)[keyof typeof Rating];
export const ratings = [Rating.again, Rating.hard, Rating.good, Rating.easy] as const;

export const cardStates = ["new", "learning", "review", "relearning"] as const;
export type CardState = (typeof cardStates)[number];

export const schedulerSettings = {
  learningSteps: ["1m", "10m"],
  relearningSteps: ["10m"],
  enableFuzz: true,
  maximumIntervalDays: defaults.maximumIntervalDays,
} as const;

/** Mirrors the schedule columns of `card_states`. */
export type CardSchedule = {
  state: CardState;
  due: Date;
  stability: number;
  difficulty: number;
  elapsed_days: number;
  scheduled_days: number;
  learning_steps: number;
  reps: number;
  lapses: number;
  last_review: Date | null;
};

/** The scheduling columns of a `review_logs` row. */
export type ReviewLogEntry = {
  rating: Rating;
  /** State before the answer. */
  state: CardState;
  /** Due before the answer. */
  due: Date;
  /** Stability after the answer. */
  stability: number;
  /** Difficulty after the answer. */
  difficulty: number;
  /** Days since the previous review (calendar days in UTC, as ts-fsrs counts them). */
  elapsed_days: number;
  scheduled_days: number;
  reviewed_at: Date;
};

export type Scheduler = {
  readonly desiredRetention: number;
  /** The user's trained weights, or null for the FSRS-6 defaults. */
  readonly params: readonly number[] | null;
  /** The ts-fsrs instance; use the functions below rather than this. */
  readonly engine: FSRS;
};

export type SchedulerOptions = {
  desiredRetention?: number;
  params?: readonly number[] | null;
};

export function createScheduler(options: SchedulerOptions = {}): Scheduler {
  const desiredRetention = options.desiredRetention ?? defaults.desiredRetention;
  const params = options.params ?? null;
  if (!(desiredRetention > 0 && desiredRetention < 1)) {
    throw new RangeError(`Desired retention must be between 0 and 1, got ${desiredRetention}.`);
  }
  if (params !== null && (params.length !== limits.fsrsParamCount || !params.every(Number.isFinite))) {
    throw new RangeError(`FSRS parameters must be ${limits.fsrsParamCount} finite numbers.`);
  }
  const engine = fsrs({
    request_retention: desiredRetention,
    maximum_interval: schedulerSettings.maximumIntervalDays,
    enable_fuzz: schedulerSettings.enableFuzz,
    enable_short_term: true,
    learning_steps: schedulerSettings.learningSteps,
    relearning_steps: schedulerSettings.relearningSteps,
    ...(params === null ? {} : { w: [...params] }),
  });
  return { desiredRetention, params, engine };
}

/** The schedule a card has before its first answer (no `card_states` row yet). */
export function newCardSchedule(now: Date): CardSchedule {
  return {
    state: "new",
    due: now,
    stability: 0,
    difficulty: 0,
    elapsed_days: 0,
    scheduled_days: 0,
    learning_steps: 0,
    reps: 0,
    lapses: 0,
    last_review: null,
  };
}

/** Answer a card: `current` null means a new card never studied. */
export function nextSchedule(
  scheduler: Scheduler,
  current: CardSchedule | null,
  rating: Rating,
  now: Date,
): { schedule: CardSchedule; log: ReviewLogEntry } {
  const before = current ?? newCardSchedule(now);
  const item = scheduler.engine.next(toCard(before), now, rating);
  const schedule = capInterval(fromCard(item.card), now);
  const log: ReviewLogEntry = {
    rating,
    state: before.state,
    due: before.due,
    stability: schedule.stability,
    difficulty: schedule.difficulty,
    elapsed_days: item.log.elapsed_days,
    scheduled_days: schedule.scheduled_days,
    reviewed_at: now,
  };
  return { schedule, log };
}

export type IntervalPreview = { due: Date; label: string };

/** What each answer button would do, for the labels under them. */
export function previewIntervals(
  scheduler: Scheduler,
  current: CardSchedule | null,
  now: Date,
): Record<Rating, IntervalPreview> {
  const preview = scheduler.engine.repeat(toCard(current ?? newCardSchedule(now)), now);
  const at = (rating: Rating): IntervalPreview => {
    const { due } = capInterval(fromCard(preview[rating].card), now);
    return { due, label: formatInterval(due.getTime() - now.getTime()) };
  };
  return { 1: at(Rating.again), 2: at(Rating.hard), 3: at(Rating.good), 4: at(Rating.easy) };
}

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/**
 * A short label for a wait: under a minute "<1m"; whole minutes below an hour
 * ("10m"); then hours below a day, days below 30, months of 30 days below 12,
 * and years of 365 days, each with at most one decimal ("1.5h", "3d",
 * "3.5mo", "1.2y"). Units switch on the rounded value, so 59.5 minutes is "1h".
 */
export function formatInterval(ms: number): string {
  if (ms < minuteMs) return "<1m";
  const minutes = Math.round(ms / minuteMs);
  if (minutes < 60) return `${minutes}m`;
  const hours = oneDecimal(ms / hourMs);
  if (hours < 24) return `${hours}h`;
  const days = oneDecimal(ms / dayMs);
  if (days < 30) return `${days}d`;
  const months = oneDecimal(ms / (30 * dayMs));
  if (months < 12) return `${months}mo`;
  return `${oneDecimal(ms / (365 * dayMs))}y`;
}

function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * ts-fsrs keeps Hard < Good < Easy by adding a day, which can push Good and
 * Easy one or two days past maximum_interval; the product limit wins.
 */
function capInterval(schedule: CardSchedule, now: Date): CardSchedule {
  const maximum = schedulerSettings.maximumIntervalDays;
  if (schedule.scheduled_days <= maximum) return schedule;
  return { ...schedule, scheduled_days: maximum, due: new Date(now.getTime() + maximum * dayMs) };
}

const toEngineState: Record<CardState, State> = {
  new: State.New,
  learning: State.Learning,
  review: State.Review,
  relearning: State.Relearning,
};

const fromEngineState: Record<State, CardState> = {
  [State.New]: "new",
  [State.Learning]: "learning",
  [State.Review]: "review",
  [State.Relearning]: "relearning",
};

function toCard(schedule: CardSchedule): Card {
  const { state, last_review, ...numbers } = schedule;
  return {
    ...numbers,
    state: toEngineState[state],
    ...(last_review === null ? {} : { last_review }),
  };
}

function fromCard(card: Card): CardSchedule {
  return {
    state: fromEngineState[card.state],
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsed_days: card.elapsed_days,
    scheduled_days: card.scheduled_days,
    learning_steps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    last_review: card.last_review ?? null,
  };
}
