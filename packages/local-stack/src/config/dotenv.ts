/**
 * The variables `env(NAME)` in config.toml can read, as the CLI gathers them:
 * the process environment first, then `.env` files in the supabase directory
 * and the project directory above it (`.env.<SUPABASE_ENV>.local`,
 * `.env.local` except for the "test" environment, `.env.<SUPABASE_ENV>`,
 * `.env`; SUPABASE_ENV defaults to "development"). A variable already set
 * wins over a later file, as godotenv leaves set variables alone.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseEnv } from "node:util";
import type { Env } from "./values.js";

export async function configEnv(supabaseDir: string, env: Env = process.env): Promise<Env> {
  const name = env.SUPABASE_ENV || "development";
  const files = [`.env.${name}.local`, ...(name === "test" ? [] : [".env.local"]), `.env.${name}`, ".env"];
  const merged: Env = { ...env };
  for (const dir of [supabaseDir, dirname(supabaseDir)]) {
    for (const file of files) {
      const text = await readFile(join(dir, file), "utf8").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "EISDIR") return null;
        throw error;
      });
      if (text === null) continue;
      for (const [key, value] of Object.entries(parseEnv(text))) {
        if (merged[key] === undefined) merged[key] = value;
      }
    }
  }
  return merged;
}
