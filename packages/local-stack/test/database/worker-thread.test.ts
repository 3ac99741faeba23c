import { describe, expect, it } from "vitest";
import { stackPerFile } from "../support/stack.js";

// The embedded database runs on a worker thread: a statement in progress holds
// the callers that need the database, not the server's event loop.
const running = stackPerFile();

describe("while a long statement runs", () => {
  it("the stack still answers what needs no database (auth health)", async () => {
    let finished = false;
    const statement = running.stack.db
      .query<{ count: number }>("select count(*)::int as count from generate_series(1, 3000000)")
      .finally(() => {
        finished = true;
      });
    const health = await fetch(`${running.url}/auth/v1/health`, { headers: { apikey: running.anonKey } });
    expect(health.status).toBe(200);
    expect(finished).toBe(false);
    expect(await statement).toEqual([{ count: 3000000 }]);
  });

  it("a failed statement's error keeps its SQLSTATE and position", async () => {
    const error = await running.stack.db.query("select * from pg_class where").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: "42601",
      position: expect.any(String),
      message: expect.stringMatching(/syntax/),
    });
  });
});
