/**
 * `pnpm dev` starts the local stack and the app at once; the stack writes
 * `.engram/.env` (the app's VITE_SUPABASE_*) when it is ready. This waits until
 * that file names a stack that answers, so Vite starts with the right settings.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const envFile = fileURLToPath(new URL("../../../.engram/.env", import.meta.url));
const timeoutMs = 120_000;
const started = Date.now();

async function stackUrl() {
  const text = await readFile(envFile, "utf8").catch(() => "");
  return /^SUPABASE_URL=(.+)$/m.exec(text)?.[1]?.trim();
}

async function answers(url) {
  const response = await fetch(`${url}/health`).catch(() => null);
  return response?.ok === true;
}

let announced = false;
for (;;) {
  const url = await stackUrl();
  if (url && (await answers(url))) {
    console.log(`Local stack is up at ${url}.`);
    break;
  }
  if (Date.now() - started > timeoutMs) {
    console.error(
      `The local stack did not start within ${timeoutMs / 1000} s (waiting for ${envFile}). Try \`pnpm stack\`.`,
    );
    process.exit(1);
  }
  if (!announced) {
    console.log("Waiting for the local stack…");
    announced = true;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
