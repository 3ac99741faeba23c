import { defineVitestConfig } from "../../vitest.shared.js";

/** Browser tests: the production build against a real local stack, driven in Chromium. */
export default defineVitestConfig({
  test: {
    include: ["e2e/**/*.test.ts"],
    globalSetup: ["e2e/support/global-setup.ts"],
    // One browser at a time: the machine and CI have two cores, and each file launches Chromium.
    fileParallelism: false,
    // A test is a whole user journey of dozens of steps, each allowed 30 s (browser.ts).
    testTimeout: 120_000,
  },
});
