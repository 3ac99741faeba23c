/** Study figures for the dashboard and the stats screen, counted by the user's own study day. */
import { z } from "zod";
import type { EngramClient } from "./client.js";
import type { Database } from "./database.types.js";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";

const count = z.number().int().nonnegative();
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
  retention: z.object({ reviews: count, passed: count, rate: z.number().min(0).max(1).nullable() }),
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
/** One deck's row for the dashboard: contents, the user's counts by state, due today and new cards allowed today. */
export type DeckStats = Database["public"]["Functions"]["deck_stats"]["Returns"][number];

const userOptionsSchema = z.object({
  deckId: z.guid("Unknown deck.").optional(),
  now: z.date({ error: "Now must be a date." }).optional(),
});
const decksOptionsSchema = userOptionsSchema.pick({ now: true });

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
      const parsed = userStatsSchema.safeParse(json);
      if (!parsed.success) {
        throw new EngramError("internal", "The server answered with unexpected statistics.", { cause: parsed.error });
      }
      return parsed.data;
    },

    /** One row per deck the user belongs to (archived decks left out), by name. */
    async decks(options: z.input<typeof decksOptionsSchema> = {}): Promise<DeckStats[]> {
      const { now } = validate(decksOptionsSchema, options);
      await currentUserId(supabase);
      return run(supabase.rpc("deck_stats", now ? { p_now: now.toISOString() } : {}));
    },
  };
}
