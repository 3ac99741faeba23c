/**
 * The workload simulator's inputs, gathered from the caller's cards, profile
 * and answer times, and the simulation itself (@engram/core/simulator, which
 * runs here: a few tenths of a second for a year of 10,000 cards).
 */
import {
  type AnswerCosts,
  defaultAnswerCosts,
  type Recommendation,
  recommendRetention,
  type SimulationInput,
  simulateWorkload,
} from "@engram/core/simulator";
import { z } from "zod/mini";
import { EngramError } from "./errors.js";
import { run, validate } from "./request.js";
import { currentUserId } from "./session.js";
import type { EngramClient } from "./supabase-client.js";

export type { Recommendation, SimulatedDay, Simulation, SimulationInput } from "@engram/core/simulator";
export { recommendRetention, simulateWorkload };

export type Workload = {
  /** What the simulation starts from: the user's cards, limits, parameters and answer costs. */
  input: SimulationInput;
  /** The desired retention in the profile. */
  desiredRetention: number;
  /** The retention with the least study time per card remembered, and what each tried costs; null without cards. */
  recommendation: Recommendation | null;
};

const workloadCardsSchema = z.object({
  new: z.int().check(z.gte(0)),
  cards: z.array(z.tuple([z.number(), z.number(), z.int(), z.int()])),
});

const answerTimeSchema = z.object({
  state: z.enum(["new", "learning", "review", "relearning"]),
  rating: z.int().check(z.gte(1), z.lte(4)),
  answers: z.coerce.number(),
  seconds: z.number(),
});
type AnswerTime = z.infer<typeof answerTimeSchema>;

/** Fewer answers than this for a state and rating, and Anki's default time stands in for the user's. */
const minimumAnswers = 10;
/** Fewer first answers (or recalled reviews) than this, and Anki's default rating mix stands in. */
const minimumForRatings = 100;

type Four = [number, number, number, number];

/** Seconds per answer by state group and rating, from the user's own history where there is enough of it. */
export function answerCostsOf(times: readonly AnswerTime[]): AnswerCosts {
  const groups = { learning: ["new", "learning"], review: ["review"], relearning: ["relearning"] } as const;
  const costs = {} as Record<keyof AnswerCosts, Four>;
  for (const [group, states] of Object.entries(groups) as [keyof AnswerCosts, readonly string[]][]) {
    costs[group] = defaultAnswerCosts[group].map((fallback, i) => {
      const rows = times.filter((row) => states.includes(row.state) && row.rating === i + 1);
      const answers = rows.reduce((sum, row) => sum + row.answers, 0);
      const seconds = rows.reduce((sum, row) => sum + row.seconds, 0);
      return answers >= minimumAnswers ? seconds / answers : fallback;
    }) as Four;
  }
  return costs;
}

function ratingMix(times: readonly AnswerTime[], state: AnswerTime["state"], ratings: number[]): number[] | undefined {
  const counts = ratings.map((rating) =>
    times.filter((row) => row.state === state && row.rating === rating).reduce((sum, row) => sum + row.answers, 0),
  );
  const total = counts.reduce((sum, count) => sum + count, 0);
  return total >= minimumForRatings ? counts.map((count) => count / total) : undefined;
}

type DeckLimits = { new_per_day: number | null; reviews_per_day: number | null };

function sum(memberships: readonly { decks: DeckLimits }[], limit: (deck: DeckLimits) => number): number {
  return memberships.reduce((total, { decks }) => total + limit(decks), 0);
}

const optionsSchema = z.object({ now: z.optional(z.date({ error: "Now must be a date." })) });

/** The caller's collection as the simulator takes it, with the recommended retention for it. */
export async function workloadOf(
  supabase: EngramClient,
  options: z.input<typeof optionsSchema> = {},
): Promise<Workload> {
  const { now } = validate(optionsSchema, options);
  const userId = await currentUserId(supabase);
  const [cardsJson, times, profiles, memberships] = await Promise.all([
    run(supabase.rpc("workload_cards", now ? { p_now: now.toISOString() } : {})),
    run(supabase.rpc("answer_times")),
    run(
      supabase.from("profiles").select("desired_retention, fsrs_params, new_per_day, reviews_per_day").eq("id", userId),
    ),
    run(
      supabase
        .from("deck_members")
        .select("decks!inner(new_per_day, reviews_per_day)")
        .eq("user_id", userId)
        .is("decks.archived_at", null),
    ),
  ]);
  const profile = profiles[0];
  if (!profile) throw new EngramError("not-found", "Your profile could not be read.");
  const parsedCards = workloadCardsSchema.safeParse(cardsJson);
  const parsedTimes = z.array(answerTimeSchema).safeParse(times);
  if (!parsedCards.success || !parsedTimes.success) {
    throw new EngramError("internal", "The server's workload figures are not in the expected shape.", {
      cause: parsedCards.error ?? parsedTimes.error,
    });
  }
  const firstRatings = ratingMix(parsedTimes.data, "new", [1, 2, 3, 4]);
  const recallRatings = ratingMix(parsedTimes.data, "review", [2, 3, 4]);
  const input: SimulationInput = {
    cards: parsedCards.data.cards.map(([stability, difficulty, dueDay, lastDay]) => ({
      stability,
      difficulty,
      dueDay,
      lastDay,
    })),
    newCards: parsedCards.data.new,
    // Every deck has its own daily allowance (its limits, or the profile's), so a day gives their sum.
    newPerDay: sum(memberships, (deck) => deck.new_per_day ?? profile.new_per_day),
    reviewsPerDay: sum(memberships, (deck) => deck.reviews_per_day ?? profile.reviews_per_day),
    parameters: profile.fsrs_params,
    costs: answerCostsOf(parsedTimes.data),
    ...(firstRatings ? { firstRatings: firstRatings as Four } : {}),
    ...(recallRatings ? { recallRatings: recallRatings as [number, number, number] } : {}),
  };
  const empty = input.cards.length === 0 && input.newCards === 0;
  return {
    input,
    desiredRetention: profile.desired_retention,
    recommendation: empty ? null : recommendRetention(input),
  };
}
