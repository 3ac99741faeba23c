/** Studying: today's queue, answers recorded and undone, and the offline-safe review session. */
import type { Scheduler } from "@engram/core";
import type { EngramClient } from "../supabase-client.js";
import { type AnswerInput, checkAnswer, computeAnswer, type RecordedReview, sendAnswer, sendUndo } from "./answers.js";
import type { ScheduledCard, StudyCard } from "./cards.js";
import { fetchQueue, loadScheduler, type QueueOptions } from "./queue.js";
import { openSession, type ReviewSession, type ReviewSessionOptions } from "./session.js";

export function createStudy(supabase: EngramClient) {
  return {
    /** Today's cards in study order (learning, reviews, new) within the daily limits; `now` for another moment. */
    queue(options: QueueOptions = {}): Promise<StudyCard[]> {
      return fetchQueue(supabase, options);
    },

    /** The FSRS scheduler with the user's desired retention and trained parameters. */
    scheduler(): Promise<Scheduler> {
      return loadScheduler(supabase);
    },

    /**
     * Records one answer: computes the card's next schedule from `card.schedule`
     * and sends it with the version the card was read at. Retrying with the same
     * `client_review_id` returns the stored result instead of a second answer.
     * Throws `conflict` (detail: the card's current ScheduledCard) when another
     * device answered the card since it was read.
     */
    async recordReview(input: AnswerInput, options: { scheduler?: Scheduler } = {}): Promise<RecordedReview> {
      checkAnswer(input);
      const scheduler = options.scheduler ?? (await loadScheduler(supabase));
      return sendAnswer(supabase, computeAnswer(scheduler, input));
    },

    /** Takes back a stored answer (only a card's latest), restoring the schedule from before it. */
    undo(clientReviewId: string): Promise<ScheduledCard> {
      return sendUndo(supabase, clientReviewId);
    },

    /** Opens a review session (see ReviewSession); answers are saved in the background and survive going offline. */
    session(options: ReviewSessionOptions = {}): Promise<ReviewSession> {
      return openSession(supabase, options);
    },
  };
}

export type Study = ReturnType<typeof createStudy>;
export type { AnswerInput, LeechMark, RecordedReview, ReviewAnswer } from "./answers.js";
export { learnAheadMs } from "./answers.js";
export type { ScheduledCard, StoredSchedule, StudyCard, StudyNote, StudyQueue } from "./cards.js";
export type { OutboxEvent, RetryOptions } from "./outbox.js";
export type { QueueOptions } from "./queue.js";
export type {
  AnsweredCard,
  CurrentCard,
  ReviewSession,
  ReviewSessionEvent,
  ReviewSessionOptions,
  ReviewSessionState,
  SessionCounts,
} from "./session.js";
export type { PendingAnswer, PendingEntry, PendingUndo, ReviewStore } from "./store.js";
export { indexedDbReviewStore, memoryReviewStore } from "./store.js";
