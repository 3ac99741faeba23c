import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    // Safety nets for a hung call, not budgets: on a busy two-core machine a test's few
    // round trips take seconds, and a stack of its own (errors-mapping) a minute or more.
    testTimeout: 20_000,
    hookTimeout: 180_000,
  },
});
