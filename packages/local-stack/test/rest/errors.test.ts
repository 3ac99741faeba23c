import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;
beforeAll(() => {
  db = clientFor(running);
});

const now = () => Math.floor(Date.now() / 1000);
const sign = (claims: Record<string, unknown>, secret = running.jwtSecret) =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(secret));

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${running.url}/rest/v1/${path}`, { headers: { apikey: running.anonKey, ...headers } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function expectStillAnswering() {
  const { data, error } = await db.from("users").select("username").eq("username", "alice");
  expect(error).toBeNull();
  expect(data).toEqual([{ username: "alice" }]);
}

describe("JWTs", () => {
  it("rejects a token signed with another secret with 401 PGRST301", async () => {
    const token = await sign({ role: "service_role", exp: now() + 600 }, "not-the-project-secret-at-all-0123456789");
    const { status, headers, body } = await get("notes", { Authorization: `Bearer ${token}` });
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: "PGRST301", details: null, hint: null });
    expect(headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token", error_description=".+"$/);
    await expectStillAnswering();
  });

  it("rejects an expired token with 401 PGRST303 JWT expired", async () => {
    const token = await sign({ role: "authenticated", sub: "00000000-0000-0000-0000-000000000001", exp: now() - 3600 });
    const { status, headers, body } = await get("notes", { Authorization: `Bearer ${token}` });
    expect(status).toBe(401);
    expect(body).toEqual({ code: "PGRST303", details: null, hint: null, message: "JWT expired" });
    expect(headers.get("www-authenticate")).toBe('Bearer error="invalid_token", error_description="JWT expired"');
  });

  it("rejects an unsigned (alg none) token", async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const token = `${encode({ alg: "none", typ: "JWT" })}.${encode({ role: "service_role" })}.`;
    const { status, body } = await get("notes", { Authorization: `Bearer ${token}` });
    expect(status).toBe(401);
    expect(body.code).toBe("PGRST301");
  });

  it("rejects a token that is not a JWT", async () => {
    const { status, body } = await get("notes", { Authorization: "Bearer garbage" });
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: "PGRST301", message: "Expected 3 parts in JWT; got 1" });
  });

  it("rejects a write with a forged token and changes nothing", async () => {
    const token = await sign({ role: "service_role" }, "forged-forged-forged-forged-forged-forged");
    const forged = clientFor(running, running.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
    const { status, error } = await forged.from("users").delete().neq("username", "");
    expect(status).toBe(401);
    expect(error?.code).toBe("PGRST301");
    const { count } = await db.from("users").select("*", { count: "exact", head: true });
    expect(count).toBe(3);
  });

  it("refuses a role the API may not switch to (a superuser) with 403", async () => {
    const token = await sign({ role: "postgres", exp: now() + 600 });
    const { status, body } = await get("notes", { Authorization: `Bearer ${token}` });
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "42501", message: 'permission denied to set role "postgres"' });
  });

  it("answers 401 for a role that does not exist", async () => {
    const token = await sign({ role: "superhero", exp: now() + 600 });
    const { status, body } = await get("users", { Authorization: `Bearer ${token}` });
    expect(status).toBe(401);
    expect(body.code).toBe("22023");
  });
});

describe("bad requests", () => {
  it("reports a malformed select as 400 PGRST100", async () => {
    const { status, body } = await get("users?select=username,messages(id");
    expect(status).toBe(400);
    expect(body.code).toBe("PGRST100");
    expect(body.message).toBe("failed to parse select parameter (username,messages(id)");
    await expectStillAnswering();
  });

  it("reports an unknown operator as 400 PGRST100", async () => {
    const { status, body } = await get("users?age=between.1.5");
    expect(status).toBe(400);
    expect(body.code).toBe("PGRST100");
  });

  it("refuses a write to a schema that is not exposed with 406 PGRST106", async () => {
    const { status, error } = await db.schema("auth").from("users").insert({ email: "x@example.com" });
    expect(status).toBe(406);
    expect(error).toMatchObject({
      code: "PGRST106",
      hint: "Only the following schemas are exposed: public, graphql_public",
    });
  });

  it("reports an unknown table as 404 PGRST205", async () => {
    const { error, status } = await db.from("nope").select();
    expect(status).toBe(404);
    expect(error).toMatchObject({
      code: "PGRST205",
      message: "Could not find the table 'public.nope' in the schema cache",
    });
  });

  it("reports a path outside tables and functions as 404 PGRST125", async () => {
    const { status, body } = await get("users/1/extra");
    expect(status).toBe(404);
    expect(body.code).toBe("PGRST125");
  });

  it("reports an unknown column as 400 42703", async () => {
    const { error, status } = await db.from("users").select("username,nope");
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "42703", message: "column users.nope does not exist" });
    const filtered = await db.from("users").select().eq("nope", 1);
    expect(filtered.error?.code).toBe("42703");
    // An embedded table is named by its alias in PostgREST's query: the table and its depth.
    const embedded = await db.from("users").select("username,messages(nope)");
    expect(embedded.error).toMatchObject({ code: "42703", message: "column messages_1.nope does not exist" });
  });

  it("reports a value of the wrong type as 400 22P02", async () => {
    const { error, status } = await db.from("users").select().eq("age", "old");
    expect(status).toBe(400);
    expect(error?.code).toBe("22P02");
  });

  it("reports a filter on an embed that is not selected as PGRST108", async () => {
    const { error, status } = await db.from("users").select("username").eq("messages.id", 1);
    expect(status).toBe(400);
    expect(error?.code).toBe("PGRST108");
  });

  it("reports aggregates as disabled (PGRST123)", async () => {
    const { status, body } = await get("messages?select=count()");
    expect(status).toBe(400);
    expect(body.code).toBe("PGRST123");
  });

  it("refuses a body over the size limit with 413", async () => {
    const res = await fetch(`${running.url}/rest/v1/events`, {
      method: "POST",
      headers: { apikey: running.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(11 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    await expectStillAnswering();
  });

  it("treats identifiers and values as data, never as SQL", async () => {
    const injected = await db.from("users").select('username,"x"";drop table users;--"');
    expect(injected.status).toBe(400);
    const value = await db.from("users").select("username").eq("username", "alice'; drop table users; --");
    expect(value.data).toEqual([]);
    const path = await db.from("users").select("username").eq("profile->>city') or true--", "x");
    expect(path.status).toBe(400);
    const key = await db.from("users").select("username").eq("profile->>city' or true--", "x");
    expect(key.data).toEqual([]);
    await expectStillAnswering();
  });
});

describe("schema cache", () => {
  it("sees tables and functions created after start without a restart", async () => {
    await running.stack.db.exec(`
      create table public.late_table (id int primary key, label text);
      insert into public.late_table values (1, 'late');
      create function public.late_fn() returns int language sql as $$ select 7 $$;
      -- Created by the connection's superuser, whose new objects get no default grants.
      grant select on public.late_table to anon;
      grant execute on function public.late_fn() to anon;
    `);
    const { data, error } = await db.from("late_table").select("label");
    expect(error).toBeNull();
    expect(data).toEqual([{ label: "late" }]);
    expect((await db.rpc("late_fn")).data).toBe(7);
    await running.stack.db.exec("alter table public.late_table add column extra int default 3");
    expect((await db.from("late_table").select("extra")).data).toEqual([{ extra: 3 }]);
  });
});
