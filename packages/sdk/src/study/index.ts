/** Studying: today's queue, answers recorded and undone, and the offline-safe review session. */
import type { Scheduler } from "@engram/core";
import type { EngramClient } from "../supabase-client.js";
import { type AnswerInput, checkAnswer, computeAnswer, type RecordedReview, sendAnswer, sendUndo } from "./answers.js";
import type { ScheduledCard, StudyCard } from "./cards.js";
import { type CustomStudyCards, type CustomStudyOptions, extendToday, fetchCustomCards } from "./custom.js";
import { createScheduleFollowing } from "./follow.js";
import { fetchQueue, loadScheduler, type QueueOptions } from "./queue.js";
import { openSession, type ReviewSession, type ReviewSessionOptions } from "./session.js";

export function createStudy(supabase: EngramClient) {
  return {
    /** Today's cards in study order (learning, reviews, new) within the daily limits; `now` for another moment. */
    queue(options: QueueOptions = {}): Promise<StudyCard[]> {
      return fetchQueue(supabase, options);
    },

    /**
     * Cards outside today's schedule, for a custom session: due within the next
     * days (`ahead`), answered Again lately (`forgotten`) or found by a search
     * in Anki's syntax (`search`; one that does not parse fails with
     * `search/syntax`). At most `limit` (1000) cards; `matched` tells how many matched.
     */
    custom(options: CustomStudyOptions): Promise<CustomStudyCards> {
      return fetchCustomCards(supabase, options);
    },

    /** Adds `extraNew` new cards to the deck's limit for today only; returns today's extra for the deck. */
    extendToday(deckId: string, extraNew: number): Promise<number> {
      return extendToday(supabase, deckId, extraNew);
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

    ...createScheduleFollowing(supabase),
  };
}

export type Study = ReturnType<typeof createStudy>;
export type { AnswerInput, LeechMark, RecordedReview, ReviewAnswer } from "./answers.js";
export { learnAheadMs } from "./answers.js";
export type { ScheduledCard, StoredSchedule, StudyCard, StudyNote, StudyQueue } from "./cards.js";
export type { CustomStudyCards, CustomStudyMode, CustomStudyOptions } from "./custom.js";
export { customStudyLimit } from "./custom.js";
export type { OutboxEvent, RetryOptions } from "./outbox.js";
export type { QueueOptions } from "./queue.js";
export type {
  AnsweredCard,
  CurrentCard,
  HeldSchedule,
  LeftElsewhere,
  LeftElsewhereReason,
  ReviewSession,
  ReviewSessionEvent,
  ReviewSessionOptions,
  ReviewSessionState,
  SessionCounts,
} from "./session.js";
export type { PendingAnswer, PendingEntry, PendingUndo, ReviewStore } from "./store.js";
export { indexedDbReviewStore, memoryReviewStore } from "./store.js";
