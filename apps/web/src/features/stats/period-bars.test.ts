import { describe, expect, it } from "vitest";
import { periodBars } from "./period-bars.js";
import type { ReviewStats } from "./stats-types.js";

const answers = (date: string, review: number, duration_ms = 1000) => ({
  date,
  new: 0,
  learning: 0,
  relearning: 0,
  review,
  duration_ms,
});
const stats = (days: number, per_day: ReviewStats["per_day"]): ReviewStats => ({
  today: "2026-03-10",
  days,
  per_day,
  retention: [],
  buttons: { learning: [0, 0, 0, 0], young: [0, 0, 0, 0], mature: [0, 0, 0, 0] },
});

describe("the per-day charts' bars", () => {
  it("are the period's days up to a year, empty days as zeros", () => {
    const { unit, bars } = periodBars(stats(30, [answers("2026-03-09", 4)]));
    expect(unit).toBe("day");
    expect(bars).toHaveLength(30);
    expect(bars[0]).toEqual(answers("2026-02-09", 0, 0));
    expect(bars[28]).toEqual(answers("2026-03-09", 4));
  });

  it("are months beyond a year, each the sum of its days, from the first answer's month to this one", () => {
    const { unit, bars } = periodBars(
      stats(800, [
        answers("2024-01-01", 1),
        answers("2025-06-02", 2),
        answers("2025-06-30", 3, 500),
        answers("2026-03-10", 1),
      ]),
    );
    expect(unit).toBe("month");
    // 800 days ending 2026-03-10 start on 2024-01-01.
    expect(bars[0]).toEqual(answers("2024-01-01", 1));
    expect(bars.at(-1)).toEqual(answers("2026-03-01", 1));
    expect(bars).toHaveLength(27);
    expect(bars.find((bar) => bar.date === "2025-06-01")).toEqual(answers("2025-06-01", 5, 1500));
    expect(bars.reduce((sum, bar) => sum + bar.review, 0)).toBe(7);
  });
});
