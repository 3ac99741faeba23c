import { defineVitestConfig } from "../vitest.shared.js";

export default defineVitestConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
