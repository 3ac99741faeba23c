import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { clientFor, newUser, stackPerFile } from "../support/stack.js";

// On PGlite the stack serves the database over the wire protocol (`dbPort`); on
// PostgreSQL `dbUrl` is the server's own URL. The same client code runs on both.
const running = stackPerFile({ dbPort: 0 });
let api: ReturnType<typeof clientFor>;
const clients: pg.Client[] = [];

beforeAll(() => {
  api = clientFor(running, running.serviceRoleKey);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: running.dbUrl });
  clients.push(client);
  await client.connect();
  return client;
}

async function eventNames(prefix: string): Promise<string[]> {
  const { data, error } = await api.from("events").select("name").like("name", `${prefix}%`).order("name");
  expect(error).toBeNull();
  return (data ?? []).map((row) => row.name);
}

describe("the database URL", () => {
  it("is the CLI's postgres:postgres URL on PGlite, the server's without password on PostgreSQL", () => {
    const url = new URL(running.dbUrl ?? "");
    if (process.env.DATABASE_URL) {
      expect(running.dbUrl).toBe(running.database);
      expect(["", "****"]).toContain(url.password);
    } else {
      expect(running.dbUrl).toMatch(/^postgresql:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
    }
  });

  it("reaches the database the migrations built, with parameters and the extended protocol", async () => {
    const client = await connect();
    const { rows: migrations } = await client.query<{ version: string }>(
      "select version from supabase_migrations.schema_migrations order by version",
    );
    expect(migrations.map((row) => row.version)).toContain("20240101000000");
    const { rows } = await client.query<{ n: number; tables: string }>(
      "select $1::int + 1 as n, to_regclass('public.events')::text as tables",
      [41],
    );
    expect(rows).toEqual([{ n: 42, tables: "events" }]);
  });

  it("answers a bad statement with Postgres's error and keeps the connection", async () => {
    const client = await connect();
    await expect(client.query("select 1/0")).rejects.toMatchObject({ code: "22012" });
    await expect(client.query("select * from nowhere")).rejects.toMatchObject({ code: "42P01" });
    expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });
});

describe("sharing the database with the API", () => {
  it("keeps a client's transaction apart from the stack's statements and REST writes made while it is open", async () => {
    const client = await connect();
    await client.query("begin");
    await client.query("insert into public.events (name) values ('wire-tx-rolled-back')");
    // Both are sent now; on PGlite they wait for the client's transaction to end, on PostgreSQL they run beside it.
    const statement = running.stack.db.query("insert into public.events (name) values ('wire-tx-stack')");
    const request = api
      .from("events")
      .insert({ name: "wire-tx-rest" })
      .then((response) => response);
    await client.query("insert into public.events (name) values ('wire-tx-rolled-back-2')");
    await client.query("rollback");
    await statement;
    expect((await request).status).toBe(201);
    expect(await eventNames("wire-tx")).toEqual(["wire-tx-rest", "wire-tx-stack"]);
  });

  it("commits a client's transaction whole", async () => {
    const client = await connect();
    await client.query("begin");
    await client.query("insert into public.events (name) values ('wire-commit-1'), ('wire-commit-2')");
    const read = eventNames("wire-commit");
    await client.query("commit");
    // Read committed: either nothing yet (PostgreSQL) or both (PGlite, after the commit), never one.
    expect([[], ["wire-commit-1", "wire-commit-2"]]).toContainEqual(await read);
    expect(await eventNames("wire-commit")).toEqual(["wire-commit-1", "wire-commit-2"]);
  });

  it("keeps a client's session settings to itself and the API's to the API", async () => {
    const client = await connect();
    await client.query("set role anon; set search_path = nowhere; set statement_timeout = '7s'");
    const [stackSession] = await running.stack.db.query(
      "select current_user as role, current_setting('statement_timeout') as timeout",
    );
    expect(stackSession?.role).not.toBe("anon");
    expect(stackSession?.timeout).not.toBe("7s");
    const { error, status } = await api.from("events").insert({ name: "wire-session-api" });
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(await eventNames("wire-session")).toEqual(["wire-session-api"]);
    const { rows } = await client.query(
      "select current_user as role, current_setting('search_path') as path, current_setting('statement_timeout') as timeout",
    );
    expect(rows).toEqual([{ role: "anon", path: "nowhere", timeout: "7s" }]);
  });

  it("rolls back what a client leaves open when it disconnects, and serves the API again", async () => {
    const client = await connect();
    await client.query("begin");
    await client.query("insert into public.events (name) values ('wire-gone')");
    await client.end();
    expect(await eventNames("wire-gone")).toEqual([]);
  });

  it("serves two clients at once, each transaction whole", async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    if (!first || !second) throw new Error("no clients");
    await first.query("begin");
    await first.query("insert into public.events (name) values ('wire-two-first')");
    const other = (async () => {
      await second.query("begin");
      await second.query("insert into public.events (name) values ('wire-two-second')");
      await second.query("commit");
    })();
    await first.query("rollback");
    await other;
    expect(await eventNames("wire-two")).toEqual(["wire-two-second"]);
  });

  it("delivers a change committed over the wire to Realtime subscribers, and no notification to the client", async () => {
    const user = await newUser(running);
    const realtime = clientFor(running);
    await realtime.realtime.setAuth(user.token);
    let received!: (row: Record<string, unknown>) => void;
    const change = new Promise<Record<string, unknown>>((resolve) => {
      received = resolve;
    });
    await new Promise<void>((subscribed) => {
      realtime
        .channel("wire-changes")
        .on("postgres_changes", { event: "INSERT", schema: "public", table: "rt_notes" }, (payload) =>
          received(payload.new),
        )
        .subscribe((status) => status === "SUBSCRIBED" && subscribed());
    });
    const client = await connect();
    const notified: string[] = [];
    client.on("notification", (message) => notified.push(message.channel));
    await client.query("insert into public.rt_notes (owner_id, title) values ($1, 'over the wire')", [user.id]);
    expect(await change).toMatchObject({ owner_id: user.id, title: "over the wire" });
    await client.query("select 1");
    expect(notified).toEqual([]);
    await realtime.removeAllChannels();
  });

  it("refuses COPY to or from a program for postgres, as the platform does, and keeps serving", async () => {
    const client = await connect();
    // postgres is not a superuser on the platform (on PGlite it is the one user, and the stack refuses for it).
    await client.query("set role postgres");
    for (const sql of ["copy (select 1) to program 'cat'", "select 1; copy public.events from program 'true'"]) {
      const refused = await client.query(sql).then(
        () => null,
        (error: pg.DatabaseError) => error,
      );
      expect(refused).toMatchObject({
        code: "42501",
        message: expect.stringMatching(/COPY to or from an external program/),
      });
    }
    const viaParse = await client.query({ text: "copy (select $1::int) to program 'cat'", values: [1] }).then(
      () => null,
      (error: pg.DatabaseError) => error,
    );
    expect(viaParse).toMatchObject({ code: expect.stringMatching(/^(42501|42P02|08P01)$/) });
    expect((await client.query("select 2 as n")).rows).toEqual([{ n: 2 }]);
    expect((await api.from("events").select("name").limit(1)).error).toBeNull();
  });
});
