import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../support/cli-command.js";
import { clientFor, stackPerFile } from "../support/stack.js";

// Engram's functions under real Deno, each with its own deno.json, as
// `supabase functions serve` runs them: Node-only code cannot slip in. Deno
// is the `deno` npm package of @engram/database; its npm: imports come from
// the npm registry once and then from Deno's cache, pinned by deno.lock.

const supabaseDir = fileURLToPath(new URL("../../../../supabase/", import.meta.url));
const functionsDir = join(supabaseDir, "functions");
const deno = join(supabaseDir, "node_modules", ".bin", "deno");
const run = promisify(execFile);
// Deno trusts only its own copy of Mozilla's roots unless told otherwise; behind a
// proxy with its own CA (installed in the system store) the npm registry needs both.
const denoEnv = { ...process.env, DENO_TLS_CA_STORE: process.env.DENO_TLS_CA_STORE ?? "mozilla,system", NO_COLOR: "1" };
const denoOptions = { cwd: supabaseDir, env: denoEnv };

async function functionNames(): Promise<string[]> {
  const entries = await readdir(functionsDir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith("_")).map((e) => e.name);
}

/** Runs `supabase/functions/<name>/index.ts` under Deno on a free port; resolves once it listens. */
async function serveFunction(
  name: string,
  env: Record<string, string>,
): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const dir = join(functionsDir, name);
  const child = spawn(
    deno,
    ["run", "--frozen", "--config", join(dir, "deno.json"), "--allow-net", "--allow-env", join(dir, "index.ts")],
    {
      cwd: supabaseDir,
      env: { ...denoEnv, ...env, DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}` },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: the npm package's launcher runs deno as a child it does not pass signals to.
      detached: true,
    },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Listening on")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`deno exited with ${code} before listening:\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, process: child };
}

describe("every function's module graph", () => {
  test("type-checks under deno check with its own deno.json", async () => {
    const names = await functionNames();
    expect(names).toContain("delete-account");
    for (const name of names) {
      const dir = join(functionsDir, name);
      // Resolves only when deno exits with 0: every module type-checks and deno.lock matches.
      await expect(
        run(deno, ["check", "--frozen", "--config", join(dir, "deno.json"), join(dir, "index.ts")], denoOptions),
        name,
      ).resolves.toBeDefined();
    }
  }, 300_000);

  test("refuses Node-only code: a package Node finds in node_modules but the import map lacks", async () => {
    const dir = await mkdtemp(join(tmpdir(), "engram-deno-"));
    await writeFile(join(dir, "deno.json"), JSON.stringify({ imports: {} }));
    await writeFile(join(dir, "index.ts"), 'import pg from "pg";\nDeno.serve(() => Response.json(Object.keys(pg)));\n');
    await expect(
      run(deno, ["check", "--no-lock", "--config", join(dir, "deno.json"), join(dir, "index.ts")], denoOptions),
    ).rejects.toMatchObject({ stderr: expect.stringMatching(/Import "pg" not a dependency and not in import map/) });
  }, 120_000);
});

describe("delete-account under Deno", () => {
  const stack = stackPerFile({ supabaseDir });
  let fn: { url: string; process: ChildProcess };
  beforeAll(async () => {
    fn = await serveFunction("delete-account", {
      SUPABASE_URL: stack.url,
      SUPABASE_ANON_KEY: stack.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    });
  }, 300_000);
  afterAll(() => {
    if (fn?.process.pid) process.kill(-fn.process.pid);
  });

  async function signedInUserWithDeck() {
    const email = `deno-${crypto.randomUUID()}@example.com`;
    const password = "correct horse battery";
    const created = await clientFor(stack, stack.serviceRoleKey).auth.admin.createUser({
      email,
      password,
      email_confirm: true,
    });
    if (created.error || !created.data.user) throw created.error ?? new Error("no user");
    const client = clientFor(stack);
    const signIn = await client.auth.signInWithPassword({ email, password });
    if (signIn.error) throw signIn.error;
    const { data: deck, error } = await client.from("decks").insert({ name: "Deno" }).select("id").single();
    if (error) throw error;
    return { id: created.data.user.id, deckId: deck.id as string, token: signIn.data.session.access_token };
  }

  const countOf = async (sql: string, id: string) =>
    (await stack.stack.db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, [id]))[0]?.n;

  test("deletes the calling user; their profile and decks go with them", async () => {
    const leaving = await signedInUserWithDeck();
    const staying = await signedInUserWithDeck();
    const response = await fetch(fn.url, { method: "POST", headers: { authorization: `Bearer ${leaving.token}` } });
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 200,
      body: { deleted: true },
    });
    expect(await countOf("auth.users where id = $1", leaving.id)).toBe(0);
    expect(await countOf("public.profiles where id = $1", leaving.id)).toBe(0);
    expect(await countOf("public.decks where id = $1", leaving.deckId)).toBe(0);
    expect(await countOf("public.decks where id = $1", staying.deckId)).toBe(1);
  });

  test("refuses a caller without a user session (401) and other methods (405)", async () => {
    const anonymous = await fetch(fn.url, { method: "POST", headers: { authorization: `Bearer ${stack.anonKey}` } });
    expect({ status: anonymous.status, body: await anonymous.json() }).toMatchObject({
      status: 401,
      body: { code: "not_authenticated" },
    });
    const get = await fetch(fn.url);
    expect(get.status).toBe(405);
    await get.body?.cancel();
  });
});
