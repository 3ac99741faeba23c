// The embedded database as the stack opens it, on the main thread or in
// pglite-worker.mjs: plain JavaScript, so a worker thread loads it as it is.
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { uuid_ossp } from "@electric-sql/pglite/contrib/uuid_ossp";
import { untar } from "./tar.mjs";

/**
 * Postgres's 128 MB of shared buffers are most of PGlite's memory, all of it
 * touched at start; a development database's working set fits in far less.
 * The WAL kept between checkpoints (which the stack makes: background-work.ts)
 * is memory too for a database in memory: a server's 1 GB is sized for its disks.
 */
const smallFootprint = [
  ...["-c", "shared_buffers=16MB", "-c", "wal_buffers=1MB", "-c", "temp_buffers=2MB"],
  ...["-c", "max_wal_size=64MB", "-c", "min_wal_size=32MB"],
];

/**
 * An import's commit step holds the one connection every request waits for;
 * a quarter of a second keeps the stack answering (a server's steps take a
 * second: private.import_step_ms).
 */
const singleConnection = ["-c", "engram.import_step_ms=250"];

/** Embedded Postgres with the extensions Supabase preinstalls, and pg_trgm, which it offers. */
export function createPglite(options = {}) {
  return PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm: onFirstUse(pg_trgm), pgcrypto: onFirstUse(pgcrypto), uuid_ossp: onFirstUse(uuid_ossp) },
    startParams: [...PGlite.defaultStartParams, ...smallFootprint, ...singleConnection],
  });
}

/**
 * An extension whose library Postgres loads when one of its functions first
 * runs, as a server does. PGlite compiles and links every extension's library
 * at start (pgcrypto's alone is 3 MB of WebAssembly: a tenth of a second and
 * 25 MB); here its files are only put in place, and the library is compiled
 * by the first statement that calls into it (`dlopen`), most starts never.
 */
function onFirstUse(extension) {
  return {
    name: extension.name,
    async setup(pg, emscriptenOpts, clientOnly) {
      const { bundlePath, ...rest } = await extension.setup(pg, emscriptenOpts, clientOnly);
      if (!bundlePath) return rest;
      const files = untar(gunzipSync(await readFile(bundlePath))).filter((entry) => entry.type === "file");
      const opts = rest.emscriptenOpts ?? emscriptenOpts;
      const putInPlace = (mod) => {
        for (const file of files) {
          const path = `${mod.WASM_PREFIX}/${file.name}`;
          mod.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
          mod.FS.writeFile(path, file.data);
        }
      };
      return { ...rest, emscriptenOpts: { ...opts, preRun: [...(opts.preRun ?? []), putInPlace] } };
    },
  };
}
