/**
 * "Reschedule cards on change", as Anki does it when FSRS parameters change
 * (rslib `update_memory_state` with `reschedule`): every studied card's memory
 * state is replayed from its answers with the new parameters, and review cards
 * get the interval that state asks for at the desired retention, counted from
 * their last answer. Learning, relearning and suspended cards keep their due.
 */
import { get_fuzz_range } from "ts-fsrs";
import { cardHistories, type StudyDayOptions, type TrainingLog } from "../optimizer/items";
import { type CardState, createScheduler, schedulerSettings } from "../scheduler";

/** One `review_logs` row as rescheduling reads it. */
export type RescheduleLog = TrainingLog & {
  /** The interval the answer set, in days (`review_logs.scheduled_days`). */
  scheduledDays: number;
};

/** The `card_states` columns rescheduling reads. */
export type CurrentSchedule = {
  cardId: string;
  state: CardState;
  due: Date;
  stability: number;
  difficulty: number;
  scheduledDays: number;
  lastReview: Date | null;
  suspended: boolean;
};

export type RescheduleSettings = StudyDayOptions & {
  /** The 21 FSRS-6 weights to schedule with, or null for the defaults. */
  parameters: readonly number[] | null;
  desiredRetention: number;
};

/** A card's schedule after rescheduling; `due` and `scheduledDays` are its old ones when it does not move. */
export type NewSchedule = {
  cardId: string;
  stability: number;
  difficulty: number;
  due: Date;
  scheduledDays: number;
  /** Whether the due date was recomputed (a review card that is not suspended). */
  moved: boolean;
};

const dayMs = 86_400_000;

type MemoryState = { stability: number; difficulty: number };

/**
 * New schedules for the cards that have been studied (not `new`, with a last
 * answer). A card whose history does not start with its answers as new
 * (imported only in part) keeps its memory state, and only its interval is
 * recomputed from it, as Anki does for cards whose learning it has not seen.
 */
export function rescheduleCards(
  cards: readonly CurrentSchedule[],
  logs: readonly RescheduleLog[],
  settings: RescheduleSettings,
): NewSchedule[] {
  const scheduler = createScheduler({ desiredRetention: settings.desiredRetention, params: settings.parameters });
  const engine = scheduler.engine;
  const histories = new Map(cardHistories(logs, settings).map((history) => [history.cardId, history]));
  const previousIntervals = intervalsBeforeLastAnswer(logs);
  const result: NewSchedule[] = [];
  for (const card of cards) {
    if (card.state === "new" || card.lastReview === null) continue;
    const history = histories.get(card.cardId);
    let memory: MemoryState = { stability: card.stability, difficulty: card.difficulty };
    if (history) {
      let state: MemoryState | null = null;
      history.ratings.forEach((rating, i) => {
        state = engine.next_state(state, history.deltaTs[i] as number, rating);
      });
      if (state) memory = state;
    } else if (!(card.stability > 0 && card.difficulty >= 1)) {
      // Nothing to schedule from: no history and no memory state.
      continue;
    }
    const moves = card.state === "review" && !card.suspended;
    if (!moves) {
      result.push({ cardId: card.cardId, ...memory, due: card.due, scheduledDays: card.scheduledDays, moved: false });
      continue;
    }
    engine.seed = fuzzSeed(card.cardId, card.lastReview);
    const interval = reviewInterval(engine, memory.stability, previousIntervals.get(card.cardId) ?? 0);
    result.push({
      cardId: card.cardId,
      ...memory,
      due: new Date(card.lastReview.getTime() + interval * dayMs),
      scheduledDays: interval,
      moved: true,
    });
  }
  return result;
}

type Engine = ReturnType<typeof createScheduler>["engine"];

/**
 * The fuzzed interval for a stability, never shortened by fuzz alone: when the
 * unfuzzed interval grew past the one before the last answer, at least one day
 * more than it; when it did not grow but that one is still within the fuzz
 * range, at least that (Anki's `minimum_review_fuzz_interval`).
 */
export function reviewInterval(engine: Engine, stability: number, previousInterval: number): number {
  const maximum = schedulerSettings.maximumIntervalDays;
  const rounded = Math.min(Math.max(1, Math.round(stability * engine.interval_modifier)), maximum);
  // ts-fsrs raises its fuzz range's floor to one past `elapsed_days` when the interval exceeds it.
  const fuzzed = engine.next_interval(stability, previousInterval);
  if (rounded <= previousInterval && rounded >= 2.5) {
    const { max_ivl } = get_fuzz_range(rounded, 0, maximum);
    if (previousInterval <= max_ivl) return Math.max(fuzzed, previousInterval);
  }
  return Math.min(Math.max(1, fuzzed), maximum);
}

/** The same card answered at the same time always draws the same fuzz, so a retry lands on the same day. */
function fuzzSeed(cardId: string, lastReview: Date): string {
  return `${cardId}:${lastReview.getTime()}`;
}

/**
 * Per card, the interval it had before its last answer (the one the answer
 * before it set), or 0 when that answer was Again or the card's first:
 * Anki's `previous_interval`.
 */
function intervalsBeforeLastAnswer(logs: readonly RescheduleLog[]): Map<string, number> {
  const lastTwo = new Map<string, [RescheduleLog | undefined, RescheduleLog]>();
  for (const log of logs) {
    const seen = lastTwo.get(log.cardId);
    if (!seen) lastTwo.set(log.cardId, [undefined, log]);
    else if (log.reviewedAt >= seen[1].reviewedAt) lastTwo.set(log.cardId, [seen[1], log]);
    else if (!seen[0] || log.reviewedAt >= seen[0].reviewedAt) lastTwo.set(log.cardId, [log, seen[1]]);
  }
  const intervals = new Map<string, number>();
  for (const [cardId, [before, last]] of lastTwo) {
    // A first answer (as new, after a reset too) has no interval before it.
    intervals.set(cardId, before && last.rating > 1 && last.state !== "new" ? before.scheduledDays : 0);
  }
  return intervals;
}
