import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "import/index": "src/import/index.ts",
    "export/index": "src/export/index.ts",
    "optimizer/index": "src/optimizer/index.ts",
    "reschedule/index": "src/reschedule/index.ts",
    "simulator/index": "src/simulator/index.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
});
