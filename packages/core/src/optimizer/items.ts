/**
 * Review logs as Anki turns them into FSRS training items (rslib's
 * `fsrs_items_for_training`): per card, the answers since it was last new, with
 * the whole study days between them; one item per answer given on a later study
 * day than the one before, holding the card's history up to it; all items in the
 * order of their last answer, since fsrs-rs weighs recent items more.
 */
import { defaults } from "../limits";
import type { CardState } from "../scheduler";
import { studyDay } from "../study-day";

/** What the optimiser reads from one `review_logs` row. */
export type TrainingLog = {
  cardId: string;
  rating: 1 | 2 | 3 | 4;
  reviewedAt: Date;
  /** The card's state before the answer. */
  state: CardState;
};

export type StudyDayOptions = {
  /** The user's IANA time zone (the profile's `timezone`). Default UTC. */
  timeZone?: string;
  /** The hour a study day starts (the profile's `day_starts_at`). Default 4. */
  dayStartHour?: number;
  /** Today, whose end anchors the day count as Anki's `next_day_at` does. Default now (or the last answer, if later). */
  now?: Date;
};

/** One card's answers in time order, each with the study days since the one before (the first 0). */
export type CardHistory = {
  cardId: string;
  ratings: number[];
  deltaTs: number[];
  /** When each answer was given, in epoch ms. */
  times: number[];
};

export type TrainingItems = {
  /** Every item's (rating, delta_t) pairs, one item after another, items by their last answer's time. */
  ratings: Uint32Array;
  deltaTs: Uint32Array;
  /** How many pairs each item has: an item is a card's history up to one of its answers. */
  lengths: Uint32Array;
  /** Cards with at least one item. */
  cards: number;
  /** The answers of those cards: what Anki reports as the reviews trained on. */
  reviews: number;
};

const daySeconds = 86_400;

/**
 * Whole days from an answer to the end of today, as Anki counts them: from its
 * `next_day_at` back in steps of 24 hours, in seconds. Differences of these are the
 * study days between answers.
 */
function daysBeforeEndOfToday(options: StudyDayOptions, lastMs: number): (ms: number) => number {
  const now = options.now ?? new Date(Math.max(Date.now(), lastMs));
  const end = studyDay(now, options.timeZone ?? "UTC", options.dayStartHour ?? defaults.dayStartsAt).end.getTime();
  const endSeconds = Math.floor(end / 1000);
  return (ms) => Math.max(0, Math.trunc((endSeconds - Math.floor(ms / 1000)) / daySeconds));
}

/**
 * Groups logs by card and orders them by time. Each history starts at the card's
 * last answer given while it was new, where Anki starts it (the first of its last
 * learning answers, after a reset). A card never answered as new (history imported
 * only in part) is left out: Anki trains only on cards whose learning it has seen.
 */
export function cardHistories(logs: readonly TrainingLog[], options: StudyDayOptions = {}): CardHistory[] {
  let lastMs = 0;
  const byCard = new Map<string, TrainingLog[]>();
  for (const log of logs) {
    lastMs = Math.max(lastMs, log.reviewedAt.getTime());
    const list = byCard.get(log.cardId);
    if (list) list.push(log);
    else byCard.set(log.cardId, [log]);
  }
  const daysBefore = daysBeforeEndOfToday(options, lastMs);
  const histories: CardHistory[] = [];
  for (const [cardId, list] of byCard) {
    list.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
    const start = list.findLastIndex((log) => log.state === "new");
    if (start < 0) continue;
    const answers = list.slice(start);
    const times = answers.map((log) => log.reviewedAt.getTime());
    const days = times.map(daysBefore);
    histories.push({
      cardId,
      ratings: answers.map((log) => log.rating),
      deltaTs: days.map((d, i) => (i === 0 ? 0 : Math.max(0, (days[i - 1] as number) - d))),
      times,
    });
  }
  return histories;
}

/** Where an item ends: its card's history and the index of its last answer. */
export type ItemEnd = { history: CardHistory; last: number };

/**
 * Every item of the histories, by the time of its last answer (ties in card order,
 * as Anki's stable sort by revlog id leaves them). An item ends at each answer after
 * the first that comes on a later study day than the one before.
 */
export function itemEnds(histories: readonly CardHistory[]): ItemEnd[] {
  const ends: ItemEnd[] = [];
  for (const history of histories) {
    history.deltaTs.forEach((delta, i) => {
      if (i > 0 && delta > 0) ends.push({ history, last: i });
    });
  }
  return ends.sort((a, b) => (a.history.times[a.last] as number) - (b.history.times[b.last] as number));
}

/** The flat arrays fsrs-rs's `computeParameters` takes. */
export function trainingItems(logs: readonly TrainingLog[], options: StudyDayOptions = {}): TrainingItems {
  return itemsOf(itemEnds(cardHistories(logs, options)));
}

/** The flat arrays of items already in order (`itemEnds`). */
export function itemsOf(ends: readonly ItemEnd[]): TrainingItems {
  let pairs = 0;
  for (const end of ends) pairs += end.last + 1;
  const ratings = new Uint32Array(pairs);
  const deltaTs = new Uint32Array(pairs);
  const lengths = new Uint32Array(ends.length);
  let at = 0;
  ends.forEach(({ history, last }, item) => {
    for (let i = 0; i <= last; i++) {
      ratings[at + i] = history.ratings[i] as number;
      deltaTs[at + i] = history.deltaTs[i] as number;
    }
    lengths[item] = last + 1;
    at += last + 1;
  });
  const trained = new Set(ends.map((end) => end.history));
  let reviews = 0;
  for (const history of trained) reviews += history.ratings.length;
  return { ratings, deltaTs, lengths, cards: trained.size, reviews };
}
