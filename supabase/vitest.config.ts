import { defineVitestConfig } from "../vitest.shared.js";

export default defineVitestConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // tests/postgres needs several connections at once: PostgreSQL only.
    exclude: process.env.DATABASE_URL ? [] : ["tests/postgres/**"],
    globalSetup: ["tests/support/global-setup.ts"],
  },
});
