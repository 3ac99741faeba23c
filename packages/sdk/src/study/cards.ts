/** Study cards and schedules as the SDK hands them out: Dates, where PostgREST sends strings. */
import type { CardSchedule, Note } from "@engram/core";
import type { Database, Tables } from "../database.types.js";

/** Which part of today's queue a card came from. */
export type StudyQueue = "new" | "learning" | "review";

/** The note a card shows; `renderCard(card.note, card.ordinal)` renders its faces. */
export type StudyNote = Note & { id: string; tags: string[] };

/** A card's schedule and the version it was read at (the stale-write check compares versions). */
export type ScheduledCard = {
  card_id: string;
  schedule: CardSchedule;
  version: number;
};

/** One card of the study queue with what it takes to show and answer it. */
export type StudyCard = ScheduledCard & {
  deck_id: string;
  ordinal: number;
  note: StudyNote;
  queue: StudyQueue;
};

/** A schedule as JSON (ISO dates), the form stores and the database keep. */
export type StoredSchedule = Omit<CardSchedule, "due" | "last_review"> & { due: string; last_review: string | null };

type ScheduleColumns = Pick<
  Tables<"card_states">,
  | "state"
  | "due"
  | "stability"
  | "difficulty"
  | "elapsed_days"
  | "scheduled_days"
  | "learning_steps"
  | "reps"
  | "lapses"
  | "last_review"
>;
type QueueRow = Database["public"]["Functions"]["study_queue"]["Returns"][number];

export function scheduleFromRow(row: ScheduleColumns): CardSchedule {
  return {
    state: row.state,
    due: new Date(row.due),
    stability: row.stability,
    difficulty: row.difficulty,
    elapsed_days: row.elapsed_days,
    scheduled_days: row.scheduled_days,
    learning_steps: row.learning_steps,
    reps: row.reps,
    lapses: row.lapses,
    last_review: row.last_review === null ? null : new Date(row.last_review),
  };
}

export function scheduleToStored(schedule: CardSchedule): StoredSchedule {
  return { ...schedule, due: schedule.due.toISOString(), last_review: schedule.last_review?.toISOString() ?? null };
}

export function scheduledCardFromRow(row: ScheduleColumns & { card_id: string; version: number }): ScheduledCard {
  return { card_id: row.card_id, schedule: scheduleFromRow(row), version: row.version };
}

export function studyCardFromRow(row: QueueRow): StudyCard {
  // The notes_fields_shape constraint guarantees `fields` matches `kind`.
  const note = { id: row.note_id, kind: row.note_kind, fields: row.fields, tags: row.tags } as unknown as StudyNote;
  return {
    card_id: row.card_id,
    deck_id: row.deck_id,
    ordinal: row.ordinal,
    note,
    queue: row.queue as StudyQueue,
    // the generated type misses that last_review is null for cards never studied
    schedule: scheduleFromRow({ ...row, last_review: row.last_review ?? null }),
    version: row.version,
  };
}

/** Learning and relearning cards come back within the session (steps of minutes). */
export function isLearning(schedule: CardSchedule): boolean {
  return schedule.state === "learning" || schedule.state === "relearning";
}
