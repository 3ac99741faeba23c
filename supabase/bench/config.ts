/** What the benchmark loads and how often it calls each RPC. */
export const workload = {
  decks: 20,
  notesPerDeck: 5_000,
  /** Spread over four years, the last year holding about a quarter (a heavy user's 250,000 answers a year). */
  reviewLogs: 1_000_000,
  /** Years the review history goes back. */
  historyYears: 4,
  /** Calls per operation before measuring (plans cached, buffers warm). */
  warmupCalls: 10,
  /** Measured calls per operation. */
  measuredCalls: 200,
} as const;

/**
 * Review logs per engine. PGlite (one WebAssembly process, in memory) loads
 * the million in about 80 s on a quiet machine but several minutes on a busy
 * one; BENCH_PGLITE_REVIEW_LOGS (e.g. 250000) gives it fewer, and the run
 * says so.
 */
export const reviewLogsFor: Record<EngineKind, number> = {
  postgres: workload.reviewLogs,
  pglite: Number(process.env.BENCH_PGLITE_REVIEW_LOGS) || workload.reviewLogs,
};

export type EngineKind = "pglite" | "postgres";
export type Operation =
  | "study_queue()"
  | "study_queue(deck)"
  | "record_review"
  | "floor: queue rows"
  | "floor: one row"
  | "floor: bare answer"
  | "user_stats()"
  | "user_stats(deck)"
  | "review_stats(365)"
  | "deck_stats()";

/** p95 targets in ms; an operation without one for an engine is measured only. */
export const targets: Record<EngineKind, Partial<Record<Operation, number>>> = {
  postgres: {
    "study_queue()": 5,
    "study_queue(deck)": 5,
    record_review: 1,
    "user_stats()": 50,
    "user_stats(deck)": 50,
    "review_stats(365)": 50,
    "deck_stats()": 50,
  },
  pglite: { "study_queue()": 100, "study_queue(deck)": 100 },
};
