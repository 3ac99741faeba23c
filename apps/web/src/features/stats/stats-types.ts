import type { Engram, UserStats } from "@engram/sdk";

export type { UserStats };
/** What `engram.stats.reviews()` answers: answers per day by state, true retention, answer buttons. */
export type ReviewStats = Awaited<ReturnType<Engram["stats"]["reviews"]>>;
export type DayAnswers = ReviewStats["per_day"][number];
export type RetentionRow = ReviewStats["retention"][number];
