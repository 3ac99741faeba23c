import { describe, expect, it } from "vitest";
import { describeWorkload, workloadOf } from "./workload.js";

/** FSRS parameters with only the decay (index 20) mattering here. */
const paramsWithDecay = (decay: number) => [...Array.from({ length: 20 }, () => 1), decay];

describe("workloadOf", () => {
  it("costs exactly the default's reviews at 0.90", () => {
    expect(workloadOf(0.9, null).relativeToDefault).toBeCloseTo(1, 10);
    expect(workloadOf(0.9, paramsWithDecay(0.5)).relativeToDefault).toBeCloseTo(1, 10);
  });

  it("says how many cards in one are forgotten when due", () => {
    expect(workloadOf(0.9, null).forgetOneIn).toBe(10);
    expect(workloadOf(0.8, null).forgetOneIn).toBe(5);
    expect(workloadOf(0.97, null).forgetOneIn).toBe(33);
  });

  it("asks for more reviews as the retention rises, and fewer as it falls", () => {
    const at = (retention: number) => workloadOf(retention, null).relativeToDefault;
    expect(at(0.95)).toBeGreaterThan(1);
    expect(at(0.97)).toBeGreaterThan(at(0.95));
    expect(at(0.8)).toBeLessThan(1);
    expect(at(0.7)).toBeLessThan(at(0.8));
  });

  it("follows the forgetting curve's gap R^(-1/decay) - 1, with the user's own decay once trained", () => {
    const gap = (retention: number, decay: number) => retention ** (-1 / decay) - 1;
    expect(workloadOf(0.95, null).relativeToDefault).toBeCloseTo(gap(0.9, 0.1542) / gap(0.95, 0.1542), 10);
    expect(workloadOf(0.95, paramsWithDecay(0.5)).relativeToDefault).toBeCloseTo(gap(0.9, 0.5) / gap(0.95, 0.5), 10);
    expect(workloadOf(0.95, paramsWithDecay(0.5)).relativeToDefault).not.toBeCloseTo(
      workloadOf(0.95, null).relativeToDefault,
      2,
    );
  });
});

describe("describeWorkload", () => {
  it("calls 0.90 the default balance", () => {
    expect(describeWorkload(0.9, null)).toBe(
      "At 0.90 you forget about 1 card in 10 when it comes due. That is the default balance between reviews a day and cards forgotten.",
    );
  });

  it("says cards come back sooner, in times the reviews, above the default", () => {
    const words = describeWorkload(0.95, null);
    expect(words).toMatch(
      /^At 0\.95 you forget about 1 card in 20 when it comes due\. Cards come back sooner: about 2[.,]5 times/,
    );
    expect(words).toMatch(/ times the reviews a day you would have at 0\.90\.$/);
  });

  it("says cards come back later, in fewer reviews, below the default", () => {
    const words = describeWorkload(0.8, null);
    expect(words).toMatch(
      /^At 0\.80 you forget about 1 card in 5 when it comes due\. Cards come back later: about 70\s?%/,
    );
    expect(words).toMatch(/ fewer reviews a day than at 0\.90, but more of them forgotten\.$/);
  });
});
