import type { PGlite } from "@electric-sql/pglite";

export interface EngineOptions {
  /** Directory to persist to; in memory when absent. */
  dataDir?: string;
  /** A data directory tarball to start from. */
  loadDataDir?: Blob;
}

export declare function createPglite(options?: EngineOptions): Promise<PGlite>;
