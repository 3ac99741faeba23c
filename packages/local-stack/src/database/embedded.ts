/**
 * What the stack uses of PGlite: PGlite itself (on the main thread) and
 * `PgliteThread` (PGlite on a worker thread) both provide it.
 */
export interface EmbeddedStatements {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  exec(sql: string): Promise<unknown>;
}

export interface EmbeddedPglite extends EmbeddedStatements {
  /** Runs `fn` between BEGIN and COMMIT (ROLLBACK when it throws); other statements wait. */
  transaction<T>(fn: (tx: EmbeddedStatements) => Promise<T>): Promise<T>;
  /** Holds the statement lock while `fn` runs: for raw protocol exchanges. */
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolRaw(message: Uint8Array): Promise<Uint8Array>;
  execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }): Promise<void>;
  /** Whether the session is inside a transaction block, as of the last statement. */
  isInTransaction(): boolean;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob>;
  close(): Promise<void>;
}
