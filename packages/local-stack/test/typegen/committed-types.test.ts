import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { generatedTypesFile, generateProjectTypes } from "../../src/typegen/database-types.js";

// The SDK's committed `Database` type must match Engram's migrations.

const engramSupabaseDir = fileURLToPath(new URL("../../../../supabase/", import.meta.url));
const committedFile = fileURLToPath(new URL("../../../sdk/src/database.types.ts", import.meta.url));

test("packages/sdk/src/database.types.ts is what `pnpm db:types` generates from supabase/migrations", async () => {
  const generated = generatedTypesFile(await generateProjectTypes(engramSupabaseDir));
  const committed = await readFile(committedFile, "utf8");
  expect(committed, "run `pnpm db:types` and commit the result").toBe(generated);
});
