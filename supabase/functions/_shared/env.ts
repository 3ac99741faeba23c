/** The function environment, read the same way in Supabase's Deno runtime and in the Node local stack. */

type EnvName = "SUPABASE_URL" | "SUPABASE_ANON_KEY" | "SUPABASE_SERVICE_ROLE_KEY";

interface DenoEnv {
  Deno?: { env: { get(name: string): string | undefined } };
}

/** The value of `name`; throws when it is missing, since no function can work without these. */
export function env(name: EnvName): string {
  const deno = (globalThis as DenoEnv).Deno;
  const value = deno ? deno.env.get(name) : globalThis.process?.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
