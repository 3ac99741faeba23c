/** Anki's review log as Engram review rows. */
import type { RawReview } from "./collection";
import type { SkipCounter } from "./mapping";
import type { AnkiReview } from "./types";

export function readReviews(revlog: RawReview[], cardIds: Set<number>, skip: SkipCounter): AnkiReview[] {
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
    reviews.push({
      ankiCardId: row.cid,
      reviewedAt: new Date(row.id),
      rating: row.ease as AnkiReview["rating"],
      durationMs: row.time,
      type: row.type,
      intervalDays: row.ivl,
      lastIntervalDays: row.lastIvl,
      factor: row.factor,
    });
  }
  return reviews;
}
