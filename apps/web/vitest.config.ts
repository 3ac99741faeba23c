import { configDefaults } from "vitest/config";
import { defineVitestConfig } from "../../vitest.shared.js";

// Both projects extend this file, whose shared `include` already lists src/**: lists are
// concatenated when configs merge, so the browser tests exclude the unit tests by name.
export default defineVitestConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          /** Unit tests beside the modules they pin: Node only, no browser, no local stack. */
          name: "unit",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          /** Browser tests: the production build against a real local stack, driven in Chromium. */
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "src/**"],
          globalSetup: ["e2e/support/global-setup.ts"],
          // One browser at a time: the machine and CI have two cores, and each file launches Chromium.
          fileParallelism: false,
          // A test is a whole user journey of dozens of steps, each allowed 30 s (browser.ts).
          testTimeout: 120_000,
        },
      },
    ],
  },
});
