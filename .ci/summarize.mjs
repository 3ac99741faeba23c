// Adds up the JSON reports every package's Vitest wrote and prints one line,
// preceded by each failure, so the tail of a CI log names what broke.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const roots = ["apps", "packages", "examples"].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [],
);
roots.push("supabase", "docs");

// Vitest's JSON report keeps only a placeholder ("STACK_TRACE_ERROR") for a timeout.
const firstLine = (messages = []) => {
  const line = String(messages[0] ?? "").split("\n")[0];
  return line.includes("STACK_TRACE_ERROR") ? "timed out" : line.slice(0, 300);
};

let passed = 0;
let failed = 0;
const failures = [];
for (const root of roots) {
  const dir = join(root, "test-results");
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const report = JSON.parse(readFileSync(join(dir, file), "utf8"));
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTests ?? 0);
    for (const suite of report.testResults ?? []) {
      const where = `${file}: ${relative(process.cwd(), suite.name)}`;
      const tests = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const test of tests) failures.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages)}`);
      if (suite.status === "failed" && tests.length === 0) failures.push(`${where}: ${firstLine([suite.message])}`);
    }
  }
}
// A task that writes no report (lint, typecheck, the package check, a test
// run that crashed) fails CI too; Turbo's run summary (`--summarize`) names it.
const runs = join(".turbo", "runs");
const reportedFailures = failed;
if (existsSync(runs)) {
  for (const file of readdirSync(runs).filter((f) => f.endsWith(".json"))) {
    for (const task of JSON.parse(readFileSync(join(runs, file), "utf8")).tasks ?? []) {
      const exitCode = task.execution?.exitCode;
      if (!exitCode || (task.task === "test" && reportedFailures > 0)) continue;
      failures.push(`task ${task.taskId} exited ${exitCode}`);
      failed += 1;
    }
  }
}
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failed} failed`);
