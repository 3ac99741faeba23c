import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig({ test: { testTimeout: 60_000, hookTimeout: 120_000 } });
