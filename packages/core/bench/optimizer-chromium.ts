/**
 * The optimiser's time in a Chromium Web Worker, where the web app runs it: the
 * worker is bundled with esbuild, served from loopback, and times a whole optimise
 * (items, training in fsrs-browser's wasm, evaluations) on simulated histories.
 * Uses Debian's Chromium (`CHROMIUM_PATH` to point elsewhere).
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const bundle = await build({
  entryPoints: [fileURLToPath(new URL("./chromium/optimizer-worker.ts", import.meta.url))],
  bundle: true,
  format: "esm",
  platform: "browser",
  conditions: ["source", "browser"],
  write: false,
  logLevel: "error",
});
const files: Record<string, [string, Uint8Array | string]> = {
  "/": ["text/html", "<!doctype html><title>optimiser</title>"],
  "/worker.js": ["text/javascript", bundle.outputFiles[0]?.contents ?? ""],
  "/fsrs_browser_bg.wasm": [
    "application/wasm",
    await readFile(createRequire(import.meta.url).resolve("fsrs-browser/fsrs_browser_bg.wasm")),
  ],
};
const server = createServer((request, response) => {
  const file = files[request.url ?? ""];
  if (!file) return void response.writeHead(404).end();
  response.writeHead(200, { "content-type": file[0] }).end(file[1]);
});
await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  await page.goto(origin);
  const rows = [];
  for (const answers of [1_000, 10_000, 31_000, 100_000]) {
    const reply = await page.evaluate(
      (answers) =>
        new Promise<Record<string, unknown>>((resolve) => {
          const worker = new Worker("/worker.js", { type: "module" });
          worker.onmessage = (event) => {
            worker.terminate();
            resolve(event.data);
          };
          worker.onerror = (event) => resolve({ error: event.message });
          worker.postMessage({ answers });
        }),
      answers,
    );
    if ("error" in reply) throw new Error(String(reply.error));
    rows.push({
      answers,
      "first run s (loads the wasm)": (Number(reply.firstRunMs) / 1000).toFixed(2),
      "optimise s": (Number(reply.ms) / 1000).toFixed(2),
      improved: String(reply.improved),
    });
  }
  console.log("Optimiser time in a Chromium Web Worker (fsrs-browser's wasm, one thread)");
  console.table(rows);
} finally {
  await browser.close();
  server.close();
}
