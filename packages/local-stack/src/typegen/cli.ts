/**
 * `pnpm db:types [out-file]`: writes Engram's generated `Database` type
 * (default `packages/sdk/src/database.types.ts`) from `supabase/migrations`.
 */
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { findSupabaseDir } from "../paths.js";
import { generatedTypesFile, generateProjectTypes } from "./database-types.js";

const supabaseDir = findSupabaseDir();
const outFile = resolve(process.argv[2] ?? join(dirname(supabaseDir), "packages/sdk/src/database.types.ts"));
const types = await generateProjectTypes(supabaseDir);
await writeFile(outFile, generatedTypesFile(types));
console.log(`Wrote ${outFile}`);
