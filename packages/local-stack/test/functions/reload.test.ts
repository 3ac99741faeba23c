import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunningStack } from "../../src/server.js";
import { clientFor, fixtureSupabaseDir, startTestStack } from "../support/stack.js";

// Editing a function in dev takes effect on the next request, as with `supabase functions serve`.

let stack: RunningStack;
let projectDir: string;
beforeAll(async () => {
  projectDir = await mkdtemp(join(tmpdir(), "engram-functions-"));
  await cp(fixtureSupabaseDir, projectDir, { recursive: true });
  stack = await startTestStack({ supabaseDir: projectDir });
});
afterAll(async () => {
  await stack.close();
  await rm(projectDir, { recursive: true, force: true });
});

const handlerSource = (answer: string) =>
  `export default async function handler() { return Response.json({ answer: ${JSON.stringify(answer)} }); }\n`;

async function answer(name: string) {
  const { data, error } = await clientFor(stack).functions.invoke<{ answer: string }>(name);
  return error ? (error.context as Response).status : data?.answer;
}

async function eventually(check: () => Promise<unknown>, expected: unknown) {
  for (let attempt = 0; attempt < 50; attempt++) {
    if ((await check()) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await check()).toBe(expected);
}

test("a function folder added while the stack runs is served", async () => {
  expect(await answer("later")).toBe(404);
  await mkdir(join(projectDir, "functions", "later"));
  await writeFile(join(projectDir, "functions", "later", "handler.ts"), handlerSource("first"));
  expect(await answer("later")).toBe("first");
});

test("editing a handler is picked up on a following request", async () => {
  const folder = join(projectDir, "functions", "edited");
  await mkdir(folder);
  await writeFile(join(folder, "handler.ts"), handlerSource("before"));
  expect(await answer("edited")).toBe("before");
  await writeFile(join(folder, "handler.ts"), handlerSource("after"));
  await eventually(() => answer("edited"), "after");
});

test("a handler that fails to load answers 503 BOOT_ERROR, and works once fixed", async () => {
  const folder = join(projectDir, "functions", "broken");
  await mkdir(folder);
  await writeFile(join(folder, "handler.ts"), "export default async function handler( {\n");
  const response = await fetch(`${stack.url}/functions/v1/broken`, {
    method: "POST",
    headers: { apikey: stack.anonKey },
  });
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({ code: "BOOT_ERROR", message: "Worker failed to boot (please check logs)" });
  await writeFile(join(folder, "handler.ts"), handlerSource("fixed"));
  await eventually(() => answer("broken"), "fixed");
});

test("a removed function folder answers 404", async () => {
  const folder = join(projectDir, "functions", "removed");
  await mkdir(folder);
  await writeFile(join(folder, "handler.ts"), handlerSource("here"));
  expect(await answer("removed")).toBe("here");
  await rm(folder, { recursive: true });
  expect(await answer("removed")).toBe(404);
});
