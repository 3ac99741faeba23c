import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// Resolves the same from src/ (source condition) and from the bundled dist/.
export const platformSqlDir = fileURLToPath(new URL("../sql/platform/", import.meta.url));
/** The embedded database's worker thread: plain JavaScript, loaded as it is from either. */
export const pgliteWorkerFile = new URL("../src/database/pglite-worker.mjs", import.meta.url);

/** Finds the project's `supabase/` folder by walking up from `start`. */
export function findSupabaseDir(start = process.cwd()): string {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, "supabase");
    if (existsSync(join(candidate, "config.toml"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No supabase/config.toml found above ${start}`);
    dir = parent;
  }
}

/** This package's own package.json and its cache under node_modules (`.cache`, as other tools keep theirs). */
export const packageJsonFile = fileURLToPath(new URL("../package.json", import.meta.url));
export const cacheDir = fileURLToPath(new URL("../node_modules/.cache/engram-local-stack/", import.meta.url));
