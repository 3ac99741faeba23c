/**
 * PGlite on a worker thread (pglite-worker.mjs). PGlite is WebAssembly: on the
 * main thread a long statement (an import, a big migration) holds Node's event
 * loop, and with it every HTTP request, auth call and realtime heartbeat. Here
 * only callers that need the database wait.
 *
 * The worker runs one request at a time in the order they arrive; the locks
 * that decide that order stay here, the same two PGlite keeps: statements
 * (`runExclusive` holds it while a wire-protocol exchange runs) and
 * transactions (a transaction's statements come from this thread, between its
 * BEGIN and COMMIT, and other callers' statements wait for its end).
 */
import { Worker } from "node:worker_threads";
import { pgliteWorkerFile } from "../paths.js";
import type { EmbeddedPglite, EmbeddedStatements } from "./embedded.js";

type Request =
  | { op: "query"; sql: string; params: unknown[] }
  | { op: "exec"; sql: string }
  | { op: "raw"; data: ArrayBuffer }
  | { op: "rawStream"; data: ArrayBuffer }
  | { op: "listen" | "unlisten"; channel: string }
  | { op: "dump"; compression: "none" | "gzip" | "auto" }
  | { op: "close" };

type Reply =
  | { ready: boolean; error?: ErrorFields }
  | { channel: string; payload: string }
  | { id: number; chunk: ArrayBuffer }
  | { id: number; value?: unknown; error?: ErrorFields; inTransaction: boolean };

type ErrorFields = Record<string, string | number | boolean | null> & { message: string };

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onChunk?: (data: Uint8Array) => void;
}

/** One caller at a time, in call order. */
class Lock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** The database's error as thrown in the worker: message, SQLSTATE code, detail, hint, position and the rest. */
function rebuildError(fields: ErrorFields): Error {
  const { message, stack, ...rest } = fields;
  const error = Object.assign(new Error(message), rest);
  if (typeof stack === "string") error.stack = stack;
  return error;
}

export interface PgliteThreadOptions {
  dataDir?: string;
  loadDataDir?: Blob;
}

export class PgliteThread implements EmbeddedPglite {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private readonly statements = new Lock();
  private readonly transactions = new Lock();
  private nextId = 1;
  private inTransaction = false;
  /** Why the worker can no longer answer, once it cannot. */
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (reply: Reply) => this.receive(reply));
    worker.on("error", (error) => this.fail(error));
    worker.on("exit", (code) => this.fail(new Error(`The embedded database's thread exited (code ${code})`)));
  }

  /** Starts the worker and waits for the database to open there. */
  static async start(options: PgliteThreadOptions = {}): Promise<PgliteThread> {
    const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    const worker = new Worker(pgliteWorkerFile, {
      workerData: { dataDir: options.dataDir, loadDataDir },
      transferList: loadDataDir ? [loadDataDir] : [],
    });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`The embedded database's thread exited (code ${code})`));
      worker.once("error", reject);
      worker.once("exit", onExit);
      worker.once("message", (reply: { ready: boolean; error?: ErrorFields }) => {
        worker.off("error", reject);
        worker.off("exit", onExit);
        if (reply.ready) resolve();
        else {
          reject(rebuildError(reply.error ?? { message: "The embedded database did not start" }));
          void worker.terminate();
        }
      });
    });
    return new PgliteThread(worker);
  }

  query<Row = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<{ rows: Row[] }> {
    return this.transactions.run(() => this.statement(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.transactions.run(() => this.script(sql));
  }

  transaction<T>(fn: (tx: EmbeddedStatements) => Promise<T>): Promise<T> {
    return this.transactions.run(async () => {
      await this.script("begin");
      const tx: EmbeddedStatements = {
        query: <Row>(sql: string, params: unknown[] = []) => this.statement<Row>(sql, params),
        exec: (sql: string) => this.script(sql),
      };
      let result: T;
      try {
        result = await fn(tx);
      } catch (error) {
        await this.script("rollback").catch(() => undefined);
        throw error;
      }
      await this.script("commit");
      return result;
    });
  }

  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.statements.run(fn);
  }

  async execProtocolRaw(message: Uint8Array): Promise<Uint8Array> {
    const data = message.slice().buffer;
    return new Uint8Array((await this.send({ op: "raw", data }, [data])) as ArrayBuffer);
  }

  async execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }): Promise<void> {
    const data = message.slice().buffer;
    await this.send({ op: "rawStream", data }, [data], options.onRawData);
  }

  isInTransaction(): boolean {
    return this.inTransaction;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.listeners.get(channel);
    if (!callbacks) {
      callbacks = new Set();
      this.listeners.set(channel, callbacks);
    }
    callbacks.add(callback);
    try {
      await this.transactions.run(() => this.statements.run(() => this.send({ op: "listen", channel })));
    } catch (error) {
      callbacks.delete(callback);
      throw error;
    }
    return async () => {
      callbacks.delete(callback);
      if (callbacks.size || this.listeners.get(channel) !== callbacks) return;
      this.listeners.delete(channel);
      await this.transactions.run(() => this.statements.run(() => this.send({ op: "unlisten", channel })));
    };
  }

  async dumpDataDir(compression: "none" | "gzip" | "auto" = "auto"): Promise<Blob> {
    return new Blob([(await this.send({ op: "dump", compression })) as ArrayBuffer]);
  }

  async close(): Promise<void> {
    if (this.failure) return;
    try {
      await this.send({ op: "close" });
    } finally {
      this.fail(new Error("The embedded database is closed"));
      await this.worker.terminate();
    }
  }

  private async statement<Row>(sql: string, params: unknown[]): Promise<{ rows: Row[] }> {
    return (await this.statements.run(() => this.send({ op: "query", sql, params }))) as { rows: Row[] };
  }

  private async script(sql: string): Promise<void> {
    await this.statements.run(() => this.send({ op: "exec", sql }));
  }

  private send(request: Request, transfer: ArrayBuffer[] = [], onChunk?: (data: Uint8Array) => void) {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, ...(onChunk ? { onChunk } : {}) });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  private receive(reply: Reply) {
    if ("channel" in reply) {
      for (const callback of this.listeners.get(reply.channel) ?? []) callback(reply.payload);
      return;
    }
    if (!("id" in reply)) return;
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if ("chunk" in reply) {
      pending.onChunk?.(new Uint8Array(reply.chunk));
      return;
    }
    this.pending.delete(reply.id);
    this.inTransaction = reply.inTransaction;
    if (reply.error) pending.reject(rebuildError(reply.error));
    else pending.resolve(reply.value);
  }

  private fail(error: Error) {
    this.failure ??= error;
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }
}
