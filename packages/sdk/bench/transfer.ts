/**
 * Import and export on the local stack, end to end through the SDK in Node:
 * a generated Anki package of 10,000 notes and 100,000 review rows is read,
 * its schedule replayed, staged and committed; then the deck is exported.
 *
 *   pnpm --filter @engram/sdk bench
 *
 * Prints wall time per phase and this process's peak RSS, which includes the
 * database when it is PGlite (in process); ENGRAM_BENCH_DATABASE_URL runs it on PostgreSQL.
 */
import type { ExportNote, ExportReview } from "@engram/core/export";
import { writeApkg } from "@engram/core/export";
import { exportDeck, type ImportProgress, importDeck } from "../src/transfer/index.js";
import { signedInOnStack } from "./support/signed-in.js";

const noteCount = 10_000;
const reviewsPerCard = 10;
const day = 86_400_000;

function generatedDeck(now: Date) {
  const notes: ExportNote[] = [];
  const reviews: ExportReview[] = [];
  for (let i = 0; i < noteCount; i += 1) {
    const cardId = `card-${i}`;
    let at = now.getTime() - 400 * day + (i % 1000) * 60_000;
    let interval = 1;
    for (let r = 0; r < reviewsPerCard; r += 1) {
      const rating = r === 0 ? 3 : (i + r) % 9 === 0 ? 1 : 3;
      reviews.push({
        cardId,
        reviewedAt: new Date(at),
        rating: rating as 1 | 3,
        durationMs: 4000,
        state: r === 0 ? "new" : "review",
        scheduledDays: interval,
        lastIntervalDays: interval,
      });
      interval = rating === 1 ? 1 : Math.min(Math.round(interval * 1.8) + 1, 30);
      at += interval * day;
    }
    notes.push({
      id: `note-${i}`,
      kind: "basic",
      fields: { front: `Question ${i} <b>bold</b>`, back: `Answer ${i}` },
      tags: [`set${i % 20}`],
      cards: [
        {
          id: cardId,
          ordinal: 1,
          schedule: {
            state: "review",
            due: new Date(now.getTime() + (i % 30) * day),
            stability: 20,
            difficulty: 5,
            reps: reviewsPerCard,
            lapses: 1,
            last_review: new Date(now.getTime() - 10 * day),
            scheduled_days: 30,
          },
        },
      ],
    });
  }
  return { notes, reviews };
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.log(`${label.padEnd(34)} ${((performance.now() - start) / 1000).toFixed(2)} s`);
  return result;
}

// ENGRAM_BENCH_DATABASE_URL runs the stack on PostgreSQL (e.g. `.ci/start-postgres`) instead of PGlite.
const { stack, engram } = await signedInOnStack("bench");
try {
  const now = new Date();
  const deck = generatedDeck(now);
  const file = await timed("write package (10k notes, 100k reviews)", async () => ({
    name: "bench.apkg",
    data: await writeApkg(
      { name: "Bench", notes: deck.notes, media: [], reviews: deck.reviews },
      { includeSchedule: true, now },
    ),
  }));
  console.log(`package size                       ${(file.data.byteLength / 1024 / 1024).toFixed(1)} MB`);

  const phases = new Map<string, number>();
  const onProgress = (progress: ImportProgress) => {
    if (!phases.has(progress.phase)) phases.set(progress.phase, performance.now());
  };
  const summary = await timed("import end to end", () =>
    importDeck(engram, file, { target: { newDeckName: "Bench" }, includeSchedule: true, onProgress }),
  );
  const marks = [...phases.entries(), ["done", performance.now()] as const];
  for (let i = 0; i < marks.length - 1; i += 1) {
    const [phase, at] = marks[i] as [string, number];
    const next = (marks[i + 1] as [string, number])[1];
    console.log(`  ${phase.padEnd(32)} ${((next - at) / 1000).toFixed(2)} s`);
  }
  console.log(`  notes ${summary.notesAdded}, cards ${summary.cards}, reviews ${summary.reviews}`);

  await timed("export .apkg with schedule", () =>
    exportDeck(engram, summary.deckId, { format: "apkg", includeSchedule: true }),
  );
  await timed("export .csv", () => exportDeck(engram, summary.deckId, { format: "csv" }));
  console.log(`peak RSS (this process)            ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  await stack.close();
}
