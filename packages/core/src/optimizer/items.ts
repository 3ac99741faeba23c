/**
 * Review logs as the reference FSRS optimiser (fsrs-rs) reads them: per card, the
 * answers since it was last new, with the whole study days between them.
 */
import { defaults } from "../limits";
import type { CardState } from "../scheduler";

/** What the optimiser reads from one `review_logs` row. */
export type TrainingLog = {
  cardId: string;
  rating: 1 | 2 | 3 | 4;
  reviewedAt: Date;
  /** The card's state before the answer. */
  state: CardState;
};

export type StudyDayOptions = {
  /** The user's offset from UTC in minutes, east positive (UTC+2 is 120). Default 0. */
  timezoneOffsetMinutes?: number;
  /** The hour a study day starts (PRODUCT §9: 4). */
  dayStartHour?: number;
};

/** One card's answers in time order, each with the study days since the one before (the first 0). */
export type CardHistory = { ratings: number[]; deltaTs: number[] };

export type TrainingItems = {
  /** Every item's (rating, delta_t) pairs, one item after another. */
  ratings: Uint32Array;
  deltaTs: Uint32Array;
  /** How many pairs each item has: an item is a card's history up to one of its answers. */
  lengths: Uint32Array;
  /** Cards with at least one item. */
  cards: number;
};

const dayMs = 86_400_000;

/**
 * Groups logs by card and orders them by time. Each history starts at the card's last
 * answer given while it was new, as Anki cuts a history at a reset; a card that was
 * never answered as new (history imported only in part) is left out, since its
 * first stability cannot be learned from it.
 */
export function cardHistories(logs: readonly TrainingLog[], options: StudyDayOptions = {}): CardHistory[] {
  const offsetMs =
    (options.timezoneOffsetMinutes ?? 0) * 60_000 - (options.dayStartHour ?? defaults.dayStartsAt) * 3_600_000;
  const studyDay = (at: Date) => Math.floor((at.getTime() + offsetMs) / dayMs);
  const byCard = new Map<string, TrainingLog[]>();
  for (const log of logs) {
    const list = byCard.get(log.cardId);
    if (list) list.push(log);
    else byCard.set(log.cardId, [log]);
  }
  const histories: CardHistory[] = [];
  for (const list of byCard.values()) {
    list.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
    const start = list.findLastIndex((log) => log.state === "new");
    if (start < 0) continue;
    const answers = list.slice(start);
    histories.push({
      ratings: answers.map((log) => log.rating),
      deltaTs: answers.map((log, i) => {
        const previous = answers[i - 1];
        return previous === undefined ? 0 : Math.max(0, studyDay(log.reviewedAt) - studyDay(previous.reviewedAt));
      }),
    });
  }
  return histories;
}

/**
 * The flat arrays fsrs-rs's `computeParameters` takes: one item per answer after a
 * card's first, except while the card has only same-day answers, which fsrs-rs refuses
 * (an item needs an answer on a later day than the first).
 */
export function trainingItems(logs: readonly TrainingLog[], options: StudyDayOptions = {}): TrainingItems {
  const histories = cardHistories(logs, options);
  let pairs = 0;
  let items = 0;
  let cards = 0;
  for (const { deltaTs } of histories) {
    const shortest = shortestItem(deltaTs);
    if (shortest === null) continue;
    cards++;
    for (let length = shortest; length <= deltaTs.length; length++) {
      items++;
      pairs += length;
    }
  }
  const result: TrainingItems = {
    ratings: new Uint32Array(pairs),
    deltaTs: new Uint32Array(pairs),
    lengths: new Uint32Array(items),
    cards,
  };
  let at = 0;
  let item = 0;
  for (const { ratings, deltaTs } of histories) {
    for (let length = shortestItem(deltaTs) ?? Number.POSITIVE_INFINITY; length <= ratings.length; length++) {
      result.ratings.set(ratings.slice(0, length), at);
      result.deltaTs.set(deltaTs.slice(0, length), at);
      result.lengths[item++] = length;
      at += length;
    }
  }
  return result;
}

/** How many answers the first valid item of a history holds, or null when it has none. */
function shortestItem(deltaTs: readonly number[]): number | null {
  const firstLater = deltaTs.findIndex((d, i) => i > 0 && d > 0);
  return firstLater < 0 ? null : firstLater + 1;
}
