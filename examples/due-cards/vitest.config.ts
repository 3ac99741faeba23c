import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig({
  test: { include: ["test/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 60_000 },
});
