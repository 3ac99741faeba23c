import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig({ test: { testTimeout: 60_000 } });
