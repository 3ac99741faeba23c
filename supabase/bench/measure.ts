import { performance } from "node:perf_hooks";
import { type Database, type Queryable, setRequestContext } from "@engram/local-stack";
import type { Account } from "./load.js";

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

/**
 * Runs `fn` as a signed-in user the way PostgREST runs a request: one
 * transaction, `role` and `request.jwt.claims` set locally, then commit.
 */
export function asUser<T>(
  db: Database,
  account: Pick<Account, "userId" | "email" | "sessionId">,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await setRequestContext(tx, {
      role: "authenticated",
      claims: {
        sub: account.userId,
        role: "authenticated",
        aud: "authenticated",
        email: account.email,
        aal: "aal1",
        session_id: account.sessionId,
        is_anonymous: false,
      },
      method: "POST",
    });
    return fn(tx);
  });
}

/** Durations of one operation: the RPC statement alone, and the whole request transaction around it. */
export interface Sample {
  callMs: number[];
  requestMs: number[];
}

export interface Summary {
  calls: number;
  median: number;
  p95: number;
  max: number;
  requestP95: number;
}

/**
 * Calls `once` `warmup` times unmeasured, then `calls` times measured.
 * `once` receives a stopwatch for the statement it wants timed.
 */
export async function sample(
  warmup: number,
  calls: number,
  once: (measure: <T>(fn: () => Promise<T>) => Promise<T>) => Promise<void>,
): Promise<Sample> {
  const result: Sample = { callMs: [], requestMs: [] };
  for (let i = 0; i < warmup + calls; i++) {
    let callMs = 0;
    const measure = async <T>(fn: () => Promise<T>) => {
      const { value, ms } = await timed(fn);
      callMs = ms;
      return value;
    };
    const { ms } = await timed(() => once(measure));
    if (i >= warmup) {
      result.callMs.push(callMs);
      result.requestMs.push(ms);
    }
  }
  return result;
}

export function summarize(sample: Sample): Summary {
  return {
    calls: sample.callMs.length,
    median: percentile(sample.callMs, 0.5),
    p95: percentile(sample.callMs, 0.95),
    max: Math.max(...sample.callMs),
    requestP95: percentile(sample.requestMs, 0.95),
  };
}

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}
