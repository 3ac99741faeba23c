/** What the benchmark loads and how often it calls each RPC. */
export const workload = {
  decks: 20,
  notesPerDeck: 5_000,
  reviewLogs: 200_000,
  /** Calls per operation before measuring (plans cached, buffers warm). */
  warmupCalls: 10,
  /** Measured calls per operation. */
  measuredCalls: 200,
} as const;

export type EngineKind = "pglite" | "postgres";
export type Operation = "study_queue()" | "study_queue(deck)" | "record_review";

/** p95 targets in ms; an operation without one for an engine is measured only. */
export const targets: Record<EngineKind, Partial<Record<Operation, number>>> = {
  postgres: { "study_queue()": 20, "study_queue(deck)": 20, record_review: 10 },
  pglite: { "study_queue()": 100, "study_queue(deck)": 100 },
};
