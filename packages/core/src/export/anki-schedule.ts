/** Maps Engram's FSRS card state onto Anki's card columns and review log rows. */

import type { AnkiSchedule } from "../import/anki/types";
import type { CardState } from "../scheduler";

export type ExportSchedule = {
  state: CardState;
  due: Date | string;
  stability: number;
  difficulty: number;
  reps: number;
  lapses: number;
  last_review: Date | string | null;
  scheduled_days?: number;
};

export type ExportReview = {
  cardId: string | number;
  reviewedAt: Date | string;
  rating: 1 | 2 | 3 | 4;
  durationMs: number;
  /** State before the answer. */
  state: CardState;
  scheduledDays: number;
  lastIntervalDays: number;
};

/** A card row's schedule columns as Anki writes them. */
export type AnkiCardColumns = AnkiSchedule & { left: number; data: string };

const dayMs = 86_400_000;
const cardTypes: Record<CardState, number> = { new: 0, learning: 1, review: 2, relearning: 3 };
const revlogTypes: Record<CardState, number> = { new: 0, learning: 0, review: 1, relearning: 2 };

export function time(value: Date | string): number {
  return value instanceof Date ? value.getTime() : Date.parse(value);
}

export function newCard(position: number, suspended: boolean): AnkiCardColumns {
  return {
    type: 0,
    queue: suspended ? -1 : 0,
    due: position,
    ivl: 0,
    factor: 0,
    reps: 0,
    lapses: 0,
    left: 0,
    data: "",
  };
}

/** `crtMs` is the collection's creation (a day start); review due dates count days from it. */
export function scheduledCard(
  schedule: ExportSchedule,
  position: number,
  suspended: boolean,
  crtMs: number,
): AnkiCardColumns {
  if (schedule.state === "new") return newCard(position, suspended);
  const dueMs = time(schedule.due);
  const lastMs = schedule.last_review === null ? null : time(schedule.last_review);
  const interval = schedule.scheduled_days ?? (lastMs === null ? 0 : Math.max(0, Math.round((dueMs - lastMs) / dayMs)));
  const dueDay = Math.floor((dueMs - crtMs) / dayMs);
  const learning = schedule.state !== "review";
  const intraday = learning && interval < 1;
  const queue = suspended ? -1 : intraday ? 1 : learning ? 3 : 2;
  return {
    type: cardTypes[schedule.state],
    queue,
    due: intraday ? Math.floor(dueMs / 1000) : dueDay,
    ivl: Math.max(learning ? 0 : 1, interval),
    factor: 2500,
    reps: schedule.reps,
    lapses: schedule.lapses,
    left: learning ? 1001 : 0,
    data: JSON.stringify({ s: round(schedule.stability), d: round(schedule.difficulty) }),
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

export function revlogRow(review: ExportReview, cardId: number) {
  return {
    cid: cardId,
    ease: review.rating,
    ivl: review.scheduledDays,
    lastIvl: review.lastIntervalDays,
    factor: review.state === "new" ? 0 : 2500,
    time: Math.max(0, Math.min(review.durationMs, 3_600_000)),
    type: revlogTypes[review.state],
  };
}
