import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;
beforeAll(() => {
  db = clientFor(running);
});

describe("rpc", () => {
  it("returns a scalar function's bare value", async () => {
    const { data, error, status } = await db.rpc("add_them", { a: 1, b: 2 });
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toBe(3);
  });

  it("calls with GET and query arguments", async () => {
    const { data, error } = await db.rpc("add_them", { a: 40, b: 2 }, { get: true });
    expect(error).toBeNull();
    expect(data).toBe(42);
  });

  it("uses argument defaults", async () => {
    expect((await db.rpc("greet")).data).toBe("hello world");
    expect((await db.rpc("greet", { name: "you" })).data).toBe("hello you");
    expect((await db.rpc("greet", { name: "eq.x" }, { get: true })).data).toBe("hello eq.x");
  });

  it("returns rows of a set-returning function, with filters, order, limit and embeds", async () => {
    const { data, error } = await db
      .rpc("messages_in", { channel_slug: "general" })
      .select("id,author:users(username)")
      .gt("id", 1)
      .order("id", { ascending: false })
      .limit(1);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 3, author: { username: "carol" } }]);
  });

  it("counts a set-returning function's rows", async () => {
    const { count, status } = await db.rpc("messages_in", { channel_slug: "general" }, { count: "exact" }).range(0, 0);
    expect(count).toBe(3);
    expect(status).toBe(206);
  });

  it("filters a set-returning function called with GET", async () => {
    const { data, error } = await db
      .rpc("messages_in", { channel_slug: "general" }, { get: true })
      .in("id", [1, 3])
      .order("id");
    expect(error).toBeNull();
    expect((data as { id: number }[] | null)?.map((m) => m.id)).toEqual([1, 3]);
  });

  it("counts with HEAD and returns no body", async () => {
    const { data, count, error } = await db.rpc(
      "messages_in",
      { channel_slug: "general" },
      { head: true, count: "exact" },
    );
    expect(error).toBeNull();
    expect(data).toBeNull();
    expect(count).toBe(3);
  });

  it("returns one row of a set-returning function with single()", async () => {
    const { data, error } = await db.rpc("messages_in", { channel_slug: "random" }).select("body").single();
    expect(error).toBeNull();
    expect(data).toEqual({ body: "Random thoughts" });
  });

  it("returns RETURNS TABLE rows as objects", async () => {
    const { data, error } = await db.rpc("message_counts").eq("username", "bob");
    expect(error).toBeNull();
    expect(data).toEqual([{ username: "bob", total: 2 }]);
  });

  it("returns a set of scalars as an array of values", async () => {
    const { data, error } = await db.rpc("channel_ids");
    expect(error).toBeNull();
    expect(data).toEqual([1, 2, 3]);
  });

  it("answers 204 for a void function and runs it", async () => {
    const { data, error, status } = await db.rpc("log_event", { name: "from-rpc" });
    expect(error).toBeNull();
    expect(status).toBe(204);
    expect(data).toBeNull();
    const { data: rows } = await db.from("events").select("name").eq("name", "from-rpc");
    expect(rows).toEqual([{ name: "from-rpc" }]);
  });

  it("passes the whole body to a single unnamed jsonb parameter", async () => {
    const { data, error } = await db.rpc("echo", { any: ["thing", 1], nested: { ok: true } });
    expect(error).toBeNull();
    expect(data).toEqual({ any: ["thing", 1], nested: { ok: true } });
  });

  it("runs as the JWT's role with its claims", async () => {
    const sub = "00000000-0000-0000-0000-000000000009";
    const token = await running.stack.keys.sign({
      sub,
      role: "authenticated",
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const user = clientFor(running, running.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
    expect((await user.rpc("whoami")).data).toMatchObject({ role: "authenticated", sub, method: "POST" });
    expect((await db.rpc("whoami", undefined, { get: true })).data).toMatchObject({
      role: "anon",
      sub: null,
      method: "GET",
    });
  });

  it("sets the transaction's time zone from Prefer: timezone, ignoring unknown zones", async () => {
    const call = async (zone: string) => {
      const res = await fetch(`${running.url}/rest/v1/rpc/whoami`, {
        headers: { apikey: running.anonKey, Prefer: `timezone=${zone}` },
      });
      return ((await res.json()) as { timezone: string }).timezone;
    };
    expect(await call("America/Los_Angeles")).toBe("America/Los_Angeles");
    expect(await call("Mars/Olympus")).not.toBe("Mars/Olympus");
  });

  it("refuses a volatile function over GET with 405 (read-only transaction)", async () => {
    const { status, error } = await db.rpc("log_event", { name: "nope" }, { get: true });
    expect(status).toBe(405);
    expect(error?.code).toBe("25006");
  });

  it("maps a PTxyz SQLSTATE to that HTTP status", async () => {
    const { status, error } = await db.rpc("fail_with_payment");
    expect(status).toBe(402);
    expect(error).toMatchObject({ code: "PT402", message: "Payment required" });
  });

  it("reports an unknown function or argument set as 404 PGRST202", async () => {
    const missing = await db.rpc("no_such_fn");
    expect(missing.status).toBe(404);
    expect(missing.error?.code).toBe("PGRST202");
    const wrongArgs = await db.rpc("add_them", { a: 1, c: 2 });
    expect(wrongArgs.status).toBe(404);
    expect(wrongArgs.error).toMatchObject({
      code: "PGRST202",
      message: "Could not find the function public.add_them(a, c) in the schema cache",
    });
  });

  it("reports overloads it cannot choose between as 300 PGRST203", async () => {
    const { status, error } = await db.rpc("twin", { x: 1 });
    expect(status).toBe(300);
    expect(error?.code).toBe("PGRST203");
  });

  it("answers 400 for an argument of the wrong type", async () => {
    const { status, error } = await db.rpc("add_them", { a: "one", b: 2 });
    expect(status).toBe(400);
    expect(error?.code).toBe("22P02");
  });

  it("counts a scalar function's and a set of scalars' values, also with HEAD", async () => {
    const scalar = await db.rpc("add_them", { a: 1, b: 2 }, { count: "exact" });
    expect(scalar).toMatchObject({ data: 3, count: 1, status: 200 });
    const set = await db.rpc("channel_ids", undefined, { count: "exact" });
    expect(set).toMatchObject({ data: [1, 2, 3], count: 3, status: 200 });
    const head = await db.rpc("channel_ids", undefined, { head: true, count: "exact" });
    expect(head).toMatchObject({ data: null, count: 3, error: null });
    const res = await fetch(`${running.url}/rest/v1/rpc/channel_ids`, {
      method: "POST",
      headers: { apikey: running.anonKey, Prefer: "count=exact" },
    });
    expect(res.headers.get("content-range")).toBe("0-2/3");
  });

  it("enforces max-affected with handling=strict on a function's rows and rolls the call back", async () => {
    const service = clientFor(running, running.serviceRoleKey);
    // As postgrest-js maxAffected() sends it (typed only for PostgREST 13 clients).
    const strict = "handling=strict,max-affected=2";
    const over = await service.rpc("log_events", { names: ["max-1", "max-2", "max-3"] }).setHeader("Prefer", strict);
    expect(over.status).toBe(400);
    expect(over.error).toEqual({
      code: "PGRST124",
      message: "Query result exceeds max-affected preference constraint",
      details: "The query affects 3 rows",
      hint: null,
    });
    const { count } = await service.from("events").select("*", { count: "exact", head: true }).like("name", "max-*");
    expect(count).toBe(0);
    const within = await service
      .rpc("log_events", { names: ["max-4", "max-5"] })
      .select("name")
      .setHeader("Prefer", strict);
    expect(within.error).toBeNull();
    expect(within.data).toEqual([{ name: "max-4" }, { name: "max-5" }]);
  });

  it("refuses other methods with 405 PGRST101", async () => {
    const res = await fetch(`${running.url}/rest/v1/rpc/add_them`, {
      method: "DELETE",
      headers: { apikey: running.anonKey },
    });
    expect(res.status).toBe(405);
    expect(((await res.json()) as { code: string }).code).toBe("PGRST101");
  });
});
