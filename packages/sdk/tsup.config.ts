import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", query: "src/query/index.ts", transfer: "src/transfer/index.ts" },
  format: ["esm", "cjs"],
  // Its types are inlined too, so the published declarations import only public packages.
  dts: {
    resolve: [/^@engram\/core/],
    compilerOptions: {
      paths: { "@engram/core": ["../core/src/index.ts"], "@engram/core/*": ["../core/src/*/index.ts"] },
    },
  },
  clean: true,
  // import.meta.url in CommonJS too: Node finds fsrs-browser's wasm beside the package either way.
  shims: true,
  sourcemap: true,
  // @engram/core is private: its code ships inside the SDK; its own dependencies stay dependencies.
  noExternal: ["@engram/core"],
  // Bundle core from its TypeScript sources, so building the SDK needs no core build.
  esbuildOptions(options) {
    options.conditions = ["source"];
  },
});
