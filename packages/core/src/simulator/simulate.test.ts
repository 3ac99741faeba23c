import { describe, expect, it } from "vitest";
import { recommendationRange, recommendRetention, type SimulationInput, simulateWorkload } from "./simulate";

/** 1,000 studied cards due over the next month, last answered a week to a month before, and 500 new ones. */
function collection(seed = 7): SimulationInput {
  let a = seed;
  const random = () => {
    a = (a * 16807) % 2147483647;
    return a / 2147483647;
  };
  const cards = Array.from({ length: 1000 }, () => {
    const stability = 1 + random() * 60;
    const lastDay = -Math.floor(7 + random() * 23);
    return { stability, difficulty: 2 + random() * 7, lastDay, dueDay: lastDay + Math.round(stability) };
  });
  return { cards, newCards: 500, newPerDay: 20, reviewsPerDay: 200, parameters: null };
}

const total = (days: { reviews: number }[]) => days.reduce((sum, day) => sum + day.reviews, 0);

describe("simulateWorkload", () => {
  it("gives the same year for the same seed and another for another seed", () => {
    const input = collection();
    expect(simulateWorkload(input, 0.9)).toEqual(simulateWorkload(input, 0.9));
    expect(simulateWorkload({ ...input, seed: 1 }, 0.9).days).not.toEqual(simulateWorkload(input, 0.9).days);
  });

  it("has fewer reviews as the desired retention drops", () => {
    const input = collection();
    const reviews = [0.95, 0.9, 0.85, 0.8, 0.75, 0.7].map((retention) =>
      total(simulateWorkload(input, retention).days),
    );
    for (let i = 1; i < reviews.length; i++) expect(reviews[i]).toBeLessThan(reviews[i - 1] as number);
  });

  it("can count the cards remembered on the last day only, with the same year otherwise", () => {
    const input = collection();
    const full = simulateWorkload(input, 0.9);
    const light = simulateWorkload(input, 0.9, { memorisedEveryDay: false });
    expect(light.memorised).toBe(full.memorised);
    expect(light.days.map(({ memorised, ...day }) => day)).toEqual(full.days.map(({ memorised, ...day }) => day));
    expect(light.days[100]?.memorised).toBe(0);
    expect(full.days[100]?.memorised).toBeGreaterThan(0);
  });

  it("introduces new cards at the daily limit until none are left, and keeps reviews within theirs", () => {
    const input = { ...collection(), reviewsPerDay: 30 };
    const { days } = simulateWorkload(input, 0.9);
    expect(days).toHaveLength(365);
    expect(days.slice(0, 25).every((day) => day.learned === 20)).toBe(true);
    expect(days[25]?.learned).toBe(0);
    expect(days.reduce((sum, day) => sum + day.learned, 0)).toBe(500);
    expect(Math.max(...days.map((day) => day.reviews))).toBe(30);
  });

  it("counts time from the answer costs and cards remembered as the sum of recall probabilities", () => {
    const cards = [{ stability: 10, difficulty: 5, lastDay: -10, dueDay: 0 }];
    const costs = { learning: [1, 1, 1, 1], review: [60, 60, 60, 60], relearning: [0, 0, 0, 0] } as const;
    const { days } = simulateWorkload(
      { cards, newCards: 0, newPerDay: 0, reviewsPerDay: 10, parameters: null, costs, days: 2 },
      0.9,
    );
    expect(days[0]).toMatchObject({ reviews: 1, learned: 0, minutes: 1 });
    // Just reviewed: remembered almost surely on the day of the review.
    expect(days[0]?.memorised).toBeGreaterThan(0.99);
    expect(days[0]?.memorised).toBeLessThanOrEqual(1);
  });
});

describe("recommendRetention", () => {
  it("names a retention in range that costs less per card remembered than its neighbours", () => {
    const { retention, costs } = recommendRetention(collection());
    expect(retention).toBeGreaterThanOrEqual(recommendationRange.min);
    expect(retention).toBeLessThanOrEqual(recommendationRange.max);
    const costOf = (hundredths: number) => costs.find((cost) => Math.round(cost.retention * 100) === hundredths);
    const at = Math.round(retention * 100);
    const best = costOf(at)?.minutesPerCard as number;
    // Its neighbours 0.01 either side were simulated too (unless out of range), and cost more.
    for (const neighbour of [at - 1, at + 1].filter((h) => h >= 70 && h <= 95)) {
      expect(best).toBeLessThan(costOf(neighbour)?.minutesPerCard as number);
    }
    expect(Math.min(...costs.map((cost) => cost.minutesPerCard))).toBe(best);
    // The ends of the range cost clearly more than the best: the curve has a minimum worth naming.
    expect(costs[costs.length - 1]?.minutesPerCard).toBeGreaterThan(best);
  });

  it("is the same on every run", () => {
    expect(recommendRetention(collection())).toEqual(recommendRetention(collection()));
  });
});
