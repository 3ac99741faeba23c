/**
 * `pnpm stack` as a developer meets it: the CLI in its own process (bin/stack.mjs),
 * timed from spawn to "ready" with a new data directory (cold) and with the one that
 * start left (warm), and its resident memory idle and after a burst of 1,000
 * malformed REST, auth and storage requests. Targets: ready < 1 s with an existing
 * data directory, RSS < 300 MB, a first start's included.
 *
 * Run alone: `pnpm exec tsx --conditions=source -e 'import("./bench/startup.ts").then((m) => m.startupFootprint())'`
 * in packages/local-stack; `pnpm bench` runs it after the other benches.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { findSupabaseDir } from "../src/paths.js";
import { freePort, stackCommand } from "../test/support/cli-command.js";

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function startupFootprint(): Promise<void> {
  const command = await stackCommand();
  const project = await scratchProject();
  try {
    // Builds the bundle if a source changed, so the runs below time only the start.
    await run(command, project.dir, ["status"]);
    const cold = await startCli(command, project.dir);
    await cold.stop();
    const warm = await startCli(command, project.dir);
    const idle = await rssOf(warm.process);
    const responses = await malformedBurst(project.apiUrl, await anonKey(project.dir));
    const afterBurst = await rssOf(warm.process);
    // Time for the collector to run once the burst is over.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const settled = await rssOf(warm.process);
    await warm.stop();
    console.log("\n== start-up (`pnpm stack`: bundled CLI, PGlite on disk)");
    // CPU time too: on a busy machine the wall time says more about the neighbours.
    console.log(
      `  cold (new data directory):      ${seconds(cold.readyMs)} (${seconds(cold.cpuMs)} CPU)   RSS ${mb(cold.rss)} (peak ${mb(cold.peak)}), target < 300 MB`,
    );
    console.log(
      `  warm (existing data directory): ${seconds(warm.readyMs)} (${seconds(warm.cpuMs)} CPU)   target < 1 s`,
    );
    console.log(`  RSS idle:                       ${mb(idle)}   target < 300 MB`);
    console.log(
      `  RSS after 1,000 bad requests:   ${mb(afterBurst)} (${describe(responses)}), 5 s later ${mb(settled)}`,
    );
  } finally {
    await rm(project.dir, { recursive: true, force: true });
  }
}

/** The repo's migrations and seed in a temporary project, on free ports so a running stack is left alone. */
async function scratchProject() {
  const source = findSupabaseDir();
  const dir = await mkdtemp(join(tmpdir(), "engram-startup-"));
  await cp(join(source, "migrations"), join(dir, "supabase", "migrations"), { recursive: true });
  await cp(join(source, "seed.sql"), join(dir, "supabase", "seed.sql"));
  const [apiPort, dbPort] = [await freePort(), await freePort()];
  const config = (await readFile(join(source, "config.toml"), "utf8"))
    .replace(/(\[api\][^[]*?port = )\d+/, `$1${apiPort}`)
    .replace(/(\[db\][^[]*?port = )\d+/, `$1${dbPort}`);
  await writeFile(join(dir, "supabase", "config.toml"), config);
  return { dir, apiUrl: `http://127.0.0.1:${apiPort}` };
}

async function run(command: string[], cwd: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, [...command, ...args], { cwd, stdio: "ignore", env: cleanEnv() });
  await once(child, "exit");
}

/** Without DATABASE_URL: the start-up measured is the embedded database's. */
function cleanEnv() {
  const { DATABASE_URL: _, ...env } = process.env;
  return env;
}

async function startCli(command: string[], cwd: string) {
  const started = performance.now();
  const child = spawn(process.execPath, command, { cwd, stdio: ["ignore", "pipe", "inherit"], env: cleanEnv() });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready in")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the stack exited (${code}) before it was ready:\n${output}`)));
  });
  const readyMs = performance.now() - started;
  return {
    process: child,
    readyMs,
    cpuMs: await cpuOf(child),
    rss: await rssOf(child),
    peak: await rssOf(child, "VmHWM"),
    async stop() {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** User and system time the process has used (clock ticks of 10 ms in /proc/<pid>/stat). */
async function cpuOf(child: ChildProcess): Promise<number> {
  const stat = await readFile(`/proc/${child.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory now (VmRSS), or the most it has been (VmHWM). */
async function rssOf(child: ChildProcess, field: "VmRSS" | "VmHWM" = "VmRSS"): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
}

async function anonKey(projectDir: string): Promise<string> {
  const env = await readFile(join(projectDir, ".engram", ".env"), "utf8");
  return /^SUPABASE_ANON_KEY=(.*)$/m.exec(env)?.[1] ?? "";
}

/** 1,000 requests the stack must refuse: broken queries, bodies and tokens, some of a megabyte, 20 at a time. */
async function malformedBurst(url: string, anon: string): Promise<Map<number, number>> {
  const headers = { apikey: anon, "content-type": "application/json" };
  const big = "x".repeat(1024 * 1024);
  const kinds: ((i: number) => [string, RequestInit])[] = [
    (i) => [`${url}/rest/v1/decks?select=*,(((&id=eq.${i}`, { headers }],
    (i) => [`${url}/rest/v1/notes?order=${"x,".repeat(2000)}&limit=${i}`, { headers }],
    (i) => [`${url}/rest/v1/notes`, { method: "POST", headers, body: `{"deck_id": ${i}, ${"[".repeat(5000)}` }],
    (i) => [`${url}/rest/v1/rpc/study_queue`, { method: "POST", headers, body: i % 25 === 0 ? big : "{not json" }],
    (i) => [`${url}/auth/v1/token?grant_type=password`, { method: "POST", headers, body: `{"email":${i}` }],
    (i) => [`${url}/auth/v1/user`, { headers: { ...headers, authorization: `Bearer not.a.jwt${i}` } }],
    (i) => [
      `${url}/storage/v1/object/no-such-bucket/${i}.png`,
      { method: "POST", headers: { ...headers, authorization: `Bearer ${anon}` }, body: i % 25 === 0 ? big : "x" },
    ],
    (i) => [`${url}/storage/v1/bucket`, { method: "POST", headers, body: `{"name": ${"9".repeat(i)}` }],
  ];
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < 1000) {
      const i = next++;
      const kind = kinds[i % kinds.length] as (i: number) => [string, RequestInit];
      const status = await fetch(...kind(i)).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return statuses;
}

function describe(statuses: Map<number, number>): string {
  return [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${count}× ${status || "no answer"}`)
    .join(", ");
}
