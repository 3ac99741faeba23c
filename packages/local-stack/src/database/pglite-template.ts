/**
 * A new PGlite database starts with initdb, most of a first start's CPU time
 * (3–5 s on two cores, against under 1 s to unpack its result). What initdb
 * leaves is the same every time for one PGlite version, so the first one is
 * kept, gzipped (about 5 MB), in node_modules/.cache and later new databases —
 * each test stack's, and the CLI's after `pnpm stack reset` — start from it.
 * A stack's database also needs the platform scripts (another 1.5 s of CPU),
 * the same for one version of them: that state is kept too, keyed by their hash.
 */
import { randomUUID } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createGunzip } from "node:zlib";
import { cacheDir, packageJsonFile } from "../paths.js";
import type { EmbeddedPglite } from "./embedded.js";
import { extractTar } from "./tar.mjs";

/** Which state a template holds: just initdb's, or the platform scripts of one hash applied too. */
export type TemplateKind = "initdb" | `platform-${string}`;

async function templatePrefix(): Promise<string> {
  const { dependencies } = JSON.parse(await readFile(packageJsonFile, "utf8")) as {
    dependencies: Record<string, string>;
  };
  return `pglite-${dependencies["@electric-sql/pglite"]}-`;
}

const templateFile = async (kind: TemplateKind) => join(cacheDir, `${await templatePrefix()}${kind}.tar.gz`);

/** The kept data directory of that kind, or null before the first new database. */
export async function readTemplate(kind: TemplateKind = "initdb"): Promise<Blob | null> {
  try {
    return new Blob([await readFile(await templateFile(kind))]);
  } catch {
    return null;
  }
}

/**
 * Keeps a database's data directory as the template of that kind: for
 * "initdb" call it before anything runs in it. A platform template replaces
 * those of earlier platform scripts.
 */
export async function saveTemplate(
  pglite: Pick<EmbeddedPglite, "dumpDataDir">,
  kind: TemplateKind = "initdb",
): Promise<void> {
  const file = await templateFile(kind);
  if (kind !== "initdb") {
    const stale = `${await templatePrefix()}platform-`;
    const names = await readdir(cacheDir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => name.startsWith(stale) && join(cacheDir, name) !== file)
        .map((name) => rm(join(cacheDir, name), { force: true })),
    );
  }
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

/**
 * Writes the kept data directory of that kind into `dir` as Postgres's own
 * files, for PGlite to open as an existing database; false when none is kept
 * or `dir` already holds something. Streamed from the file: PGlite's
 * `loadDataDir` would hold the tarball, its unpacked copy and every file in
 * memory (a first start's peak) and write them through its WebAssembly file
 * system. Unpacked beside `dir` and renamed into place, so a start stopped
 * halfway leaves no partial database.
 */
export async function unpackTemplate(kind: TemplateKind, dir: string): Promise<boolean> {
  const file = await templateFile(kind);
  if (!existsSync(file)) return false;
  const partial = `${dir}.${randomUUID()}.partial`;
  try {
    await mkdir(partial, { recursive: true, mode: 0o700 });
    await extractTar(createReadStream(file).pipe(createGunzip()), partial);
    // Replaces `dir` when it is an empty directory.
    await rename(partial, dir);
    return true;
  } catch {
    // Only a cache: PGlite then starts the database as it would without one.
    await rm(partial, { recursive: true, force: true });
    return false;
  }
}
