import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: ["src/index.ts"],
    format: ["esm"],
    dts: true,
    clean: true,
    sourcemap: true,
  },
  {
    // What `pnpm stack` runs (bin/stack.mjs builds the same when a source is newer): the
    // package's own code, the server a chunk of its own that cli.ts imports once the database
    // is opening, every package from node_modules imported at run time.
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    sourcemap: true,
    skipNodeModulesBundle: true,
  },
]);
