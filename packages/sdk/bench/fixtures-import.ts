/**
 * Import time of every Anki fixture package (the repository's own and the
 * real exports beside it), end to end through the SDK on the local stack:
 * read, stage, commit, media. Each package is imported three times into new
 * decks; the median is printed with what it holds.
 *
 *   pnpm --filter @engram/sdk bench
 *
 * ENGRAM_BENCH_DATABASE_URL runs it on PostgreSQL instead of PGlite.
 */
import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { importDeck } from "../src/transfer/index.js";
import { signedInOnStack } from "./support/signed-in.js";

const runs = 3;
const folders = [
  fileURLToPath(new URL("../../core/fixtures/anki/", import.meta.url)),
  fileURLToPath(new URL("../../../../shared/fixtures/anki/", import.meta.url)),
];

async function packagesIn(folder: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => []);
  return names.filter((name) => /\.(apkg|colpkg)$/.test(name)).map((name) => join(folder, name));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const { stack, engram } = await signedInOnStack("bench-fixtures");
try {
  console.log(
    `${"package".padEnd(48)} ${"KB".padStart(7)} ${"notes".padStart(6)} ${"cards".padStart(6)} ${"media".padStart(6)} ${"median s".padStart(9)}`,
  );
  for (const path of (await Promise.all(folders.map(packagesIn))).flat()) {
    const file = { name: basename(path), data: new Uint8Array(await readFile(path)) };
    const seconds: number[] = [];
    let counts = "";
    for (let run = 0; run < runs; run += 1) {
      const start = performance.now();
      const summary = await importDeck(engram, file, {
        target: { newDeckName: `${file.name} ${run}` },
        includeSchedule: true,
      });
      seconds.push((performance.now() - start) / 1000);
      counts = `${String(summary.notesAdded).padStart(6)} ${String(summary.cards).padStart(6)} ${String(summary.media).padStart(6)}`;
    }
    const kb = (file.data.byteLength / 1024).toFixed(0).padStart(7);
    console.log(`${file.name.padEnd(48)} ${kb} ${counts} ${median(seconds).toFixed(2).padStart(9)}`);
  }
} finally {
  await stack.close();
}
