/**
 * The local stack a benchmark runs on (PGlite in process, or PostgreSQL when
 * ENGRAM_BENCH_DATABASE_URL is set) and an SDK client signed in as a new user.
 */
import { fileURLToPath } from "node:url";
import { liftAuthRateLimits, startStack } from "@engram/local-stack";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { createEngram } from "../../src/client.js";
import type { Database } from "../../src/database.types.js";

export async function signedInOnStack(name: string) {
  const databaseUrl = process.env.ENGRAM_BENCH_DATABASE_URL;
  console.log(`database                           ${databaseUrl ? "PostgreSQL" : "PGlite (in process)"}`);
  const stack = await startStack({
    supabaseDir: fileURLToPath(new URL("../../../../supabase/", import.meta.url)),
    dataDir: null,
    ...(databaseUrl ? { databaseUrl } : {}),
    port: 0,
    configure: liftAuthRateLimits,
  });
  // Node 20 has no global WebSocket: realtime gets `ws`.
  const options = { auth: { persistSession: false }, realtime: { transport: WebSocket as never } };
  const engram = createEngram(createClient<Database>(stack.url, stack.anonKey, options));
  const admin = createClient(stack.url, stack.serviceRoleKey, options);
  const account = { email: `${name}-${Date.now()}@example.test`, password: "bench-password-1" };
  const { error } = await admin.auth.admin.createUser({ ...account, email_confirm: true });
  if (error) throw error;
  await engram.auth.signIn(account);
  return { stack, engram };
}
