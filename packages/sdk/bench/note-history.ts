/**
 * A note's history as the History panel reads it: one note edited until it
 * has 1,000 versions, then `noteHistory.list` timed 20 times (p50 and p95)
 * on the local stack. Target: under 200 ms.
 *
 *   pnpm --filter @engram/sdk bench
 *
 * ENGRAM_BENCH_DATABASE_URL runs it on PostgreSQL instead of PGlite.
 */
import { signedInOnStack } from "./support/signed-in.js";

const versions = 1000;
const runs = 20;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

const { stack, engram } = await signedInOnStack("bench-note-history");
try {
  const deck = await engram.decks.create({ name: "History bench" });
  const note = await engram.notes.create(deck.id, { kind: "basic", fields: { front: "Version 1", back: "Back" } });
  const fill = performance.now();
  for (let version = 1; version < versions; version += 1) {
    await engram.notes.update(note.id, version, {
      kind: "basic",
      fields: { front: `Version ${version + 1}: ${"a few words of text ".repeat(5)}`, back: "Back" },
    });
  }
  console.log(`${versions} versions written in ${((performance.now() - fill) / 1000).toFixed(1)} s`);
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    const history = await engram.noteHistory.list(note.id);
    times.push(performance.now() - start);
    if (history.length !== versions) throw new Error(`expected ${versions} versions, got ${history.length}`);
  }
  console.log(
    `noteHistory.list, ${versions} versions (${runs} runs)   p50 ${percentile(times, 0.5).toFixed(1)} ms   p95 ${percentile(times, 0.95).toFixed(1)} ms   (target < 200 ms)`,
  );
} finally {
  await stack.close();
}
