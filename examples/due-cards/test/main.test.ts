import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, inject, test } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const stack = inject("stack");

// Node with tsx's loader runs the program as `pnpm start` does, without a pnpm process to start first.
function program(env: Record<string, string>) {
  return run(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: root,
    env: { ...process.env, SUPABASE_URL: stack.url, SUPABASE_ANON_KEY: stack.anonKey, ...env },
  });
}

test("the program signs in as the demo user and prints today's cards per deck from the built SDK", async () => {
  const { stdout } = await program({});
  expect(stdout).toMatch(/^demo@engram\.local: \d+ cards due today$/m);
  expect(stdout).toMatch(/^- World capitals: \d+ \(\d+ new, \d+ learning, \d+ review\)$/m);
  expect(stdout).toMatch(/^- Common Spanish words: \d+ /m);
});

test("a wrong password ends with the SDK's error code and a failing exit status", async () => {
  const failure = await program({ ENGRAM_PASSWORD: "not the password" }).catch(
    (error: { code: number; stderr: string }) => error,
  );
  expect(failure).toMatchObject({ code: 1 });
  expect((failure as { stderr: string }).stderr).toMatch(/^auth\/invalid-credentials: /m);
});
