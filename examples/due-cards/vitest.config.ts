import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // A safety net for a hung program, not a budget: one run is about a second of CPU,
    // several seconds on a busy two-core machine.
    testTimeout: 60_000,
  },
});
