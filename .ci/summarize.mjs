// Adds up the JSON reports every package's Vitest wrote and prints one line.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const roots = ["apps", "packages"].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [],
);
roots.push("supabase");

let passed = 0;
let failed = 0;
for (const root of roots) {
  const dir = join(root, "test-results");
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const report = JSON.parse(readFileSync(join(dir, file), "utf8"));
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTests ?? 0);
  }
}
console.log(`${passed} passed, ${failed} failed`);
