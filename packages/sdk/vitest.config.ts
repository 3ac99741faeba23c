import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    // Realtime and the review session wait on the network; the defaults are tight for CI's two cores.
    testTimeout: 20_000,
  },
});
