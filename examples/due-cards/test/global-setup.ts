/** One local stack for the example's tests, over the real `supabase/` project with its seeded demo user. */
import { fileURLToPath } from "node:url";
import { startStack } from "@engram/local-stack";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    stack: { url: string; anonKey: string };
  }
}

export default async function setup(project: TestProject) {
  const stack = await startStack({
    supabaseDir: fileURLToPath(new URL("../../../supabase/", import.meta.url)),
    dataDir: null,
    port: 0,
  });
  project.provide("stack", { url: stack.url, anonKey: stack.anonKey });
  return () => stack.close();
}
