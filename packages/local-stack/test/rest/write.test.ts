import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;
beforeAll(() => {
  db = clientFor(running);
});

const alice = "00000000-0000-0000-0000-000000000001";
const bob = "00000000-0000-0000-0000-000000000002";

describe("insert", () => {
  it("inserts one object with 201 and no body by default", async () => {
    const { data, error, status } = await db.from("events").insert({ name: "plain" });
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toBeNull();
    const { data: rows } = await db.from("events").select("name").eq("name", "plain");
    expect(rows).toEqual([{ name: "plain" }]);
  });

  it("returns the inserted rows through select() with embeds", async () => {
    const { data, error, status } = await db
      .from("messages")
      .insert({ body: "new here", channel_id: 2, author_id: alice })
      .select("body,author:users(username)");
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual([{ body: "new here", author: { username: "alice" } }]);
  });

  it("inserts arrays, filling missing keys with null or, with defaultToNull false, the default", async () => {
    const { data, error } = await db
      .from("channels")
      .insert([{ slug: "a-1", kind: "private" }, { slug: "a-2" }], { defaultToNull: false })
      .select("slug,kind");
    expect(error).toBeNull();
    expect(data).toEqual([
      { slug: "a-1", kind: "private" },
      { slug: "a-2", kind: "public" },
    ]);
    const nulls = await db
      .from("users")
      .insert([
        { id: "00000000-0000-0000-0000-0000000000a1", username: "n1", status: "x" },
        { id: "00000000-0000-0000-0000-0000000000a2", username: "n2" },
      ])
      .select("username,status");
    expect(nulls.data).toEqual([
      { username: "n1", status: "x" },
      { username: "n2", status: null },
    ]);
  });

  it("inserts a row of defaults from an empty object", async () => {
    const res = await fetch(`${running.url}/rest/v1/notes`, {
      method: "POST",
      headers: { apikey: running.serviceRoleKey, "Content-Type": "application/json", Prefer: "return=representation" },
      body: "{}",
    });
    // owner_id defaults to auth.uid(), null for the service role: the not-null constraint answers.
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("23502");
  });

  it("rejects an unknown name in columns with PGRST204", async () => {
    const { error, status } = await db.from("events").insert([{ name: "a" }, { name: "b", bogus: 1 }]);
    expect(status).toBe(400);
    expect(error?.code).toBe("PGRST204");
  });

  it("returns a single inserted object with single()", async () => {
    const { data, error } = await db.from("events").insert({ name: "one" }).select("name").single();
    expect(error).toBeNull();
    expect(data).toEqual({ name: "one" });
  });

  it("counts inserted rows", async () => {
    const { count, error } = await db.from("events").insert([{ name: "c1" }, { name: "c2" }], { count: "exact" });
    expect(error).toBeNull();
    expect(count).toBe(2);
  });

  it("answers 409 on a unique violation and changes nothing", async () => {
    const { error, status } = await db
      .from("users")
      .insert({ id: "00000000-0000-0000-0000-0000000000b1", username: "alice" });
    expect(status).toBe(409);
    expect(error?.code).toBe("23505");
    const { count } = await db.from("users").select("*", { count: "exact", head: true }).eq("username", "alice");
    expect(count).toBe(1);
  });

  it("answers 400 for a check or not-null violation", async () => {
    expect((await db.from("messages").insert({ body: "", channel_id: 1, author_id: alice })).error?.code).toBe("23514");
    const notNull = await db.from("events").insert({ name: null });
    expect(notNull.status).toBe(400);
    expect(notNull.error?.code).toBe("23502");
  });

  it("answers 409 on a foreign-key violation", async () => {
    const { status, error } = await db.from("messages").insert({ body: "x", channel_id: 999, author_id: alice });
    expect(status).toBe(409);
    expect(error?.code).toBe("23503");
  });

  it("rejects an unknown column with PGRST204", async () => {
    const { status, error } = await db.from("events").insert({ name: "x", nope: 1 });
    expect(status).toBe(400);
    expect(error).toMatchObject({
      code: "PGRST204",
      message: "Could not find the 'nope' column of 'events' in the schema cache",
    });
  });

  it("rejects a value of the wrong type with 22P02", async () => {
    const { status, error } = await db.from("users").insert({ id: "not-a-uuid", username: "zz" });
    expect(status).toBe(400);
    expect(error?.code).toBe("22P02");
  });

  it("returns a Location with return=headers-only", async () => {
    const res = await fetch(`${running.url}/rest/v1/events`, {
      method: "POST",
      headers: { apikey: running.anonKey, "Content-Type": "application/json", Prefer: "return=headers-only" },
      body: JSON.stringify({ id: 5000, name: "located" }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/events?id=eq.5000");
  });

  it("bulk-inserts a CSV body, NULL meaning null", async () => {
    const res = await fetch(`${running.url}/rest/v1/users?select=username,full_name,age,tags`, {
      method: "POST",
      headers: {
        apikey: running.anonKey,
        "Content-Type": "text/csv",
        Prefer: "return=representation",
      },
      body: 'id,username,full_name,age,tags\n00000000-0000-0000-0000-0000000000d1,csv1,"Doe, Jane",62,"{a,b}"\n00000000-0000-0000-0000-0000000000d2,csv2,NULL,NULL,{}\n',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([
      { username: "csv1", full_name: "Doe, Jane", age: 62, tags: ["a", "b"] },
      { username: "csv2", full_name: null, age: null, tags: [] },
    ]);
  });

  it("rejects invalid JSON with PGRST102", async () => {
    const res = await fetch(`${running.url}/rest/v1/events`, {
      method: "POST",
      headers: { apikey: running.anonKey, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("PGRST102");
  });
});

describe("bulk insert with missing keys", () => {
  it("fills a key missing from some objects with null by default", async () => {
    const { data, error } = await db
      .from("tallies")
      .insert([
        { name: "null-1", total: 1, note: "a" },
        { name: "null-2", total: 2 },
      ])
      .select("name, total, note");
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: "null-1", total: 1, note: "a" },
      { name: "null-2", total: 2, note: null },
    ]);
  });

  it("gives it the column default with defaultToNull: false (Prefer: missing=default), identity columns too", async () => {
    const { data, error } = await db
      .from("tallies")
      .insert(
        [
          { name: "default-1", note: "kept" },
          { name: "default-2", total: 3 },
        ],
        { defaultToNull: false },
      )
      .select("name, total, note");
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: "default-1", total: 7, note: "kept" },
      { name: "default-2", total: 3, note: "fresh" },
    ]);
    const channels = await db
      .from("channels")
      .insert(
        [
          { id: 900, slug: "missing-1" },
          { slug: "missing-2", kind: "private" },
        ],
        { defaultToNull: false },
      )
      .select("slug, kind, id");
    expect(channels.error).toBeNull();
    const [first, second] = channels.data ?? [];
    expect(first).toEqual({ slug: "missing-1", kind: "public", id: 900 });
    expect(second).toMatchObject({ slug: "missing-2", kind: "private" });
    expect(typeof second?.id).toBe("number");
  });

  it("inserts only the columns= it names and leaves the others to their defaults", async () => {
    const res = await fetch(`${running.url}/rest/v1/tallies?columns=name,note`, {
      method: "POST",
      headers: {
        apikey: running.anonKey,
        "Content-Type": "application/json",
        Prefer: "return=representation",
      },
      body: JSON.stringify([{ name: "cols-1", total: 99, note: "n" }]),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([{ name: "cols-1", total: 7, note: "n" }]);
  });
});

describe("upsert", () => {
  it("merges duplicates on the primary key: 200 when it only updated, 201 when it inserted any row", async () => {
    await db.from("slots").insert({ id: 50, during: "[1,2)" });
    const { data, error, status } = await db.from("slots").upsert({ id: 50, during: "[3,4)" }).select();
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([{ id: 50, during: "[3,4)" }]);
    const mixed = await db
      .from("slots")
      .upsert([
        { id: 50, during: "[4,5)" },
        { id: 52, during: "[5,6)" },
      ])
      .select("id");
    expect(mixed.status).toBe(201);
    expect(mixed.data).toEqual([{ id: 50 }, { id: 52 }]);
    const fresh = await db.from("slots").upsert({ id: 53, during: "[1,2)" });
    expect(fresh.status).toBe(201);
    const updatedOnly = await db.from("slots").upsert({ id: 53, during: "[2,3)" });
    expect(updatedOnly.error).toBeNull();
    expect(updatedOnly.status).toBe(200);
    expect(updatedOnly.data).toBeNull();
  });

  it("merges on the on_conflict columns", async () => {
    await db.from("channels").insert({ slug: "upsert-me" });
    const { data, error } = await db
      .from("channels")
      .upsert({ slug: "upsert-me", kind: "private" }, { onConflict: "slug" })
      .select("slug,kind");
    expect(error).toBeNull();
    expect(data).toEqual([{ slug: "upsert-me", kind: "private" }]);
  });

  it("ignores duplicates with ignoreDuplicates", async () => {
    await db.from("slots").insert({ id: 51, during: "[1,2)" });
    const { data, error } = await db
      .from("slots")
      .upsert({ id: 51, during: "[8,9)" }, { ignoreDuplicates: true })
      .select();
    expect(error).toBeNull();
    expect(data).toEqual([]);
    const { data: kept } = await db.from("slots").select("during").eq("id", 51).single();
    expect(kept).toEqual({ during: "[1,2)" });
  });

  it("upserts one row with PUT addressed by its primary key", async () => {
    const res = await fetch(`${running.url}/rest/v1/slots?id=eq.60`, {
      method: "PUT",
      headers: { apikey: running.anonKey, "Content-Type": "application/json", Prefer: "return=representation" },
      body: JSON.stringify({ id: 60, during: "[6,7)" }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual([{ id: 60, during: "[6,7)" }]);
    const again = await fetch(`${running.url}/rest/v1/slots?id=eq.60`, {
      method: "PUT",
      headers: { apikey: running.anonKey, "Content-Type": "application/json", Prefer: "return=representation" },
      body: JSON.stringify({ id: 60, during: "[7,8)" }),
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual([{ id: 60, during: "[7,8)" }]);
    const bad = await fetch(`${running.url}/rest/v1/slots?id=gt.60`, {
      method: "PUT",
      headers: { apikey: running.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ id: 61, during: "[6,7)" }),
    });
    expect(bad.status).toBe(405);
    expect(((await bad.json()) as { code: string }).code).toBe("PGRST105");
  });
});

describe("update and delete", () => {
  it("updates filtered rows with 204 by default", async () => {
    await db.from("events").insert([{ name: "u1" }, { name: "u1" }, { name: "u2" }]);
    const { status, error } = await db.from("events").update({ name: "u1-done" }).eq("name", "u1");
    expect(error).toBeNull();
    expect(status).toBe(204);
    const { count } = await db.from("events").select("*", { count: "exact", head: true }).eq("name", "u1-done");
    expect(count).toBe(2);
  });

  it("returns updated rows with select() and counts them", async () => {
    const { data, count, status } = await db
      .from("users")
      .update({ status: "busy" }, { count: "exact" })
      .eq("id", bob)
      .select("username,status");
    expect(status).toBe(200);
    expect(count).toBe(1);
    expect(data).toEqual([{ username: "bob", status: "busy" }]);
  });

  it("deletes filtered rows and returns them on request", async () => {
    await db.from("events").insert([{ name: "d1" }, { name: "d1" }]);
    const { data, status } = await db.from("events").delete().eq("name", "d1").select("name");
    expect(status).toBe(200);
    expect(data).toEqual([{ name: "d1" }, { name: "d1" }]);
    const gone = await db.from("events").delete({ count: "exact" }).eq("name", "d1");
    expect(gone.status).toBe(204);
    expect(gone.count).toBe(0);
  });

  it("refuses and rolls back a delete beyond max-affected", async () => {
    // maxAffected() is typed for PostgREST 13+ schemas only, so the header is sent as it would send it.
    await db.from("events").insert([{ name: "m1" }, { name: "m1" }, { name: "m1" }]);
    const del = (max: number) =>
      fetch(`${running.url}/rest/v1/events?name=eq.m1`, {
        method: "DELETE",
        headers: { apikey: running.anonKey, Prefer: `handling=strict, max-affected=${max}` },
      });
    const over = await del(2);
    expect(over.status).toBe(400);
    expect(((await over.json()) as { code: string }).code).toBe("PGRST124");
    const { count } = await db.from("events").select("*", { count: "exact", head: true }).eq("name", "m1");
    expect(count).toBe(3);
    expect((await del(3)).status).toBe(204);
  });

  it("rejects unknown preferences under handling=strict with PGRST122", async () => {
    const res = await fetch(`${running.url}/rest/v1/events`, {
      headers: { apikey: running.anonKey, Prefer: "handling=strict, bogus=1" },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("PGRST122");
  });

  it("limits an update to the first rows in the requested order", async () => {
    const { data: rows } = await db
      .from("events")
      .insert([{ name: "l1" }, { name: "l1" }, { name: "l1" }])
      .select("id");
    const ids = rows?.map((r) => r.id) ?? [];
    const { data, error } = await db
      .from("events")
      .update({ name: "l2" })
      .eq("name", "l1")
      .order("id", { ascending: false })
      .limit(2)
      .select("id");
    expect(error).toBeNull();
    expect(data?.map((r) => r.id).sort()).toEqual(ids.slice(1).sort());
    const left = await db.from("events").delete().eq("name", "l1").select("id");
    expect(left.data).toEqual([{ id: ids[0] }]);
  });

  it("rolls back with tx=rollback but still answers", async () => {
    const { data, error } = await db.from("events").insert({ name: "ghost" }).select("name").rollback();
    expect(error).toBeNull();
    expect(data).toEqual([{ name: "ghost" }]);
    const { count } = await db.from("events").select("*", { count: "exact", head: true }).eq("name", "ghost");
    expect(count).toBe(0);
  });

  it("rolls a write back when single() sees more than one row", async () => {
    await db.from("events").insert([{ name: "s1" }, { name: "s1" }]);
    const { status, error } = await db.from("events").update({ name: "s2" }).eq("name", "s1").select().single();
    expect(status).toBe(406);
    expect(error?.code).toBe("PGRST116");
    const { count } = await db.from("events").select("*", { count: "exact", head: true }).eq("name", "s1");
    expect(count).toBe(2);
  });
});

describe("row-level security", () => {
  const userClient = async (sub: string) => {
    const token = await running.stack.keys.sign({
      sub,
      role: "authenticated",
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    return clientFor(running, running.anonKey, { global: { headers: { Authorization: `Bearer ${token}` } } });
  };

  it("shows anon nothing and each user only their own rows", async () => {
    expect((await db.from("notes").select("body")).data).toEqual([]);
    const asAlice = await userClient(alice);
    expect((await asAlice.from("notes").select("body")).data).toEqual([{ body: "alice note" }]);
  });

  it("rejects an anonymous insert with 401 and another user's row with 403", async () => {
    const anon = await db.from("notes").insert({ owner_id: alice, body: "nope" });
    expect(anon.status).toBe(401);
    expect(anon.error?.code).toBe("42501");
    const asBob = await userClient(bob);
    const forged = await asBob.from("notes").insert({ owner_id: alice, body: "nope" });
    expect(forged.status).toBe(403);
    expect(forged.error?.code).toBe("42501");
  });

  it("fills owner_id from auth.uid() and reads it back", async () => {
    const asBob = await userClient(bob);
    const { data, error } = await asBob.from("notes").insert({ body: "bob again" }).select("owner_id,body").single();
    expect(error).toBeNull();
    expect(data).toEqual({ owner_id: bob, body: "bob again" });
  });

  it("lets the service role bypass RLS", async () => {
    const service = clientFor(running, running.serviceRoleKey);
    const { count } = await service.from("notes").select("*", { count: "exact", head: true });
    expect(count).toBeGreaterThanOrEqual(2);
  });
});
