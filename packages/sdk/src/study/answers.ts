/**
 * One answer from rating to stored row: the next schedule computed on the
 * device with @engram/core, sent with `record_review`, taken back with
 * `undo_review`, and recomputed when another device answered the card first.
 */
import { type CardSchedule, nextSchedule, type Rating, reviewInputSchema, type Scheduler } from "@engram/core";
import { z } from "zod/mini";
import type { Tables } from "../database.types.js";
import { EngramError } from "../errors.js";
import { run, validate } from "../request.js";
import type { EngramClient } from "../supabase-client.js";
import { type ScheduledCard, type StoredSchedule, scheduledCardFromRow, scheduleToStored } from "./cards.js";

/** An answer ready to send: the rating and the schedule computed from `expected_version`. */
export type ReviewAnswer = {
  client_review_id: string;
  card_id: string;
  rating: Rating;
  duration_ms: number;
  /** ISO 8601. */
  reviewed_at: string;
  expected_version: number;
  next: StoredSchedule;
};

export type AnswerInput = {
  card: ScheduledCard;
  rating: Rating;
  duration_ms: number;
  /** When the card was answered; now by default. */
  reviewed_at?: Date | string;
  /** Reuse it to retry: the server returns the stored result instead of recording twice. A new UUID by default. */
  client_review_id?: string;
};

/**
 * Set when this answer made the card a leech: its lapses reached the deck's
 * leech threshold (or another half of it past that). The card is then marked
 * a leech for this user (`card_states.leech_at`) and, unless the deck only
 * tags leeches, suspended.
 */
export type LeechMark = { lapses: number; suspended: boolean };

/** A stored answer: the card's schedule and version after it (on a retry, the card's current ones). */
export type RecordedReview = ScheduledCard & { client_review_id: string; leech: LeechMark | null };

/** The learning-card look-ahead of the session (Anki's default): such a card counts as due this early. */
export const learnAheadMs = 20 * 60_000;

const versionSchema = z.int("Unknown card version.").check(z.gte(0, "Unknown card version."));

/** An answer that passed validation, with its id and time filled in. */
export type CheckedAnswer = Omit<ReviewAnswer, "expected_version" | "next">;

/** Validates an answer; throws `validation` before anything is sent. */
export function checkAnswer(input: AnswerInput): CheckedAnswer {
  const checked = validate(reviewInputSchema(), {
    card_id: input.card?.card_id,
    client_review_id: input.client_review_id ?? globalThis.crypto.randomUUID(),
    rating: input.rating,
    duration_ms: input.duration_ms,
    reviewed_at: input.reviewed_at ?? new Date(),
  });
  validate(versionSchema, input.card.version);
  return { ...checked, reviewed_at: checked.reviewed_at.toISOString() };
}

/** Validates an answer and computes the card's next schedule from the version it was shown at. */
export function computeAnswer(scheduler: Scheduler, input: AnswerInput): ReviewAnswer {
  const checked = checkAnswer(input);
  const { schedule } = nextSchedule(scheduler, input.card.schedule, checked.rating, new Date(checked.reviewed_at));
  return { ...checked, expected_version: input.card.version, next: scheduleToStored(schedule) };
}

/**
 * Stores an answer. A stale `expected_version` throws `conflict` with the
 * card's current schedule as `detail` (a ScheduledCard).
 */
export async function sendAnswer(supabase: EngramClient, answer: ReviewAnswer): Promise<RecordedReview> {
  const { next } = answer;
  try {
    const row = await run(
      supabase.rpc("record_review", {
        p_card_id: answer.card_id,
        p_client_review_id: answer.client_review_id,
        p_rating: answer.rating,
        p_reviewed_at: answer.reviewed_at,
        p_duration_ms: answer.duration_ms,
        p_expected_version: answer.expected_version,
        p_state: next.state,
        p_due: next.due,
        p_stability: next.stability,
        p_difficulty: next.difficulty,
        p_elapsed_days: next.elapsed_days,
        p_scheduled_days: next.scheduled_days,
        p_learning_steps: next.learning_steps,
        p_reps: next.reps,
        p_lapses: next.lapses,
      }),
    );
    return { ...scheduledCardFromRow(row), client_review_id: answer.client_review_id, leech: leechMarkOf(row) };
  } catch (error) {
    throw withCurrentSchedule(error);
  }
}

/** The answer that marks a leech stamps leech_at with its own time, which is then the card's last review. */
function leechMarkOf(row: Pick<Tables<"card_states">, "leech_at" | "last_review" | "lapses" | "suspended">) {
  if (row.leech_at === null || row.last_review === null) return null;
  if (new Date(row.leech_at).getTime() !== new Date(row.last_review).getTime()) return null;
  return { lapses: row.lapses, suspended: row.suspended };
}

/** Takes back a stored answer; only a card's latest answer can be undone (`conflict` otherwise). */
export async function sendUndo(supabase: EngramClient, clientReviewId: string): Promise<ScheduledCard> {
  const id = validate(z.guid("The review id must be a UUID."), clientReviewId);
  try {
    return scheduledCardFromRow(await run(supabase.rpc("undo_review", { p_client_review_id: id })));
  } catch (error) {
    throw withCurrentSchedule(error);
  }
}

/**
 * After a refusal as stale: the answer recomputed on the server's schedule if
 * the card was still due when it was answered there, or null to drop it (the
 * other device's answer already moved the card past this one).
 */
export function rebaseAnswer(scheduler: Scheduler, answer: ReviewAnswer, current: ScheduledCard): ReviewAnswer | null {
  const reviewedAt = new Date(answer.reviewed_at);
  if (!wasDue(current.schedule, reviewedAt)) return null;
  const { schedule } = nextSchedule(scheduler, current.schedule, answer.rating, reviewedAt);
  return { ...answer, expected_version: current.version, next: scheduleToStored(schedule) };
}

function wasDue(schedule: CardSchedule, at: Date): boolean {
  const answeredLater = schedule.last_review !== null && schedule.last_review.getTime() >= at.getTime();
  if (answeredLater) return false;
  return schedule.state === "new" || schedule.due.getTime() <= at.getTime() + learnAheadMs;
}

/** PT409 carries the card_states row as JSON; hand it out as a ScheduledCard. */
function withCurrentSchedule(error: unknown): unknown {
  if (!(error instanceof EngramError) || error.code !== "conflict" || !isCardStateRow(error.detail)) return error;
  return new EngramError("conflict", error.message, { detail: scheduledCardFromRow(error.detail), cause: error });
}

function isCardStateRow(value: unknown): value is Parameters<typeof scheduledCardFromRow>[0] {
  return (
    typeof value === "object" &&
    value !== null &&
    "card_id" in value &&
    "version" in value &&
    "due" in value &&
    "state" in value
  );
}

/** The signed-in user's current schedule of a card (RLS shows only their own rows). */
export async function readScheduledCard(supabase: EngramClient, cardId: string): Promise<ScheduledCard | null> {
  const rows = await run(supabase.from("card_states").select("*").eq("card_id", cardId));
  return rows[0] ? scheduledCardFromRow(rows[0]) : null;
}
