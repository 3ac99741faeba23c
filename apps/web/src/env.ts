/**
 * The app's configuration, read and checked once. Vite inlines `VITE_*` values
 * at build time (from `.engram/.env`, written by the local stack, or the
 * process environment); nothing else reads `import.meta.env`.
 */

export interface Env {
  supabaseUrl: string;
  supabaseAnonKey: string;
}

function required(name: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new Error(`${name} is not set. Start the local stack (pnpm stack) or set it in the environment.`);
  }
  return value.trim();
}

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be a URL, got "${value}".`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be an http(s) URL.`);
  return url.origin;
}

export function readEnv(source: Record<string, unknown>): Env {
  return {
    supabaseUrl: httpUrl("VITE_SUPABASE_URL", required("VITE_SUPABASE_URL", source.VITE_SUPABASE_URL)),
    supabaseAnonKey: required("VITE_SUPABASE_ANON_KEY", source.VITE_SUPABASE_ANON_KEY),
  };
}

export const env: Env = readEnv(import.meta.env);
