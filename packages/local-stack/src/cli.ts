/**
 * `pnpm stack [start|status|reset] [--strict]`: the local Supabase-compatible backend.
 * Data lives in `<repo>/.engram/`; DATABASE_URL switches to a PostgreSQL server;
 * `--strict` or ENGRAM_STACK_STRICT=1 turns on strict mode (stricter than hosted Supabase).
 */
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { openStackPglite } from "./database/pglite.js";
import { findSupabaseDir } from "./paths.js";
import type { RunningStack } from "./server.js";

const supabaseDir = findSupabaseDir();
const dataDir = join(dirname(supabaseDir), ".engram");
const envFile = join(dataDir, ".env");

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith("--"));
const strict = flags.includes("--strict") || isOn(process.env.ENGRAM_STACK_STRICT);

/** An environment switch: set to anything but empty, 0, false, no or off. */
function isOn(value: string | undefined): boolean {
  return value !== undefined && !["", "0", "false", "no", "off"].includes(value.trim().toLowerCase());
}

async function start() {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // The embedded database opens on its thread while this one loads the rest of the stack's code
  // (a chunk of its own in the bundle): the two largest parts of a start, side by side.
  const embedded = databaseUrl ? undefined : openStackPglite(dataDir);
  embedded?.catch(() => undefined);
  const { startStack } = await import("./server.js");
  const running = await startStack({
    supabaseDir,
    dataDir,
    databaseUrl,
    ...(embedded ? { embedded } : {}),
    dbPort: "config",
    strict,
    log: (line) => console.log(line),
  }).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
  await writeEnvFile(running);
  // From the process's start: loading the code is part of what the developer waits for.
  console.log(`Engram local stack ready in ${process.uptime().toFixed(1)} s\n`);
  console.log(statusLines(running).join("\n"));
  if (running.strict) console.log("            Mode: strict (stricter than hosted Supabase)");
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await enableTypeScriptFunctions();
}

/**
 * Edge functions are TypeScript modules imported on their first request; the
 * bundled CLI runs in plain Node, which needs tsx's loader for them. Registered
 * once the stack is up, so start-up does not wait for it.
 */
async function enableTypeScriptFunctions() {
  if (!existsSync(join(supabaseDir, "functions"))) return;
  const { register } = await import("tsx/esm/api");
  register();
}

function statusLines(
  s: Pick<RunningStack, "url" | "anonKey" | "serviceRoleKey" | "mailboxUrl" | "database" | "dbUrl">,
) {
  return [
    `         API URL: ${s.url}`,
    `        REST URL: ${s.url}/rest/v1`,
    `        Auth URL: ${s.url}/auth/v1`,
    `     Mailbox URL: ${s.mailboxUrl}/api/v1/mailbox/<email>`,
    `        anon key: ${s.anonKey}`,
    `service_role key: ${s.serviceRoleKey}`,
    `          DB URL: ${s.dbUrl ?? ""}`,
    `        Database: ${s.database}`,
  ];
}

/** The file the web app (VITE_*) and scripts read to reach the running stack. */
async function writeEnvFile(s: RunningStack) {
  const lines = [
    `SUPABASE_URL=${s.url}`,
    `SUPABASE_ANON_KEY=${s.anonKey}`,
    `SUPABASE_SERVICE_ROLE_KEY=${s.serviceRoleKey}`,
    `SUPABASE_MAILBOX_URL=${s.mailboxUrl}`,
    `ENGRAM_DATABASE=${s.database}`,
    `SUPABASE_DB_URL=${s.dbUrl ?? ""}`,
    `VITE_SUPABASE_URL=${s.url}`,
    `VITE_SUPABASE_ANON_KEY=${s.anonKey}`,
  ];
  await writeFile(envFile, `${lines.join("\n")}\n`);
}

async function status() {
  let env: Record<string, string>;
  try {
    env = Object.fromEntries(
      (await readFile(envFile, "utf8"))
        .split("\n")
        .filter((line) => line.includes("="))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
  } catch {
    console.log("The local stack has not been started yet: run `pnpm stack`.");
    process.exitCode = 1;
    return;
  }
  const url = env.SUPABASE_URL ?? "";
  const up = await fetch(`${url}/health`).then(
    (response) => response.ok,
    () => false,
  );
  console.log(`Engram local stack is ${up ? "running" : "stopped"}\n`);
  console.log(
    statusLines({
      url,
      anonKey: env.SUPABASE_ANON_KEY ?? "",
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY ?? "",
      mailboxUrl: env.SUPABASE_MAILBOX_URL ?? "",
      database: env.ENGRAM_DATABASE ?? "",
      dbUrl: env.SUPABASE_DB_URL ?? "",
    }).join("\n"),
  );
}

/** Deletes the embedded database; the next start applies migrations and the seed afresh. */
async function reset() {
  await rm(join(dataDir, "db"), { recursive: true, force: true });
  console.log(`Removed ${join(dataDir, "db")}. The next \`pnpm stack\` recreates the database.`);
}

const command = args.find((arg) => !arg.startsWith("--")) ?? "start";
const commands: Record<string, () => Promise<void>> = { start, status, reset };
const run = commands[command];
const unknownFlag = flags.find((flag) => flag !== "--strict");
if (!run || unknownFlag) {
  console.error(
    `Unknown ${run ? `option "${unknownFlag}"` : `command "${command}"`}. Use: pnpm stack [start|status|reset] [--strict]`,
  );
  process.exit(2);
}
await run();
