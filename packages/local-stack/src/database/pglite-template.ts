/**
 * A new PGlite database starts with initdb, most of a first start's CPU time
 * (3–5 s on two cores, against under 1 s to unpack its result). What initdb
 * leaves is the same every time for one PGlite version, so the first one is
 * kept, gzipped (about 5 MB), in node_modules/.cache and later new databases —
 * each test stack's, and the CLI's after `pnpm stack reset` — start from it.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { cacheDir, packageJsonFile } from "../paths.js";

async function templateFile(): Promise<string> {
  const { dependencies } = JSON.parse(await readFile(packageJsonFile, "utf8")) as {
    dependencies: Record<string, string>;
  };
  return join(cacheDir, `pglite-${dependencies["@electric-sql/pglite"]}-initdb.tar.gz`);
}

/** The kept data directory, or null before the first new database. */
export async function readTemplate(): Promise<Blob | null> {
  try {
    return new Blob([await readFile(await templateFile())]);
  } catch {
    return null;
  }
}

/** Keeps a new database's data directory; call before anything runs in it. */
export async function saveTemplate(pglite: PGlite): Promise<void> {
  const file = await templateFile();
  const partial = `${file}.${randomUUID()}.partial`;
  try {
    const dump = await pglite.dumpDataDir("gzip");
    await mkdir(cacheDir, { recursive: true });
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    // Atomic: a database opened at the same time reads the whole file or none.
    await rename(partial, file);
  } catch {
    // Only a cache: the next new database runs initdb again.
    await rm(partial, { force: true });
  }
}
