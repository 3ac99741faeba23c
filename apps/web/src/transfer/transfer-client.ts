/**
 * The page's side of the transfer worker: one promise per operation, progress
 * through a callback, cancel through an AbortSignal. Errors come back as
 * EngramErrors, so lib/error-messages.ts words them like any other SDK call.
 */
import { type Engram, EngramError, type EngramErrorCode, engramErrorCodes } from "@engram/sdk";
import { rasterizeSvg } from "../lib/rasterize-svg.js";
import type {
  CsvOptions,
  ExportChoices,
  ExportedFile,
  FromWorker,
  ImportChoices,
  ImportPreview,
  ImportSummary,
  Operation,
  OperationResult,
  OptimiseResult,
  Progress,
  RescheduleOutcome,
  SerialisedError,
  ToWorker,
} from "./transfer-protocol.js";

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

export interface TransferClient {
  preview(file: File, csv?: CsvOptions): Promise<ImportPreview>;
  importDeck(file: File, options: ImportChoices, run?: RunOptions): Promise<ImportSummary>;
  exportDeck(deckId: string, options: ExportChoices): Promise<ExportedFile>;
  optimise(run?: RunOptions): Promise<OptimiseResult>;
  /** Reschedules every studied card with these FSRS parameters (null: the defaults). */
  reschedule(parameters: number[] | null): Promise<RescheduleOutcome>;
}

type Pending = {
  resolve: (value: OperationResult[keyof OperationResult]) => void;
  reject: (error: unknown) => void;
  onProgress: ((progress: Progress) => void) | undefined;
};

const codes = new Set<string>(engramErrorCodes);

function rebuild(error: SerialisedError): Error {
  if (error.code === "aborted") return new DOMException(error.message, "AbortError");
  const code = (codes.has(error.code) ? error.code : "internal") as EngramErrorCode;
  return new EngramError(code, error.message, {
    ...(error.field ? { field: error.field } : {}),
    ...(error.rule ? { rule: error.rule } : {}),
    ...(error.detail !== undefined ? { detail: error.detail } : {}),
  });
}

export const isCancelled = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

function createTransferClient(getToken: () => Promise<string | null>): TransferClient {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const send = (message: ToWorker) => started().postMessage(message);

  function started(): Worker {
    if (worker) return worker;
    worker = new Worker(new URL("./transfer.worker.ts", import.meta.url), { type: "module", name: "transfer" });
    worker.addEventListener("message", (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === "token-request") {
        getToken().then(
          (token) => send({ type: "token", requestId: message.requestId, token }),
          () => send({ type: "token", requestId: message.requestId, token: null }),
        );
        return;
      }
      if (message.type === "svg-request") {
        rasterizeSvg(message.svg).then(
          (png) => send({ type: "png", requestId: message.requestId, png }),
          () => send({ type: "png", requestId: message.requestId, png: null }),
        );
        return;
      }
      const waiting = pending.get(message.id);
      if (!waiting) return;
      if (message.type === "progress") {
        waiting.onProgress?.(message.progress);
        return;
      }
      pending.delete(message.id);
      if (message.type === "done") waiting.resolve(message.result);
      else waiting.reject(rebuild(message.error));
    });
    // A worker that fails to load (a network error fetching its script) fails every operation waiting on it.
    worker.addEventListener("error", () => {
      for (const waiting of pending.values()) {
        waiting.reject(new EngramError("network", "The import and export worker could not start."));
      }
      pending.clear();
      worker = null;
    });
    return worker;
  }

  function run<K extends Operation["kind"]>(
    operation: Extract<Operation, { kind: K }>,
    options: RunOptions = {},
  ): Promise<OperationResult[K]> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(new DOMException("Cancelled.", "AbortError"));
    const id = nextId++;
    return new Promise<OperationResult[K]>((resolve, reject) => {
      pending.set(id, { resolve: resolve as Pending["resolve"], reject, onProgress });
      signal?.addEventListener("abort", () => send({ type: "cancel", id }), { once: true });
      send({ type: "run", id, operation });
    });
  }

  return {
    preview: (file, csv) => run({ kind: "preview", file, ...(csv ? { csv } : {}) }),
    importDeck: (file, options, runOptions) => run({ kind: "import", file, options }, runOptions),
    exportDeck: (deckId, options) => run({ kind: "export", deckId, options }),
    optimise: (runOptions) => run({ kind: "optimise" }, runOptions),
    reschedule: (parameters) => run({ kind: "reschedule", parameters }),
  };
}

const clients = new WeakMap<Engram, TransferClient>();

/** One worker per SDK instance, started on first use; its token is the page session's current one. */
export function transferClientFor(engram: Engram): TransferClient {
  let client = clients.get(engram);
  if (!client) {
    client = createTransferClient(async () => (await engram.auth.getSession())?.access_token ?? null);
    clients.set(engram, client);
  }
  return client;
}
