import { describe, expect, it } from "vitest";
import type { RawReview } from "./collection";
import { readReviews } from "./reviews";

const row = (id: number, type: number, ease: number, factor = 2500): RawReview => ({
  id,
  cid: 1,
  ease,
  ivl: 1,
  lastIvl: 0,
  factor,
  time: 3000,
  type,
});

function read(rows: RawReview[], schedulerVersion = 2) {
  const skipped = new Map<string, number>();
  const reviews = readReviews(rows, new Set([1]), schedulerVersion, (reason, count = 1) =>
    skipped.set(reason, (skipped.get(reason) ?? 0) + count),
  );
  return { reviews, skipped: Object.fromEntries(skipped) };
}

describe("readReviews", () => {
  it("leaves out crammed answers (filtered deck, factor 0) but keeps rescheduling filtered answers", () => {
    const { reviews, skipped } = read([row(1, 0, 3), row(2, 3, 3, 0), row(3, 3, 1, 2500), row(4, 1, 3)]);
    expect(reviews.map((r) => r.ankiReviewId)).toEqual([1, 3, 4]);
    expect(skipped).toEqual({ "review-cramming": 1 });
  });

  it("leaves out rows without an answer (rescheduled or reset by hand)", () => {
    const { reviews, skipped } = read([row(1, 0, 3), row(2, 4, 0, 0), row(3, 5, 0)]);
    expect(reviews.map((r) => r.ankiReviewId)).toEqual([1]);
    expect(skipped).toEqual({ "review-without-answer": 2 });
  });

  it("shifts the v1 scheduler's learning answers to v2's four buttons, as Anki's upgrade does", () => {
    const { reviews } = read([row(1, 0, 2), row(2, 0, 3), row(3, 2, 3), row(4, 1, 2), row(5, 0, 1)], 1);
    expect(reviews.map((r) => r.rating)).toEqual([3, 4, 4, 2, 1]);
  });
});
