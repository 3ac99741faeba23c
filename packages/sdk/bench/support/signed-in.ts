/**
 * The local stack a benchmark runs on (PGlite, or PostgreSQL when
 * ENGRAM_BENCH_DATABASE_URL is set) and an SDK client signed in as a new user.
 * The stack runs in this process, or in a process of its own (stack-process.ts)
 * when the benchmark measures the stack's own answers and memory.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startStack } from "@engram/local-stack";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { createEngram } from "../../src/client.js";
import type { Database } from "../../src/database.types.js";
import { benchStackOptions } from "./stack-options.js";

interface StackAddress {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
}

async function signIn(stack: StackAddress, name: string) {
  // Node 20 has no global WebSocket: realtime gets `ws`.
  const options = { auth: { persistSession: false }, realtime: { transport: WebSocket as never } };
  const engram = createEngram(createClient<Database>(stack.url, stack.anonKey, options));
  const admin = createClient(stack.url, stack.serviceRoleKey, options);
  const account = { email: `${name}-${Date.now()}@example.test`, password: "bench-password-1" };
  const { error } = await admin.auth.admin.createUser({ ...account, email_confirm: true });
  if (error) throw error;
  await engram.auth.signIn(account);
  return engram;
}

const databaseLabel = (where: string) =>
  `database                           ${process.env.ENGRAM_BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"} (stack ${where})`;

export async function signedInOnStack(name: string) {
  console.log(databaseLabel("in this process"));
  const stack = await startStack(benchStackOptions());
  return { stack, engram: await signIn(stack, name) };
}

/** The stack in a child process; close() stops it and gives that process's peak RSS. */
export async function signedInOnStackProcess(name: string) {
  console.log(databaseLabel("in its own process"));
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", fileURLToPath(new URL("./stack-process.ts", import.meta.url))],
    { cwd: fileURLToPath(new URL("../..", import.meta.url)), stdio: ["pipe", "pipe", "inherit"], env: process.env },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextMessage = async <T>(): Promise<T> => {
    const line = await lines.next();
    if (line.done) throw new Error("The stack's process ended before it answered");
    return JSON.parse(line.value) as T;
  };
  const address = await nextMessage<StackAddress>();
  const stack = {
    ...address,
    async close(): Promise<{ peakRssMb: number }> {
      const report = nextMessage<{ peakRssMb: number }>();
      child.stdin.end();
      const result = await report;
      await once(child, "exit");
      return result;
    },
  };
  return { stack, engram: await signIn(address, name) };
}
