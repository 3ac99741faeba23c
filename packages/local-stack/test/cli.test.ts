import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../src/database/postgres.js";
import { freePort, stackCommand } from "./support/cli-command.js";
import { fixtureSupabaseDir } from "./support/stack.js";

// `pnpm stack` as package.json runs it, in a copy of the fixture project on free ports:
// PGlite on disk, or (DATABASE_URL) a new database of that server.
let projectDir: string;
let apiPort: number;
let dbPort: number;
let databaseUrl: string | undefined;
let dropDatabase = async () => {};
let cli: ChildProcess;
let startOutput: string;

function environment() {
  const { DATABASE_URL: _, ...env } = process.env;
  return databaseUrl ? { ...env, DATABASE_URL: databaseUrl } : env;
}

/** Runs the CLI with `args` and returns its output once `until` appears in it (or it exits). */
async function runCli(args: string[], until?: string): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, [...(await stackCommand()), ...args], {
    cwd: projectDir,
    env: environment(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  await new Promise<void>((resolve) => {
    if (until) child.stdout?.on("data", () => output.includes(until) && resolve());
    child.once("exit", () => resolve());
  });
  return { child, output };
}

beforeAll(async () => {
  projectDir = await mkdtemp(join(tmpdir(), "engram-cli-"));
  await cp(fixtureSupabaseDir, join(projectDir, "supabase"), { recursive: true });
  [apiPort, dbPort] = [await freePort(), await freePort()];
  const configFile = join(projectDir, "supabase", "config.toml");
  const config = (await readFile(configFile, "utf8"))
    .replace(/(\[api\][^[]*?port = )\d+/, `$1${apiPort}`)
    .replace(/(\[db\][^[]*?port = )\d+/, `$1${dbPort}`);
  await writeFile(configFile, config.includes("[db]") ? config : `${config}\n[db]\nport = ${dbPort}\n`);
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `engram_cli_${randomUUID().replaceAll("-", "")}`;
    const admin = openPostgres({ connectionString: serverUrl, max: 1 });
    await admin.exec(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    };
  }
  const started = await runCli([], "Database: "); // the last line start prints
  cli = started.child;
  startOutput = started.output;
});

afterAll(async () => {
  if (cli && cli.exitCode === null) {
    const exited = once(cli, "exit");
    cli.kill("SIGTERM");
    await exited;
  }
  await dropDatabase();
  await rm(projectDir, { recursive: true, force: true });
});

describe("pnpm stack", () => {
  it("starts and prints the API and database URLs", () => {
    expect(startOutput).toMatch(/Engram local stack ready in \d+\.\d s/);
    expect(startOutput).toContain(`API URL: http://127.0.0.1:${apiPort}`);
    const expected = databaseUrl ?? `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`;
    expect(startOutput).toContain(`DB URL: ${expected}`);
  });

  it("serves the migrated database at that URL on PGlite, and nothing on the port with DATABASE_URL", async () => {
    const client = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres` });
    if (databaseUrl) {
      await expect(client.connect()).rejects.toMatchObject({ code: "ECONNREFUSED" });
      return;
    }
    await client.connect();
    try {
      const { rows } = await client.query("select to_regclass('public.events')::text as events");
      expect(rows).toEqual([{ events: "events" }]);
    } finally {
      await client.end();
    }
  });

  it("starts as hosted Supabase, and refuses an option it does not know, naming --strict", async () => {
    expect(startOutput).not.toContain("Mode: strict");
    const { child, output } = await runCli(["--stricter"]);
    expect(child.exitCode).toBe(2);
    expect(output).toContain('Unknown option "--stricter". Use: pnpm stack [start|status|reset] [--strict]');
  });

  it("keeps what a statement committed across a stop, and across a kill", async () => {
    const url = databaseUrl ?? `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`;
    const query = async (sql: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    };
    const restart = async (signal: NodeJS.Signals) => {
      const exited = once(cli, "exit");
      cli.kill(signal);
      await exited;
      const started = await runCli([], "Database: ");
      cli = started.child;
      expect(started.output).toMatch(/Engram local stack ready in \d+\.\d s/);
    };
    await query("create table public.kept (word text); insert into public.kept values ('stopped')");
    await restart("SIGTERM");
    await query("insert into public.kept values ('killed')");
    await restart("SIGKILL");
    expect(await query("select word from public.kept order by word")).toEqual([
      { word: "killed" },
      { word: "stopped" },
    ]);
  });

  it("status reports it running, with the same DB URL", async () => {
    const { output } = await runCli(["status"]);
    expect(output).toContain("Engram local stack is running");
    expect(output).toContain(`DB URL: ${databaseUrl ?? `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`}`);
  });
});
