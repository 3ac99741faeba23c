/**
 * Import and export on the local stack, end to end through the SDK in Node:
 * a generated Anki package of 10,000 notes and 100,000 review rows is read,
 * its schedule replayed, staged and committed, once into one deck and once
 * spread over 20 subdecks; then the deck is exported.
 *
 *   pnpm --filter @engram/sdk bench
 *
 * Prints wall time per phase, and the peak RSS of this process (the SDK) and of
 * the stack's, which runs in a process of its own so that the requests timed
 * meanwhile measure the stack alone (with PGlite, the database is in it);
 * ENGRAM_BENCH_DATABASE_URL runs it on PostgreSQL; ENGRAM_BENCH_NOTES sets
 * the number of notes (10 answers each), to see how an import grows with a
 * collection's size. Last, the floor under the import's finish
 * (support/import-floor.ts) on the same engine.
 */
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import type { ExportNote, ExportReview } from "@engram/core/export";
import { writeApkg } from "@engram/core/export";
import { exportDeck, type ImportProgress, importDeck } from "../src/transfer/index.js";
import { importFloor } from "./support/import-floor.js";
import { signedInOnStackProcess } from "./support/signed-in.js";

const noteCount = Number(process.env.ENGRAM_BENCH_NOTES ?? 10_000);
if (!Number.isInteger(noteCount) || noteCount < 1)
  throw new Error("ENGRAM_BENCH_NOTES must be a whole number of notes, 1 or more");
const reviewsPerCard = 10;
const day = 86_400_000;

function generatedDeck(now: Date) {
  const notes: ExportNote[] = [];
  const reviews: ExportReview[] = [];
  for (let i = 0; i < noteCount; i += 1) {
    const cardId = `card-${i}`;
    let at = now.getTime() - 400 * day + (i % 1000) * 60_000;
    let interval = 1;
    for (let r = 0; r < reviewsPerCard; r += 1) {
      const rating = r === 0 ? 3 : (i + r) % 9 === 0 ? 1 : 3;
      reviews.push({
        cardId,
        reviewedAt: new Date(at),
        rating: rating as 1 | 3,
        durationMs: 4000,
        state: r === 0 ? "new" : "review",
        scheduledDays: interval,
        lastIntervalDays: interval,
      });
      interval = rating === 1 ? 1 : Math.min(Math.round(interval * 1.8) + 1, 30);
      at += interval * day;
    }
    notes.push({
      id: `note-${i}`,
      kind: "basic",
      fields: { front: `Question ${i} <b>bold</b>`, back: `Answer ${i}` },
      tags: [`set${i % 20}`],
      cards: [
        {
          id: cardId,
          ordinal: 1,
          schedule: {
            state: "review",
            due: new Date(now.getTime() + (i % 30) * day),
            stability: 20,
            difficulty: 5,
            reps: reviewsPerCard,
            lapses: 1,
            last_review: new Date(now.getTime() - 10 * day),
            scheduled_days: 30,
          },
        },
      ],
    });
  }
  return { notes, reviews };
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.log(`${label.padEnd(34)} ${((performance.now() - start) / 1000).toFixed(2)} s`);
  return result;
}

/**
 * Requests unrelated to the import, one of each every 100 ms whether or not
 * the last has answered: an anonymous read through the API, auth's health
 * check, and a realtime heartbeat on an open socket. They run in a worker
 * thread, so a stack blocking this thread (PGlite runs in it) delays their
 * answers but not their sending. stop() waits for the last ones and gives
 * each one's response times and failures.
 */
function probeAvailability(url: string, anonKey: string) {
  const targets = [
    ["GET /rest/v1/decks (anon)", `${url}/rest/v1/decks?select=id&limit=1`],
    ["GET /auth/v1/health", `${url}/auth/v1/health`],
  ];
  const heartbeat = "realtime heartbeat";
  const socketUrl = `${url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${anonKey}&vsn=1.0.0`;
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const WebSocket = globalThis.WebSocket ?? require("ws");
     const times = {}, failed = {}, pending = [];
     for (const label of [...workerData.targets.map(([label]) => label), workerData.heartbeat]) {
       times[label] = [];
       failed[label] = 0;
     }
     // Heartbeats by ref: [when sent (epoch ms), performance.now() then, settle].
     const beats = new Map();
     let ref = 0;
     const socket = new WebSocket(workerData.socketUrl);
     socket.onmessage = (event) => {
       const message = JSON.parse(String(event.data));
       const beat = beats.get(message.ref);
       if (message.event !== "phx_reply" || !beat) return;
       beats.delete(message.ref);
       times[workerData.heartbeat].push([beat[0], performance.now() - beat[1]]);
       beat[2]();
     };
     const timer = setInterval(() => {
       for (const [label, address] of workerData.targets) {
         const start = performance.now();
         pending.push(fetch(address, { headers: { apikey: workerData.anonKey } })
           .then(async (response) => {
             await response.arrayBuffer();
             if (!response.ok) throw new Error(String(response.status));
             times[label].push([Date.now() - (performance.now() - start), performance.now() - start]);
           })
           .catch(() => { failed[label] += 1; }));
       }
       if (socket.readyState === 1) {
         const key = String(++ref);
         pending.push(new Promise((settle) => beats.set(key, [Date.now(), performance.now(), settle])));
         socket.send(JSON.stringify({ topic: "phoenix", event: "heartbeat", payload: {}, ref: key }));
       }
     }, 100);
     socket.onclose = () => {
       for (const beat of beats.values()) { failed[workerData.heartbeat] += 1; beat[2](); }
       beats.clear();
     };
     parentPort.once("message", async () => {
       clearInterval(timer);
       await Promise.all(pending);
       socket.close();
       parentPort.postMessage({ times, failed });
     });`,
    { eval: true, workerData: { targets, anonKey, heartbeat, socketUrl } },
  );
  return {
    /** Per target: each answer as [when it was sent (epoch ms), how long it took (ms)]. */
    async stop(): Promise<{ times: Map<string, Array<[number, number]>>; failed: Map<string, number> }> {
      const answer = once(worker, "message");
      worker.postMessage("stop");
      const [result] = (await answer) as [
        { times: Record<string, Array<[number, number]>>; failed: Record<string, number> },
      ];
      await worker.terminate();
      return { times: new Map(Object.entries(result.times)), failed: new Map(Object.entries(result.failed)) };
    },
  };
}

function spread(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  const ms = (value: number) => `${Math.round(value)} ms`;
  return `${ms(at(0.5))} / ${ms(at(0.99))} / ${ms(sorted[sorted.length - 1] ?? 0)}`.padEnd(28);
}

/** Imports `file` into a new deck, printing its phases and the unrelated requests' times meanwhile. */
async function measuredImport(
  engram: Awaited<ReturnType<typeof signedInOnStackProcess>>["engram"],
  stack: Awaited<ReturnType<typeof signedInOnStackProcess>>["stack"],
  label: string,
  file: { name: string; data: Uint8Array },
  deckName: string,
) {
  const phases = new Map<string, number>();
  const onProgress = (progress: ImportProgress) => {
    if (!phases.has(progress.phase)) phases.set(progress.phase, Date.now());
  };
  const probes = probeAvailability(stack.url, stack.anonKey);
  const summary = await timed(label, () =>
    importDeck(engram, file, { target: { newDeckName: deckName }, includeSchedule: true, onProgress }),
  );
  const answered = await probes.stop();
  const marks = [...phases.entries(), ["done", Date.now()] as const];
  for (let i = 0; i < marks.length - 1; i += 1) {
    const [phase, at] = marks[i] as [string, number];
    const next = (marks[i + 1] as [string, number])[1];
    console.log(`  ${phase.padEnd(32)} ${((next - at) / 1000).toFixed(2)} s`);
  }
  console.log(`  notes ${summary.notesAdded}, cards ${summary.cards}, reviews ${summary.reviews}`);
  console.log("meanwhile, a request every 100 ms   p50 / p99 / max");
  for (const [probe, answers] of answered.times) {
    const failed = answered.failed.get(probe) ?? 0;
    console.log(
      `  ${probe.padEnd(32)} ${spread(answers.map(([, ms]) => ms))} (${answers.length} answered, ${failed} failed)`,
    );
    // Which phase the slow answers fall in: a stack that is slow to answer its first
    // request shows in "reading", when the server has nothing of the import yet.
    const byPhase = marks.slice(0, -1).map(([phase, from], i) => {
      const until = (marks[i + 1] as readonly [string, number])[1];
      const inPhase = answers.filter(([sent]) => sent >= from && sent < until).map(([, ms]) => ms);
      return `${phase} ${Math.round(Math.max(0, ...inPhase))}`;
    });
    console.log(`    slowest by phase (ms)          ${byPhase.join(", ")}`);
  }
  return summary;
}

// ENGRAM_BENCH_DATABASE_URL runs the stack on PostgreSQL (e.g. `.ci/start-postgres`) instead of PGlite.
const { stack, engram } = await signedInOnStackProcess("bench");
let stackPeakRssMb: number | undefined;
try {
  const now = new Date();
  const deck = generatedDeck(now);
  const file = await timed(`write package (${noteCount} notes, ${noteCount * reviewsPerCard} reviews)`, async () => ({
    name: "bench.apkg",
    data: await writeApkg(
      { name: "Bench", notes: deck.notes, media: [], reviews: deck.reviews },
      { includeSchedule: true, now },
    ),
  }));
  console.log(`package size                       ${(file.data.byteLength / 1024 / 1024).toFixed(1)} MB`);
  const summary = await measuredImport(engram, stack, "import end to end", file, "Bench");

  // The same notes in 20 subdecks (a whole collection's deck tree), into a new deck.
  const tree = {
    name: "bench-tree.apkg",
    data: await writeApkg(
      {
        name: "Bench tree",
        notes: deck.notes.map((note, i) => ({ ...note, deckName: `Bench tree::Set ${i % 20}` })),
        media: [],
        reviews: deck.reviews,
      },
      { includeSchedule: true, now },
    ),
  };
  await measuredImport(engram, stack, "import end to end, 20 subdecks", tree, "Bench tree");

  await timed("export .apkg with schedule", () =>
    exportDeck(engram, summary.deckId, { format: "apkg", includeSchedule: true }),
  );
  await timed("export .csv", () => exportDeck(engram, summary.deckId, { format: "csv" }));
} finally {
  stackPeakRssMb = (await stack.close()).peakRssMb;
}
console.log(`peak RSS: SDK ${Math.round(process.resourceUsage().maxRSS / 1024)} MB, stack ${stackPeakRssMb} MB`);

// After the stack has stopped, so that the two do not share the machine.
const floor = await importFloor();
console.log("floor: the same rows written in one transaction (indexes and foreign keys, no trigger)");
for (const { step, ms } of floor) console.log(`  ${step.padEnd(32)} ${(ms / 1000).toFixed(2)} s`);
const floorMs = floor.reduce((sum, { ms }) => sum + ms, 0);
console.log(`  ${"in all".padEnd(32)} ${(floorMs / 1000).toFixed(2)} s`);
