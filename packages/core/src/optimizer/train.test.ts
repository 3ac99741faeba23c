import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { fixtureLogs } from "./fixtures-test-support";
import { simulateLogs } from "./simulate-test-support";
import { OptimizerError, optimizeParameters } from "./train";

const wasm = readFileSync(createRequire(import.meta.url).resolve("fsrs-browser/fsrs_browser_bg.wasm"));

describe("optimizeParameters", () => {
  // The two fixtures with 400 answers or more (1,601 revlog rows in collection.apkg, 3 of them for cards it dropped).
  it.each([
    ["BarRonPcAp.colpkg", 470],
    ["collection.apkg", 1598],
  ])("trains 21 finite parameters on %s that fit it better than the defaults", async (file, answers) => {
    const logs = await fixtureLogs(file);
    expect(logs).toHaveLength(answers);
    const progress: [number, number][] = [];
    const result = await optimizeParameters(logs, {
      wasm,
      timeZone: "UTC",
      dayStartHour: 4,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(result.parameters).toHaveLength(21);
    expect(result.parameters.every(Number.isFinite)).toBe(true);
    expect(result.after.reviews).toBe(result.before.reviews);
    expect(result.before.reviews).toBeGreaterThan(0);
    expect(result.improved).toBe(true);
    expect(result.after.logLoss).toBeLessThan(result.before.logLoss);
    expect(result.after.rmseBins).toBeLessThan(result.before.rmseBins);
    expect(result.cards).toBeGreaterThan(0);
    expect(result.reviews).toBeLessThanOrEqual(answers);
    expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1]);
  });

  it("recovers a model close to the one a simulated history follows", async () => {
    const logs = simulateLogs({ cards: 300, reviewsPerCard: 8, seed: 3 });
    const result = await optimizeParameters(logs, { wasm, current: null });
    expect(result.reviews).toBe(2400);
    expect(result.cards).toBe(300);
    expect(result.after.logLoss).toBeLessThan(result.before.logLoss + 0.01);
    expect(result.after.rmseBins).toBeLessThan(0.06);
  });

  it("says when training does not improve on the parameters in use, as when fsrs-rs falls back to the defaults", async () => {
    const logs = await fixtureLogs("BarRonPcAp.colpkg");
    // With study days starting at 17:00 UTC too few first answers are left to fit even the first stabilities.
    const late = await optimizeParameters(logs, { wasm, timeZone: "UTC", dayStartHour: 17 });
    expect(late.improved).toBe(false);
    expect(late.after.logLoss).toBeCloseTo(late.before.logLoss, 6);
    const early = await optimizeParameters(logs, { wasm, timeZone: "UTC", dayStartHour: 4 });
    expect(early.improved).toBe(true);
    expect(early.after.logLoss).toBeLessThan(early.before.logLoss);
  });

  it("refuses fewer than 400 reviews", async () => {
    const logs = await fixtureLogs("spoken-languages__english__Vocab__2023.apkg");
    expect(logs.length).toBeLessThan(400);
    const refused = await optimizeParameters(logs, { wasm }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OptimizerError);
    expect(refused).toMatchObject({
      code: "not-enough-reviews",
      message: `The optimiser needs at least 400 reviews; you have ${logs.length}.`,
    });
  });

  it("leaves Node without a global self after loading the wasm", async () => {
    await optimizeParameters(simulateLogs({ cards: 50, reviewsPerCard: 8 }), { wasm });
    expect(typeof (globalThis as { self?: unknown }).self).toBe("undefined");
  });
});
