/**
 * Finds, imports and hot-reloads the project's function handlers
 * (`supabase/functions/<slug>/handler.ts`), the same modules `index.ts` hands to `Deno.serve`.
 */
import { type FSWatcher, watch } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export type FunctionHandler = (req: Request) => Response | Promise<Response>;

// The CLI's slug rule; folders starting with `_` hold shared code.
const slugPattern = /^[A-Za-z][A-Za-z0-9_-]*$/;

export class FunctionBootError extends Error {
  override readonly name = "FunctionBootError";
}

export interface FunctionRegistry {
  /** The handler of `slug`, or null when there is no such function. Throws FunctionBootError when it fails to load. */
  load(slug: string): Promise<FunctionHandler | null>;
  close(): void;
}

interface Loaded {
  handler: Promise<FunctionHandler>;
  watcher: FSWatcher | null;
}

export function createFunctionRegistry(functionsDir: string, log: (line: string) => void): FunctionRegistry {
  const loaded = new Map<string, Loaded>();
  let version = 0;

  function watchFolder(slug: string, folder: string): FSWatcher | null {
    try {
      // Any change in the folder drops the cached module; the next request imports it afresh.
      const watcher = watch(folder, { recursive: true, persistent: false }, () => {
        const entry = loaded.get(slug);
        if (!entry) return;
        entry.watcher?.close();
        loaded.delete(slug);
        log(`functions: ${slug} changed, reloading on next request`);
      });
      watcher.on("error", () => watcher.close());
      return watcher;
    } catch {
      return null;
    }
  }

  async function importHandler(slug: string, file: string): Promise<FunctionHandler> {
    // A fresh query string gives a fresh module instance: ESM caches by URL.
    const url = `${pathToFileURL(file).href}?v=${++version}`;
    let module: { default?: unknown };
    try {
      module = await import(/* @vite-ignore */ url);
    } catch (error) {
      log(`functions: ${slug} failed to boot: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
      throw new FunctionBootError(`${slug} failed to load`);
    }
    if (typeof module.default !== "function") {
      log(`functions: ${slug}/handler.ts has no default export function`);
      throw new FunctionBootError(`${slug} has no handler`);
    }
    return module.default as FunctionHandler;
  }

  return {
    async load(slug) {
      if (!slugPattern.test(slug)) return null;
      const folder = join(functionsDir, slug);
      const file = join(folder, "handler.ts");
      const exists = await stat(file).then(
        (info) => info.isFile(),
        () => false,
      );
      if (!exists) {
        const stale = loaded.get(slug);
        stale?.watcher?.close();
        loaded.delete(slug);
        return null;
      }
      let entry = loaded.get(slug);
      if (!entry) {
        const handler = importHandler(slug, file);
        entry = { handler, watcher: watchFolder(slug, folder) };
        loaded.set(slug, entry);
        // A failed boot is retried on the next request rather than cached.
        handler.catch(() => {
          if (loaded.get(slug) === entry) {
            entry?.watcher?.close();
            loaded.delete(slug);
          }
        });
      }
      return entry.handler;
    },
    close() {
      for (const entry of loaded.values()) entry.watcher?.close();
      loaded.clear();
    },
  };
}
