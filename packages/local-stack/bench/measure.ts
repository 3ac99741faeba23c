import { performance } from "node:perf_hooks";

// BENCH_CALLS raises the sample count, e.g. for a CPU profile.
export const calls = Number(process.env.BENCH_CALLS) || 300;
export const warmup = 30;

export function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const total = samples.reduce((a, b) => a + b, 0);
  return { p50: at(0.5), p95: at(0.95), rps: (samples.length / total) * 1000 };
}

export async function measure(fn: () => Promise<void>, count = calls, warm = warmup): Promise<number[]> {
  for (let i = 0; i < warm; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

export const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(9);

/**
 * Times several operations taking turns, one call of each per round in a
 * rotating order, so that all of them see the same machine (other processes'
 * load, the disk's flush times) rather than each its own stretch of time. Also
 * their CPU time per call.
 */
export async function measureTogether(
  fns: (() => Promise<void>)[],
  count = calls,
  warm = warmup,
): Promise<{ samples: number[][]; cpuMs: number[] }> {
  for (let i = 0; i < warm; i++) for (const fn of fns) await fn();
  const samples: number[][] = fns.map(() => []);
  const cpu = fns.map(() => 0);
  for (let i = 0; i < count; i++) {
    // Each round starts with the next operation, so none always follows the same one.
    for (let j = 0; j < fns.length; j++) {
      const k = (i + j) % fns.length;
      const fn = fns[k] as () => Promise<void>;
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      await fn();
      samples[k]?.push(performance.now() - start);
      const used = process.cpuUsage(cpuStart);
      cpu[k] = (cpu[k] ?? 0) + used.user + used.system;
    }
  }
  return { samples, cpuMs: cpu.map((micros) => micros / 1000 / count) };
}
