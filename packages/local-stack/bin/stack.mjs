#!/usr/bin/env node
/**
 * `pnpm stack`: runs the bundled CLI (dist/cli.js) in plain Node, which starts
 * faster and in less memory than compiling the sources on the fly. The bundle
 * is rebuilt first when it is missing (a fresh clone) or older than a source.
 */
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = join(root, "dist", "cli.js");

/** The newest modification time among the files under `dir` the bundle is built from. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if ((entry.name.endsWith(".ts") || entry.name.endsWith(".mjs")) && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const stale =
  !existsSync(bundle) ||
  statSync(bundle).mtimeMs < Math.max(newestSource(join(root, "src")), statSync(join(root, "package.json")).mtimeMs);
if (stale) {
  const esbuild = await import("esbuild");
  const dist = join(root, "dist");
  for (const name of existsSync(dist) ? readdirSync(dist) : []) {
    if (name.startsWith("cli-chunk-")) rmSync(join(dist, name));
  }
  // As tsup bundles it (tsup.config.ts): the package's own code, every dependency imported from node_modules.
  // What cli.ts imports only later (the server) is a chunk of its own, so the CLI starts the database first.
  await esbuild.build({
    entryPoints: { cli: join(root, "src", "cli.ts") },
    outdir: dist,
    splitting: true,
    chunkNames: "cli-chunk-[hash]",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
  await esbuild.stop();
}
await import(pathToFileURL(bundle).href);
