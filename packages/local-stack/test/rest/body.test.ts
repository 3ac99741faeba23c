import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, newUser, stackPerFile } from "../support/stack.js";

// A JSON body nested thousands of levels deep is valid JSON, but the server
// must refuse it as PostgREST refuses a body it cannot use (400 PGRST102)
// instead of running out of stack, and keep answering.

const running = stackPerFile();
let user: { id: string; token: string };
beforeAll(async () => {
  user = await newUser(running);
});

const nestedArray = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

async function post(path: string, body: string) {
  const res = await fetch(`${running.url}/rest/v1/${path}`, {
    method: "POST",
    headers: {
      apikey: running.anonKey,
      Authorization: `Bearer ${user.token}`,
      "Content-Type": "application/json",
      Prefer: "return=representation",
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

const refused = {
  code: "PGRST102",
  message: "Empty or invalid json",
  details: "JSON nested more than 1000 levels deep",
  hint: null,
};

describe("deeply nested JSON bodies", () => {
  it.each([
    ["an array 100,000 deep in a row", () => `{"body":"x","extra":${nestedArray(100_000)}}`],
    ["an object 20,000 deep in a row", () => `{"body":${nestedObject(20_000)}}`],
    ["rows in an array nested 5,000 deep", () => nestedArray(5_000)],
  ])("refuses %s with 400 PGRST102 and inserts nothing", async (_, body) => {
    const admin = clientFor(running, running.serviceRoleKey);
    const before = await admin.from("notes").select("*", { count: "exact", head: true });
    const answer = await post("notes", body());
    expect(answer).toEqual({ status: 400, body: refused });
    const after = await admin.from("notes").select("*", { count: "exact", head: true });
    expect(after.count).toBe(before.count);
  });

  it("refuses RPC arguments nested 10,000 deep with 400 PGRST102", async () => {
    expect(await post("rpc/greet", `{"name":${nestedArray(10_000)}}`)).toEqual({ status: 400, body: refused });
    expect(await post("rpc/echo", nestedObject(10_000))).toEqual({ status: 400, body: refused });
  });

  it("refuses it through supabase-js with the same error, then answers the next request", async () => {
    // supabase-js serialises with JSON.stringify, which itself gives out a few thousand levels down.
    let deep: unknown = 1;
    for (let i = 0; i < 1500; i += 1) deep = [deep];
    const db = clientFor(running, running.anonKey, {
      global: { headers: { Authorization: `Bearer ${user.token}` } },
    });
    const { error, status } = await db.rpc("echo", deep as never);
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "PGRST102" });
    const { data, error: next } = await db.rpc("greet", { name: "again" });
    expect(next).toBeNull();
    expect(data).toBe("hello again");
  });

  it("accepts a body nested 1,000 deep, brackets inside strings not counted", async () => {
    const inString = `"${"[{".repeat(5000)}\\"]"`;
    const answer = await post("rpc/echo", `{"text":${inString},"deep":${nestedArray(998)}}`);
    expect(answer.status).toBe(200);
    expect((answer.body as { text: string }).text).toBe(`${"[{".repeat(5000)}"]`);
  });
});
