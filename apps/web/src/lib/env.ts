/**
 * The app's configuration, read and checked once. Vite inlines `VITE_*` values
 * at build time (from `.engram/.env`, written by the local stack, or the
 * process environment); nothing else reads `import.meta.env`.
 */
import { z } from "zod/mini";

const start = "Start the local stack (pnpm stack) or set it in the environment.";

const envSchema = z.pipe(
  z.object({
    VITE_SUPABASE_URL: z.pipe(
      z.url({ protocol: /^https?$/, error: `VITE_SUPABASE_URL must be an http(s) URL. ${start}` }),
      z.transform((url: string) => new URL(url).origin),
    ),
    VITE_SUPABASE_ANON_KEY: z
      .string({ error: `VITE_SUPABASE_ANON_KEY is not set. ${start}` })
      .check(z.trim(), z.minLength(1, `VITE_SUPABASE_ANON_KEY is not set. ${start}`)),
  }),
  z.transform((source: { VITE_SUPABASE_URL: string; VITE_SUPABASE_ANON_KEY: string }) => ({
    supabaseUrl: source.VITE_SUPABASE_URL,
    supabaseAnonKey: source.VITE_SUPABASE_ANON_KEY,
  })),
);

export type Env = z.output<typeof envSchema>;

export function readEnv(source: Record<string, unknown>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) throw new Error(result.error.issues.map((issue) => issue.message).join(" "));
  return result.data;
}

export const env: Env = readEnv(import.meta.env);
