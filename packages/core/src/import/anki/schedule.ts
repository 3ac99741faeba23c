/**
 * An imported Anki card's FSRS schedule and review log: memory states (stability,
 * difficulty) come from replaying the card's answers through ts-fsrs, due dates from
 * Anki's current schedule, which stays the source of truth for when a card is due.
 */
import { dateDiffInDays } from "ts-fsrs";
import { defaults, limits } from "../../limits";
import { type CardSchedule, type CardState, createScheduler, type Rating } from "../../scheduler";
import type { AnkiCard, AnkiPackage, AnkiReview } from "./types";

/** One `review_logs` row, without the ids the caller adds. */
export type ImportedReview = {
  /** The revlog row id (epoch ms), stable across imports of the same collection. */
  ankiReviewId: number;
  rating: Rating;
  /** State and due before the answer. */
  state: CardState;
  due: Date;
  /** Stability and difficulty after the answer. */
  stability: number;
  difficulty: number;
  elapsed_days: number;
  last_elapsed_days: number;
  scheduled_days: number;
  learning_steps: number;
  reviewed_at: Date;
  duration_ms: number;
};

export type ImportedSchedule = {
  /** The card's `card_states` schedule, or null when the card stays new. */
  schedule: CardSchedule | null;
  reviews: ImportedReview[];
};

export type ScheduleFromAnkiOptions = {
  /** The user's trained FSRS weights, or null for the FSRS-6 defaults. */
  params?: readonly number[] | null;
  now?: Date;
};

type MemoryState = { stability: number; difficulty: number };

const dayMs = 86_400_000;
const maxDays = defaults.maximumIntervalDays;
const maxStability = 36_500;

// Anki's revlog types: 0 learn, 1 review, 2 relearn, 3 filtered, 4 manual, 5 rescheduled.
const learnType = 0;
const answerTypes = new Set([0, 1, 2, 3]);

// Anki's card types.
const ankiCardType = { new: 0, learning: 1, review: 2, relearning: 3 } as const;

export function scheduleFromAnki(
  card: AnkiCard,
  reviews: AnkiReview[],
  collection: AnkiPackage["collection"],
  options: ScheduleFromAnkiOptions = {},
): ImportedSchedule {
  const now = options.now ?? new Date();
  const { engine } = createScheduler({ params: options.params ?? null });
  const answers = reviews
    .filter((r) => r.ankiCardId === card.ankiCardId && answerTypes.has(r.type))
    .sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime() || a.ankiReviewId - b.ankiReviewId);

  const logs: ImportedReview[] = [];
  let memory: MemoryState | null = null;
  let previous: AnkiReview | undefined;
  let state: CardState = "new";
  let due = new Date(0);
  let lastElapsed = 0;
  for (const answer of answers) {
    const at = answer.reviewedAt;
    let elapsed: number;
    // A learn answer after a non-learn one means the card was reset ("Forget"): its
    // memory starts over, as Anki's own FSRS cuts the history at the last reset.
    if (previous === undefined || (answer.type === learnType && previous.type !== learnType)) {
      if (answer.type === learnType) {
        memory = null;
        state = "new";
        elapsed = 0;
      } else {
        // The history starts mid-way (Anki trims old revlog rows): seed it from SM-2.
        const lastIvl = clampDays(answer.lastIntervalDays);
        memory = memoryFromSm2(lastIvl, answer.factor);
        state = answer.type === 2 ? "relearning" : "review";
        elapsed = lastIvl;
      }
      due = at;
      lastElapsed = 0;
    } else {
      elapsed = Math.max(0, dateDiffInDays(previous.reviewedAt, at));
    }
    const next = engine.next_state(memory, elapsed, answer.rating);
    memory = boundedMemory(next);
    logs.push({
      ankiReviewId: answer.ankiReviewId,
      rating: answer.rating,
      state,
      due,
      stability: memory.stability,
      difficulty: memory.difficulty,
      elapsed_days: elapsed,
      last_elapsed_days: lastElapsed,
      scheduled_days: clampDays(answer.intervalDays),
      learning_steps: 0,
      reviewed_at: at,
      duration_ms: clamp(Math.round(answer.durationMs), 0, limits.maxDurationMs),
    });
    state = stateAfter(state, answer.intervalDays);
    due = dueAfter(at, answer.intervalDays);
    lastElapsed = elapsed;
    previous = answer;
  }

  return { schedule: currentSchedule(card, collection, memory, previous?.reviewedAt ?? null, now), reviews: logs };
}

/** The `card_states` row from Anki's current schedule and the replayed memory state. */
function currentSchedule(
  card: AnkiCard,
  collection: AnkiPackage["collection"],
  replayed: MemoryState | null,
  lastAnswer: Date | null,
  now: Date,
): CardSchedule | null {
  const anki = card.ankiSchedule;
  const state = cardState(anki.type);
  if (state === null) return null;
  const ivl = clampDays(anki.ivl);
  let due =
    state === "review" || anki.queue === 3 || (anki.queue !== 1 && Math.abs(anki.due) < 1e9)
      ? new Date(collection.createdAt.getTime() + anki.due * dayMs)
      : new Date(anki.due * 1000);
  if (!Number.isFinite(due.getTime())) due = now;
  const lastReview = lastAnswer ?? new Date(due.getTime() - ivl * dayMs);
  if (due.getTime() > lastReview.getTime() + maxDays * dayMs) due = new Date(lastReview.getTime() + maxDays * dayMs);
  const memory = replayed ?? boundedMemory(memoryFromSm2(ivl, anki.factor));
  return {
    state,
    due,
    stability: memory.stability,
    difficulty: memory.difficulty,
    elapsed_days: Math.max(0, dateDiffInDays(lastReview, now)),
    scheduled_days: state === "review" ? ivl : 0,
    learning_steps: 0,
    reps: Math.max(0, Math.trunc(anki.reps)),
    lapses: Math.max(0, Math.trunc(anki.lapses)),
    last_review: lastReview,
  };
}

function cardState(type: number): CardState | null {
  switch (type) {
    case ankiCardType.learning:
      return "learning";
    case ankiCardType.review:
      return "review";
    case ankiCardType.relearning:
      return "relearning";
    default:
      return null;
  }
}

/**
 * An approximation of FSRS memory for an SM-2 card with no usable history (Anki's own
 * memory_state_from_sm2 works in the same spirit): stability is the interval, and the
 * ease factor maps linearly to difficulty, 130% (the floor) to 10 and 310% or more to 1.
 * A card without an ease yet (0) counts as Anki's default 250%.
 */
function memoryFromSm2(ivlDays: number, factor: number): MemoryState {
  const ease = factor > 0 ? factor / 1000 : 2.5;
  return {
    stability: clamp(Math.max(ivlDays, 0.1), 0.1, maxStability),
    difficulty: clamp(10 - ((ease - 1.3) / 1.8) * 9, 1, 10),
  };
}

/** Keeps a memory state inside what the database accepts (and ts-fsrs can continue from). */
function boundedMemory(memory: MemoryState): MemoryState {
  const stability = Number.isFinite(memory.stability) ? clamp(memory.stability, 0.001, maxStability) : 0.1;
  const difficulty = Number.isFinite(memory.difficulty) ? clamp(memory.difficulty, 1, 10) : 5;
  return { stability, difficulty };
}

/** Where an answer left the card, from the interval Anki logged (negative: a step in seconds). */
function stateAfter(before: CardState, ivl: number): CardState {
  if (ivl > 0) return "review";
  if (ivl < 0) return before === "new" || before === "learning" ? "learning" : "relearning";
  return before === "new" ? "learning" : before;
}

function dueAfter(at: Date, ivl: number): Date {
  const ms = ivl >= 0 ? Math.min(ivl, maxDays) * dayMs : Math.min(-ivl, maxDays * 86_400) * 1000;
  return new Date(at.getTime() + ms);
}

/** Whole days within 0..36,500 (Anki's negative intervals are learning steps in seconds: 0 days). */
function clampDays(days: number): number {
  return Number.isFinite(days) ? clamp(Math.trunc(days), 0, maxDays) : 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
