import { describe, expect, it } from "vitest";
import { rawSocket } from "../realtime/helpers.js";
import { stackPerFile } from "../support/stack.js";

// The embedded database runs on a worker thread: a statement in progress holds
// the callers that need the database, not the server's event loop.
const running = stackPerFile();

/** A statement that runs for seconds, with `finished` telling whether it has ended. */
function longStatement() {
  const state = { finished: false };
  const result = running.stack.db.query<{ slept: boolean }>("select true as slept from pg_sleep(3)").finally(() => {
    state.finished = true;
  });
  return { state, result };
}

describe("while a long statement runs", () => {
  it("the stack still answers what needs no database: auth health and realtime heartbeats", async () => {
    const socket = await rawSocket(running);
    const statement = longStatement();
    const health = await fetch(`${running.url}/auth/v1/health`, { headers: { apikey: running.anonKey } });
    expect(health.status).toBe(200);
    socket.send([null, "1", "phoenix", "heartbeat", {}]);
    expect(await socket.next({ ref: "1" })).toEqual([
      null,
      "1",
      "phoenix",
      "phx_reply",
      { status: "ok", response: {} },
    ]);
    expect(statement.state.finished).toBe(false);
    expect(await statement.result).toEqual([{ slept: true }]);
    socket.close();
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
