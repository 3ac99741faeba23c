import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
  },
});
