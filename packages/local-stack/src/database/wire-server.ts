/**
 * Serves the embedded database over the Postgres wire protocol, as the CLI
 * serves its database on `[db] port`, so psql, migration tools and test
 * fixtures reach it through DATABASE_URL. pglite-socket's handler frames the
 * messages; the turns are ours (`SharedSession`): pglite-socket's own queue
 * only orders its clients among themselves, so a psql transaction could
 * otherwise interleave with a REST request's.
 */
import { createServer, type Server, type Socket } from "node:net";
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from "@electric-sql/pglite-socket";
import { BackendMessages, type Notification } from "./backend-messages.js";
import type { EmbeddedPglite } from "./embedded.js";
import type { SharedSession } from "./shared-session.js";
import { wireCredentials } from "./wire-credentials.js";
import { refuseProgramCopy } from "./wire-guard.js";
import { WireLogin } from "./wire-login.js";

export interface WireServer {
  /** `postgresql://postgres:postgres@127.0.0.1:<port>/postgres`, as `supabase status` prints its DB URL. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const terminate = "X".charCodeAt(0);

/**
 * One client's turns on the session: from its first message until a
 * ReadyForQuery that says idle (not in a transaction, not between a Parse and
 * its Sync, not in a COPY), the stack and other clients wait.
 */
class ClientTurns {
  private release: (() => void) | null = null;
  private readonly answers = new BackendMessages();
  private running: Promise<unknown> = Promise.resolve();
  private closed = false;
  private ended: Promise<void> | null = null;
  private login: WireLogin | null = new WireLogin();

  constructor(
    private readonly id: number,
    private readonly pglite: EmbeddedPglite,
    private readonly session: SharedSession,
    private readonly notify: (notifications: Notification[]) => void,
  ) {}

  async send(message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    // Terminate ends the client's connection, not PGlite's one session.
    if (message[0] === terminate) return 0;
    let next = message;
    if (this.login) {
      const step = this.login.step(message);
      if (step.answer.length) onData(step.answer);
      // After a FATAL error the client closes the connection.
      if ("failed" in step || !step.done) return step.answer.length;
      this.login = null;
      next = step.startup;
    }
    const run = this.run(refuseProgramCopy(next), onData);
    this.running = run.catch(() => undefined);
    return run;
  }

  private async run(message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    if (this.closed) throw new Error("the client has disconnected");
    this.release ??= await this.session.acquire(this.id);
    if (this.closed) {
      this.handBack();
      throw new Error("the client has disconnected");
    }
    let bytes = 0;
    // A failure here detaches the handler, which calls `end`.
    await this.pglite.runExclusive(() =>
      this.pglite.execProtocolRawStream(message, {
        onRawData: (data) => {
          const passed = this.answers.push(data);
          bytes += passed.length;
          if (passed.length) onData(passed);
        },
      }),
    );
    if (this.answers.endsIdle) {
      this.handBack();
      // The session's notifications are the stack's (it is the one listening): a client's
      // committed change reaches Realtime as the stack's own would.
      const notifications = this.answers.takeNotifications();
      if (notifications.length) this.notify(notifications);
    }
    return bytes;
  }

  /** After a disconnect: rolls back what the client left open and lets the others in. */
  end(): Promise<void> {
    this.ended ??= this.cleanUp();
    return this.ended;
  }

  private async cleanUp(): Promise<void> {
    this.closed = true;
    await this.running;
    if (this.release) {
      // A Sync ends an unfinished extended-protocol exchange; then any open transaction is rolled back.
      try {
        await this.pglite.runExclusive(async () => {
          await this.pglite.execProtocolRaw(sync);
          if (this.pglite.isInTransaction()) await this.pglite.execProtocolRaw(simpleQuery("rollback"));
        });
      } finally {
        this.handBack();
      }
    }
    this.session.forget(this.id);
  }

  private handBack() {
    this.release?.();
    this.release = null;
  }
}

const sync = new Uint8Array([83, 0, 0, 0, 4]);

function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write("Q", 0);
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

/** The queue pglite-socket's handler calls, per client; its own would not see the stack's queries. */
class TurnQueue {
  private readonly clients = new Map<number, ClientTurns>();

  constructor(
    private readonly pglite: EmbeddedPglite,
    private readonly session: SharedSession,
    private readonly notify: (notifications: Notification[]) => void,
  ) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    let client = this.clients.get(handlerId);
    if (!client) {
      client = new ClientTurns(handlerId, this.pglite, this.session, this.notify);
      this.clients.set(handlerId, client);
    }
    return client.send(message, onData);
  }

  clearQueueForHandler(): void {}

  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    const client = this.clients.get(handlerId);
    this.clients.delete(handlerId);
    await client?.end();
  }

  /** Ends every client's turn, so the database can close after them. */
  async endAll(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}

/** Listens on `port` (0: any free one) of `host` and serves `pglite` to each connection in turns. */
export async function serveWireProtocol(options: {
  pglite: EmbeddedPglite;
  session: SharedSession;
  port: number;
  host: string;
}): Promise<WireServer> {
  const queue = new TurnQueue(options.pglite, options.session, (notifications) => {
    // Sent again from the stack's own turn, where PGlite hands them to its listeners.
    options.session
      .forStack(async () => {
        for (const { channel, payload } of notifications) {
          await options.pglite.query("select pg_notify($1, $2)", [channel, payload]);
        }
      })
      .catch(() => undefined);
  });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    const handler = new PGLiteSocketHandler({
      queryQueue: queue as unknown as PGLiteSocketHandlerOptions["queryQueue"],
      closeOnDetach: true,
    });
    handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`Port ${options.port} on ${options.host} is in use: set another [db] port in config.toml`)
          : error,
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const { user, password, database } = wireCredentials;
  return {
    url: `postgresql://${user}:${password}@${options.host}:${port}/${database}`,
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.endAll();
    },
  };
}
