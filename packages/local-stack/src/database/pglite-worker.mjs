// Runs the embedded database on a worker thread, so the stack's event loop
// (HTTP, auth, realtime heartbeats) keeps turning while a statement runs.
// The main thread's side, and the messages, are in pglite-thread.ts.
import { parentPort, workerData } from "node:worker_threads";
import { createPglite } from "./pglite-engine.mjs";

const port = parentPort;
/** @type {import("@electric-sql/pglite").PGlite} */
let pglite;
/** Each channel listened on, with the function that stops it. */
const listening = new Map();

/** An error's own fields (code, detail, hint, position…) as plain data: structured cloning keeps only the message. */
function errorFields(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

/** A copy of bytes PGlite may still own (a view into its memory), as a buffer to transfer. */
const ownBuffer = (bytes) => bytes.slice().buffer;

const operations = {
  async query({ sql, params }) {
    const result = await pglite.query(sql, params);
    return { rows: result.rows, affectedRows: result.affectedRows };
  },
  async exec({ sql }) {
    await pglite.exec(sql);
  },
  async raw({ data }) {
    return ownBuffer(await pglite.execProtocolRaw(new Uint8Array(data)));
  },
  async rawStream({ id, data }) {
    await pglite.execProtocolRawStream(new Uint8Array(data), {
      onRawData(chunk) {
        const buffer = ownBuffer(chunk);
        port.postMessage({ id, chunk: buffer }, [buffer]);
      },
    });
  },
  async listen({ channel }) {
    if (listening.has(channel)) return;
    listening.set(channel, await pglite.listen(channel, (payload) => port.postMessage({ channel, payload })));
  },
  async unlisten({ channel }) {
    const stop = listening.get(channel);
    listening.delete(channel);
    await stop?.();
  },
  async dump({ compression }) {
    return (await pglite.dumpDataDir(compression)).arrayBuffer();
  },
  async close() {
    await pglite.close();
  },
};

function inTransaction() {
  try {
    return pglite.isInTransaction();
  } catch {
    return false;
  }
}

// One request at a time, in the order sent: the main thread decides the order (its turns and locks).
let queue = Promise.resolve();
port.on("message", (request) => {
  queue = queue.then(async () => {
    try {
      const value = await operations[request.op](request);
      const transfer = value instanceof ArrayBuffer ? [value] : [];
      port.postMessage({ id: request.id, value, inTransaction: inTransaction() }, transfer);
    } catch (error) {
      port.postMessage({ id: request.id, error: errorFields(error), inTransaction: inTransaction() });
    }
  });
});

try {
  const { dataDir, loadDataDir } = workerData;
  pglite = await createPglite({ dataDir, loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: errorFields(error) });
}
