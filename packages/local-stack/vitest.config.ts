import { defineVitestConfig } from "../../vitest.shared.js";

export default defineVitestConfig();
