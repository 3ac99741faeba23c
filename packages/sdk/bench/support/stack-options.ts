import { fileURLToPath } from "node:url";
import { liftAuthRateLimits, type StartOptions } from "@engram/local-stack";

/** What a bench starts its stack with, in this process or another. */
export function benchStackOptions(): StartOptions {
  const databaseUrl = process.env.ENGRAM_BENCH_DATABASE_URL;
  return {
    supabaseDir: fileURLToPath(new URL("../../../../supabase/", import.meta.url)),
    dataDir: null,
    ...(databaseUrl ? { databaseUrl } : {}),
    port: 0,
    configure: liftAuthRateLimits,
  };
}
