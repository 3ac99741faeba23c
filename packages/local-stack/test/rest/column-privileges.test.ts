import { beforeAll, describe, expect, it } from "vitest";
import { clientFor, stackPerFile } from "../support/stack.js";

// `lockers.combination` may be written but not read by anon (fixture
// 20240801000000): PostgREST's RETURNING holds only what the request selects,
// so only a request that asks for the column is refused.

const running = stackPerFile();
let db: ReturnType<typeof clientFor>;
let service: ReturnType<typeof clientFor>;
beforeAll(() => {
  db = clientFor(running);
  service = clientFor(running, running.serviceRoleKey);
});

const combinationOf = async (label: string) =>
  (await service.from("lockers").select("combination").eq("label", label)).data?.map((r) => r.combination);

describe("writes to a table with a column the role may not read", () => {
  it("insert returns the readable columns it selects", async () => {
    const { data, error, status } = await db
      .from("lockers")
      .insert({ label: "gym", combination: "1234" })
      .select("id,label")
      .single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toMatchObject({ label: "gym" });
    expect(Object.keys(data ?? {}).sort()).toEqual(["id", "label"]);
    expect(await combinationOf("gym")).toEqual(["1234"]);
  });

  it("insert without a representation counts its rows without reading them", async () => {
    const { count, error, status } = await db.from("lockers").insert(
      [
        { label: "pool", combination: "1" },
        { label: "pool", combination: "2" },
      ],
      { count: "exact" },
    );
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(count).toBe(2);
  });

  it("a merging upsert answers 201 when it inserts and 200 when it only updates", async () => {
    const first = await db.from("lockers").upsert({ id: 900, label: "upserted" });
    expect(first.error).toBeNull();
    expect(first.status).toBe(201);
    const again = await db.from("lockers").upsert({ id: 900, label: "upserted again" });
    expect(again.error).toBeNull();
    expect(again.status).toBe(200);
    expect(await combinationOf("upserted again")).toEqual(["0000"]);
    // Merging reads the column's proposed value (EXCLUDED), which Postgres refuses, as behind PostgREST.
    const merging = await db.from("lockers").upsert({ id: 900, label: "x", combination: "1" });
    expect(merging.error?.code).toBe("42501");
  });

  it("PUT upserts a row without reading it back", async () => {
    const res = await fetch(`${running.url}/rest/v1/lockers?id=eq.901`, {
      method: "PUT",
      headers: { apikey: running.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ id: 901, label: "put" }),
    });
    expect(res.status).toBe(201);
    expect(await combinationOf("put")).toEqual(["0000"]);
  });

  it("update and delete return only the columns they select", async () => {
    await db.from("lockers").insert({ label: "hall", combination: "7" });
    const updated = await db.from("lockers").update({ combination: "8" }).eq("label", "hall").select("label");
    expect(updated.error).toBeNull();
    expect(updated.data).toEqual([{ label: "hall" }]);
    expect(await combinationOf("hall")).toEqual(["8"]);
    const deleted = await db.from("lockers").delete().eq("label", "hall").select("label");
    expect(deleted.error).toBeNull();
    expect(deleted.data).toEqual([{ label: "hall" }]);
    expect(await combinationOf("hall")).toEqual([]);
  });

  it("a Location needs only the primary key", async () => {
    const res = await fetch(`${running.url}/rest/v1/lockers?select=id`, {
      method: "POST",
      headers: { apikey: running.anonKey, "Content-Type": "application/json", Prefer: "return=headers-only" },
      body: JSON.stringify({ id: 902, label: "located", combination: "3" }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/lockers?id=eq.902");
  });

  it("asking for the column, by name or with *, is refused with 42501 and writes nothing", async () => {
    for (const select of ["id,combination", "*"]) {
      const { error, status } = await db.from("lockers").insert({ label: "asked", combination: "0" }).select(select);
      expect(status).toBe(401);
      expect(error?.code).toBe("42501");
    }
    expect(await combinationOf("asked")).toEqual([]);
    const read = await db.from("lockers").select("*");
    expect(read.error?.code).toBe("42501");
  });
});
