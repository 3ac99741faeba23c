import { defineVitestConfig } from "../vitest.shared.js";

export default defineVitestConfig({
  test: { include: ["*.test.ts"] },
});
