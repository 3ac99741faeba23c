import { default_w } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { evaluateParameters } from "./evaluate";
import type { TrainingLog } from "./items";
import { simulateLogs } from "./simulate-test-support";

const logs = simulateLogs({ cards: 400, reviewsPerCard: 8, seed: 7 });

describe("evaluateParameters", () => {
  it("scores the model the outcomes were drawn from above absurd parameters", () => {
    // Every first stability at 100 days: recall predicted near certain, whatever the answer.
    const absurd = default_w.map((w, i) => (i < 4 ? 100 : w));
    const truth = evaluateParameters(logs, null);
    const wrong = evaluateParameters(logs, absurd);
    expect(truth.reviews).toBe(400 * 7);
    expect(truth.logLoss).toBeLessThan(wrong.logLoss);
    expect(truth.rmseBins).toBeLessThan(wrong.rmseBins);
    expect(truth.rmseBins).toBeLessThan(0.05);
  });

  it("predicts only answers given on a later study day than the one before", () => {
    const sameDay: TrainingLog[] = [
      { cardId: "a", rating: 3, reviewedAt: new Date("2024-05-01T10:00:00Z"), state: "new" },
      { cardId: "a", rating: 3, reviewedAt: new Date("2024-05-01T10:10:00Z"), state: "learning" },
      { cardId: "a", rating: 1, reviewedAt: new Date("2024-05-04T10:10:00Z"), state: "review" },
    ];
    const result = evaluateParameters(sameDay, null);
    expect(result.reviews).toBe(1);
    expect(result.logLoss).toBeGreaterThan(0);
  });

  it("refuses parameters that are not 21 finite numbers", () => {
    expect(() => evaluateParameters(logs, [1, 2, 3])).toThrow(RangeError);
    expect(() =>
      evaluateParameters(
        logs,
        default_w.map((w, i) => (i === 5 ? Number.NaN : w)),
      ),
    ).toThrow(RangeError);
  });
});
