import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/import/index.ts", "src/export/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
});
