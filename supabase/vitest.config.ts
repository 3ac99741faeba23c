import { defineConfig } from "vitest/config";

// "source" resolves workspace packages to their TypeScript sources (no build step).
const conditions = ["source", "node"];

export default defineConfig({
  resolve: { conditions },
  environments: {
    ssr: { resolve: { conditions } },
    __vitest__: { resolve: { conditions } },
  },
  test: {
    server: { deps: { inline: [/@engram\//] } },
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
