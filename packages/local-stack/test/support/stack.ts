import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createClient, type SupabaseClientOptions } from "@supabase/supabase-js";
import { afterAll, beforeAll } from "vitest";
import WebSocket from "ws";
import { openPostgres } from "../../src/database/postgres.js";
import { type RunningStack, type StartOptions, startStack } from "../../src/server.js";

export const fixtureSupabaseDir = fileURLToPath(new URL("../fixtures/supabase/", import.meta.url));

/**
 * A stack for one test file on a free port, over the fixture project: PGlite in
 * memory, or a fresh database on the PostgreSQL server of DATABASE_URL.
 */
export async function startTestStack(options: StartOptions = {}): Promise<RunningStack> {
  const url = process.env.DATABASE_URL;
  if (!url) return startStack({ supabaseDir: fixtureSupabaseDir, dataDir: null, port: 0, ...options });

  const name = `engram_stack_${randomUUID().replaceAll("-", "")}`;
  const admin = openPostgres({ connectionString: url, max: 1 });
  await admin.exec(`create database ${name}`);
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  const running = await startStack({
    supabaseDir: fixtureSupabaseDir,
    dataDir: null,
    port: 0,
    databaseUrl: databaseUrl.toString(),
    ...options,
  });
  return {
    ...running,
    async close() {
      await running.close();
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

/**
 * One stack for the whole test file: started before its tests, closed after
 * them. The returned object is filled in once the stack is up, so tests use it
 * directly.
 */
export function stackPerFile(options: StartOptions = {}): RunningStack {
  const stack = {} as RunningStack;
  beforeAll(async () => {
    Object.assign(stack, await startTestStack(options));
  });
  afterAll(async () => {
    await stack.close?.();
  });
  return stack;
}

/**
 * The official client, as an app would create it. Node 20 has no global
 * WebSocket, so realtime gets `ws` (supabase-js throws without one).
 */
export function clientFor(stack: RunningStack, key = stack.anonKey, options: SupabaseClientOptions<"public"> = {}) {
  return createClient(stack.url, key, {
    ...options,
    auth: { persistSession: false, autoRefreshToken: false, ...options.auth },
    realtime: { transport: WebSocket as never, ...options.realtime },
  });
}

/**
 * A user in auth.users (as GoTrue would insert it) and an access token signed
 * by the stack, for suites that act as users without going through /auth/v1.
 */
export async function newUser(stack: RunningStack, expiresIn = 3600): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  await stack.stack.db.query(
    "insert into auth.users (id, aud, role, email) values ($1, 'authenticated', 'authenticated', $2)",
    [id, `${id}@example.test`],
  );
  const token = await stack.stack.keys.sign({
    sub: id,
    role: "authenticated",
    aud: "authenticated",
    email: `${id}@example.test`,
    exp: Math.floor(Date.now() / 1000) + expiresIn,
  });
  return { id, token };
}
