/**
 * How long the workload simulator takes: a year of a 10,000-card collection
 * (8,000 studied, 2,000 new) at 0.90, and the recommended retention, which
 * simulates the year once per retention it tries. Run with
 * `pnpm --filter @engram/core bench`.
 */
import { recommendRetention, type SimulationInput, simulateWorkload } from "../src/simulator/index";

/** A deterministic collection: studied cards with stabilities up to a year, due over the coming months. */
function collection(studied: number, fresh: number): SimulationInput {
  let seed = 20_261_127;
  const random = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const cards = Array.from({ length: studied }, () => {
    const stability = Math.exp(random() * Math.log(365));
    const lastDay = -Math.floor(random() * stability);
    return { stability, difficulty: 1 + random() * 9, lastDay, dueDay: lastDay + Math.max(1, Math.round(stability)) };
  });
  return { cards, newCards: fresh, newPerDay: 20, reviewsPerDay: 200, parameters: null };
}

function time<T>(work: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = work();
  return { result, ms: performance.now() - started };
}

const rows: Record<string, string | number>[] = [];
for (const [studied, fresh] of [
  [8_000, 2_000],
  [80_000, 20_000],
] as const) {
  const input = collection(studied, fresh);
  time(() => simulateWorkload(input, 0.9)); // warm-up
  const runs = Array.from({ length: 5 }, () => time(() => simulateWorkload(input, 0.9)));
  const { result: simulation } = runs[0] ?? time(() => simulateWorkload(input, 0.9));
  const recommendation = time(() => recommendRetention(input));
  const sorted = runs.map((run) => run.ms).sort((a, b) => a - b);
  rows.push({
    cards: studied + fresh,
    "simulate 365 days, median ms": (sorted[2] ?? 0).toFixed(0),
    reviews: simulation.days.reduce((sum, day) => sum + day.reviews, 0),
    "hours of study": (simulation.totalMinutes / 60).toFixed(1),
    "remembered at the end": simulation.memorised.toFixed(0),
    "recommendation ms": recommendation.ms.toFixed(0),
    "retentions tried": recommendation.result.costs.length,
    recommended: recommendation.result.retention.toFixed(2),
  });
}
console.table(rows);
