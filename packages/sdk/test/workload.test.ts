/**
 * The workload simulator's inputs through the real stack: the user's own
 * cards, limits and answer times, and a year simulated from them.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defaultAnswerCosts } from "@engram/core/simulator";
import { describe, expect, it } from "vitest";
import { simulateWorkload } from "../src/index.js";
import { importDeck } from "../src/transfer/index.js";
import { adminClient, signedIn } from "./support/engram.js";

const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/anki/", import.meta.url));
const fixture = (name: string) => ({ name, data: new Uint8Array(readFileSync(`${fixtures}${name}`)) });
const admin = adminClient();

async function count(userId: string, filter: "studied" | "new"): Promise<number> {
  let query = admin
    .from("card_states")
    .select("card_id", { count: "exact", head: true })
    .eq("user_id", userId)
    .eq("suspended", false);
  query = filter === "new" ? query.eq("state", "new") : query.neq("state", "new").gt("stability", 0);
  const { count: rows, error } = await query;
  if (error) throw error;
  return rows ?? 0;
}

describe("stats.workload", () => {
  it("starts from the user's own cards, limits and answer times, and names a retention in range", async () => {
    const user = await signedIn("workload");
    await importDeck(user.engram, fixture("collection.apkg"), {
      target: { newDeckName: "History" },
      includeSchedule: true,
      // One deck, so the sum below is of two allowances (a deck tree gives each subdeck its own).
      deckTree: false,
    });
    await user.engram.profile.update({ new_per_day: 7, reviews_per_day: 55, desired_retention: 0.87 });
    // Each deck has its own allowance: the imported one the profile's, this one its own.
    await user.engram.decks.create({ name: "Limited", new_per_day: 3, reviews_per_day: 40 });
    const workload = await user.engram.stats.workload();

    expect(workload.input.cards).toHaveLength(await count(user.account.id, "studied"));
    expect(workload.input.newCards).toBe(await count(user.account.id, "new"));
    expect(workload.input).toMatchObject({ newPerDay: 7 + 3, reviewsPerDay: 55 + 40, parameters: null });
    expect(workload.desiredRetention).toBe(0.87);
    for (const card of workload.input.cards) {
      expect(card.lastDay).toBeLessThanOrEqual(0);
      expect(card.stability).toBeGreaterThan(0);
    }
    // The imported history has enough reviews for its own review times.
    expect(workload.input.costs?.review).not.toEqual(defaultAnswerCosts.review);
    const recommendation = workload.recommendation;
    expect(recommendation?.retention).toBeGreaterThanOrEqual(0.7);
    expect(recommendation?.retention).toBeLessThanOrEqual(0.95);

    const year = simulateWorkload(workload.input, 0.87);
    expect(year.days).toHaveLength(365);
    expect(Math.max(...year.days.map((day) => day.reviews))).toBeLessThanOrEqual(95);
    expect(Math.max(...year.days.map((day) => day.learned))).toBeLessThanOrEqual(10);
  });

  it("has nothing to recommend for someone without cards", async () => {
    const user = await signedIn("workload-empty");
    const workload = await user.engram.stats.workload();
    expect(workload.input).toMatchObject({ cards: [], newCards: 0 });
    expect(workload.input.costs).toEqual(defaultAnswerCosts);
    expect(workload.recommendation).toBeNull();
  });
});
