import { default_w, FSRSAlgorithm, generatorParameters } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { fsrsModel } from "./model";

const trained = default_w.map((w, i) => (i === 20 ? 0.3 : w * (1 + ((i % 5) - 2) / 20)));

describe("fsrsModel", () => {
  for (const [name, w] of [
    ["FSRS-6's defaults", [...default_w]],
    ["trained weights", trained],
  ] as const) {
    it(`computes what ts-fsrs computes, with ${name}`, () => {
      const model = fsrsModel(w, 0.85);
      const fsrs = new FSRSAlgorithm(generatorParameters({ w: [...w], request_retention: 0.85 }));
      for (const rating of [1, 2, 3, 4]) {
        const first = fsrs.next_state(null, 0, rating);
        expect(model.first(rating).stability).toBeCloseTo(first.stability, 6);
        expect(model.first(rating).difficulty).toBeCloseTo(first.difficulty, 6);
        for (const stability of [0.5, 3, 40, 900]) {
          for (const difficulty of [1.5, 5, 9.5]) {
            for (const elapsed of [0, 1, 10, 200]) {
              const expected = fsrs.next_state({ stability, difficulty }, elapsed, rating);
              const recall = model.recall(elapsed, stability);
              expect(recall).toBeCloseTo(fsrs.forgetting_curve(elapsed, stability), 7);
              const actual = model.next({ stability, difficulty }, elapsed, rating, recall);
              // ts-fsrs rounds recall to 8 decimals before using it.
              expect(Math.abs(actual.stability / expected.stability - 1)).toBeLessThan(1e-6);
              expect(actual.difficulty).toBeCloseTo(expected.difficulty, 6);
            }
          }
          expect(model.interval(stability)).toBe(fsrs.next_interval(stability, 0));
        }
      }
    });
  }
});
