import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, type PgliteDatabase } from "../../src/database/pglite.js";
import { serveWireProtocol, type WireServer } from "../../src/database/wire-server.js";

// The embedded database's own login, whatever DATABASE_URL says (a PostgreSQL server has its own).
let db: PgliteDatabase;
let server: WireServer;

beforeAll(async () => {
  db = await openPglite();
  server = await serveWireProtocol({ pglite: db.pglite, session: db.session, port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

async function login(user: string, password: string, database = "postgres") {
  const client = new pg.Client({ host: "127.0.0.1", port: server.port, user, password, database });
  try {
    await client.connect();
    const { rows } = await client.query("select current_user as role, current_database() as database");
    return rows[0];
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe("logging in over the wire protocol", () => {
  it("takes the CLI's postgres/postgres, as postgres in database postgres", async () => {
    expect(server.url).toBe(`postgresql://postgres:postgres@127.0.0.1:${server.port}/postgres`);
    expect(await login("postgres", "postgres")).toEqual({ role: "postgres", database: "postgres" });
  });

  it("refuses a wrong password or another user as Postgres does", async () => {
    await expect(login("postgres", "wrong")).rejects.toMatchObject({
      code: "28P01",
      message: 'password authentication failed for user "postgres"',
    });
    await expect(login("anon", "postgres")).rejects.toMatchObject({
      code: "28P01",
      message: 'password authentication failed for user "anon"',
    });
  });

  it("refuses another database", async () => {
    await expect(login("postgres", "postgres", "engram")).rejects.toMatchObject({
      code: "3D000",
      message: 'database "engram" does not exist',
    });
  });

  it("keeps serving after refused logins", async () => {
    expect(await login("postgres", "postgres")).toEqual({ role: "postgres", database: "postgres" });
  });
});
