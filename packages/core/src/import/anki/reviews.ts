/** Anki's review log as Engram review rows. */
import type { RawReview } from "./collection";
import type { SkipCounter } from "./mapping";
import type { AnkiReview } from "./types";

/**
 * Anki's v1 scheduler had three learning buttons (again, good, easy), logged as ease
 * 1–3 on learn and relearn rows; Anki's own v2 upgrade shifts 2 and 3 up by one, and
 * so does this, so every rating means again/hard/good/easy.
 */
function rating(row: RawReview, schedulerVersion: number): number {
  const learning = row.type === 0 || row.type === 2;
  return schedulerVersion === 1 && learning && (row.ease === 2 || row.ease === 3) ? row.ease + 1 : row.ease;
}

const filteredType = 3;

export function readReviews(
  revlog: RawReview[],
  cardIds: Set<number>,
  schedulerVersion: number,
  skip: SkipCounter,
): AnkiReview[] {
  const reviews: AnkiReview[] = [];
  for (const row of revlog) {
    if (!cardIds.has(row.cid)) {
      skip("review-without-card");
      continue;
    }
    // Manual rescheduling and "set due date" rows carry ease 0: no answer, nothing to learn from.
    if (row.ease < 1 || row.ease > 4) {
      skip("review-without-answer");
      continue;
    }
    // Answers in a filtered deck that doesn't reschedule (cramming, logged with factor 0)
    // left the card's schedule as it was; Anki leaves them out of its FSRS history too.
    if (row.type === filteredType && row.factor === 0) {
      skip("review-cramming");
      continue;
    }
    reviews.push({
      ankiReviewId: row.id,
      ankiCardId: row.cid,
      reviewedAt: new Date(row.id),
      rating: rating(row, schedulerVersion) as AnkiReview["rating"],
      durationMs: row.time,
      type: row.type,
      intervalDays: row.ivl,
      lastIntervalDays: row.lastIvl,
      factor: row.factor,
    });
  }
  return reviews;
}
