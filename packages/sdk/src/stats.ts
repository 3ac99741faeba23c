/** Study figures for the dashboard and the stats screen, counted by the user's own study day. */
import { z } from "zod/mini";
import type { Database } from "./database.types.js";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";
import type { Workload } from "./workload.js";

const count = z.int().check(z.gte(0));
/** A study day as `YYYY-MM-DD`, in the user's timezone and day start. */
const day = z.iso.date();

/** The shape `user_stats` returns (supabase/migrations/…_stats_rpcs.sql); parsed so a drift fails loudly. */
export const userStatsSchema = z.object({
  today: day,
  /** Days in a row with at least one answer, ending today (or yesterday, if nothing yet today). */
  streak: count,
  reviewed_today: count,
  new_today: count,
  due_today: count,
  /** Answers per day over the last 365 days; days without answers are left out. */
  heatmap: z.array(z.object({ date: day, reviews: count })),
  /** Answers per day and rating over the last 30 days; days without answers are left out. */
  answers_per_day: z.array(z.object({ date: day, again: count, hard: count, good: count, easy: count })),
  /** True retention over 30 days: answers to cards in review state that were not "again"; rate null without any. */
  retention: z.object({ reviews: count, passed: count, rate: z.nullable(z.number().check(z.gte(0), z.lte(1))) }),
  /** Cards coming due on each of the next 30 days (overdue ones count today). */
  forecast: z.array(z.object({ date: day, due: count })),
  card_counts: z.object({
    new: count,
    learning: count,
    review: count,
    relearning: count,
    suspended: count,
  }),
});
export type UserStats = z.infer<typeof userStatsSchema>;
const passedFailed = z.object({ passed: count, failed: count });
const buttonCounts = z.tuple([count, count, count, count]);
/** The periods true retention is reported for: today, yesterday, the last 7, 30 and 365 study days. */
export const retentionPeriods = ["today", "yesterday", "week", "month", "year"] as const;
/** The periods `stats.reviews` covers: study days ending today, or all of them since the first answer. */
export const reviewStatsDays = [30, 90, 365, "all"] as const;
export type ReviewStatsDays = (typeof reviewStatsDays)[number];

/** The shape `review_stats` returns (supabase/migrations/…_review_rollup.sql); parsed so a drift fails loudly. */
export const reviewStatsSchema = z.object({
  today: day,
  /** The period's length in study days (for all time, from the first answer's day to today). */
  days: z.int().check(z.gte(1)),
  /** Answers per study day in the period, by the card's state before the answer; days without answers left out. */
  per_day: z.array(
    z.object({
      date: day,
      new: count,
      learning: count,
      review: count,
      relearning: count,
      duration_ms: count,
    }),
  ),
  /** True retention as Anki reports it: answers to cards in review state; "again" fails. Young = interval before the answer < 21 days, mature ≥ 21. */
  retention: z.array(z.object({ period: z.enum(retentionPeriods), young: passedFailed, mature: passedFailed })),
  /** Answer-button counts over the period, [again, hard, good, easy]: learning (new, learning or relearning before the answer), young and mature review cards. */
  buttons: z.object({ learning: buttonCounts, young: buttonCounts, mature: buttonCounts }),
});
export type ReviewStats = z.infer<typeof reviewStatsSchema>;
export type RetentionPeriod = (typeof retentionPeriods)[number];

/** One deck's row for the dashboard: contents, the user's counts by state, due today and new cards allowed today. */
export type DeckStats = Database["public"]["Functions"]["deck_stats"]["Returns"][number];

const userOptionsSchema = z.object({
  deckId: z.optional(z.guid("Unknown deck.")),
  now: z.optional(z.date({ error: "Now must be a date." })),
});
const decksOptionsSchema = z.pick(userOptionsSchema, { now: true });
const reviewsOptionsSchema = z.extend(userOptionsSchema, {
  days: z.optional(z.literal(reviewStatsDays, { error: "Days must be 30, 90, 365 or all." })),
});
export type ReviewStatsOptions = z.input<typeof reviewsOptionsSchema>;

function parseFigures<T>(schema: z.ZodMiniType<T>, json: unknown): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new EngramError("internal", "The server answered with unexpected statistics.", { cause: parsed.error });
  }
  return parsed.data;
}

export function createStats(supabase: EngramClient) {
  return {
    /** The user's figures over all their decks or one (`not-found` for a deck they are not in). */
    async user(options: z.input<typeof userOptionsSchema> = {}): Promise<UserStats> {
      const { deckId, now } = validate(userOptionsSchema, options);
      await currentUserId(supabase);
      const json = await run(
        supabase.rpc("user_stats", {
          ...(deckId ? { p_deck_id: deckId } : {}),
          ...(now ? { p_now: now.toISOString() } : {}),
        }),
      );
      return parseFigures(userStatsSchema, json);
    },

    /**
     * Answer figures over the last 30, 90 or 365 study days (default 30) or all
     * of them since the first answer (`"all"`), for all the user's decks or one
     * (`not-found` for a deck they are not in): answers per day by state, true
     * retention per period, answer buttons.
     */
    async reviews(options: ReviewStatsOptions = {}): Promise<ReviewStats> {
      const { deckId, days, now } = validate(reviewsOptionsSchema, options);
      await currentUserId(supabase);
      const json = await run(
        supabase.rpc("review_stats", {
          ...(deckId ? { p_deck_id: deckId } : {}),
          // All time is `null` days to the database, which the generated argument type does not allow.
          ...(days ? { p_days: days === "all" ? (null as unknown as number) : days } : {}),
          ...(now ? { p_now: now.toISOString() } : {}),
        }),
      );
      return parseFigures(reviewStatsSchema, json);
    },

    /**
     * What studying will cost: the user's cards, limits, parameters and answer
     * times as the workload simulator takes them (`simulateWorkload(input,
     * retention)` gives a year for any retention), and the retention from 0.70
     * to 0.95 with the least study time per card remembered.
     */
    async workload(options: { now?: Date } = {}): Promise<Workload> {
      // The simulator and ts-fsrs load with the first call, not with every screen that holds the SDK.
      const { workloadOf } = await import("./workload.js");
      return workloadOf(supabase, options);
    },

    /** One row per deck the user belongs to (archived decks left out), by name. */
    async decks(options: z.input<typeof decksOptionsSchema> = {}): Promise<DeckStats[]> {
      const { now } = validate(decksOptionsSchema, options);
      await currentUserId(supabase);
      return run(supabase.rpc("deck_stats", now ? { p_now: now.toISOString() } : {}));
    },
  };
}
