import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config";

// "source" resolves workspace packages to their TypeScript sources, so tests
// need no build step. Only "source" and "node" are added: Vitest also passes
// these to Node for external modules, where "import" would break CJS packages.
const conditions = ["source", "node"];

/** Vitest settings every package shares; CI also writes a JSON report per package. */
export function defineVitestConfig(overrides: ViteUserConfig = {}) {
  const report = process.env.CI ? `test-results/vitest${process.env.DATABASE_URL ? "-postgres" : ""}.json` : undefined;
  return mergeConfig(
    defineConfig({
      resolve: { conditions },
      environments: {
        ssr: { resolve: { conditions } },
        __vitest__: { resolve: { conditions } },
      },
      test: {
        server: { deps: { inline: [/@engram\//] } },
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        // A realtime event or a refetch can take seconds on a busy machine; Vitest's 1 s is a race.
        expect: { poll: { timeout: 15_000 } },
        // Safety nets for a hung call, not budgets: on a busy two-core machine (load
        // average 15) a CPU-bound test such as training the optimiser runs ten times
        // slower than idle, and a stack of a file's own takes a minute or more to start.
        testTimeout: 60_000,
        hookTimeout: 180_000,
        reporters: report ? ["default", ["json", { outputFile: report }]] : ["default"],
      },
    }),
    defineConfig(overrides),
  );
}
