/**
 * One local stack for the whole SDK suite, over the real `supabase/` project
 * (migrations, seed, functions) with PGlite in memory. Each test makes its own
 * users, so files share the stack safely.
 */
import { fileURLToPath } from "node:url";
import { liftAuthRateLimits, startStack } from "@engram/local-stack";
import type { TestProject } from "vitest/node";

export interface StackInfo {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

export default async function setup(project: TestProject) {
  const stack = await startStack({
    supabaseDir: fileURLToPath(new URL("../../../../supabase/", import.meta.url)),
    dataDir: null,
    port: 0,
    // Every test signs users up and in from 127.0.0.1; Supabase's per-IP limits would trip.
    // The rate-limit mapping is tested against a stack of its own.
    configure: liftAuthRateLimits,
  });
  project.provide("stack", { url: stack.url, anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey });
  return () => stack.close();
}
