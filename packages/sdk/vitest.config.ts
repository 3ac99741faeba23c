import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig({ test: { globalSetup: ["test/support/global-setup.ts"] } });
