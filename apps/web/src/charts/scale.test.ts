import { describe, expect, it } from "vitest";
import { niceTicks, roundStep, visibleTicks } from "./scale.js";

describe("the value axis", () => {
  it("counts in round steps from zero to just past the highest bar", () => {
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(9)).toEqual([0, 3, 6, 9, 12]);
    expect(niceTicks(5)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(2)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(26)).toEqual([0, 7, 14, 21, 28]);
    expect(niceTicks(45)).toEqual([0, 15, 30, 45, 60]);
    expect(niceTicks(1234)).toEqual([0, 350, 700, 1050, 1400]);
  });

  it("keeps whole numbers for counts and fractions only when asked", () => {
    expect(niceTicks(1)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(1, { decimals: true })).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0.3, { decimals: true })).toEqual([0, 0.075, 0.15, 0.225, 0.3]);
    expect(niceTicks(4.5, { decimals: true })).toEqual([0, 2, 4, 6, 8]);
  });

  it("draws an empty chart from 0 to 4", () => {
    expect(niceTicks(0)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1, 2, 3, 4]);
  });

  it("rounds a step's leading digits up, finer past the first decade", () => {
    expect(roundStep(2.25, false)).toBe(3);
    expect(roundStep(11.25, false)).toBe(15);
    expect(roundStep(6.5, false)).toBe(7);
    expect(roundStep(0.5, false)).toBe(1);
    expect(roundStep(0.5, true)).toBe(0.5);
  });
});

describe("the labels along the bottom", () => {
  const row = (count: number, spacing: number, width: number) =>
    Array.from({ length: count }, (_, index) => ({ center: index * spacing, width }));

  it("shows every label that has room", () => {
    expect(visibleTicks(row(3, 100, 40), 24)).toEqual([0, 1, 2]);
  });

  it("skips crowded ones, keeping the first and the last", () => {
    // Labels 40 px wide, 20 px apart: one in four clears a 24 px gap.
    expect(visibleTicks(row(30, 20, 40), 24)).toEqual([0, 4, 8, 12, 16, 20, 24, 29]);
  });

  it("drops one that would crowd the last", () => {
    expect(visibleTicks(row(6, 20, 40), 24)).toEqual([0, 5]);
  });

  it("keeps the first when only two labels and they would touch", () => {
    expect(visibleTicks(row(2, 10, 40), 24)).toEqual([0]);
    expect(visibleTicks([], 24)).toEqual([]);
    expect(visibleTicks(row(1, 0, 40), 24)).toEqual([0]);
  });
});
