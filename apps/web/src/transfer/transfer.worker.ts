/**
 * Import, export, the scheduler's optimiser and rescheduling, off the page's
 * thread: reading a package of thousands of notes, zipping one, training FSRS
 * and replaying every card's answers take seconds of CPU that would otherwise
 * freeze the screen.
 *
 * The worker cannot read the session cookie, so its client asks the page for
 * the current access token before each request (`createEngramClient`'s `accessToken`).
 * Nor can it draw an SVG (Chromium decodes none in a worker), so an import
 * asks the page to draw each as PNG.
 */
import { createEngram, createEngramClient, EngramError } from "@engram/sdk";
import {
  exportDeck,
  importDeck,
  optimizeScheduler,
  previewImport,
  rescheduleCards,
  type Wasm,
} from "@engram/sdk/transfer";
import fsrsWasmUrl from "fsrs-browser/fsrs_browser_bg.wasm?url";
import sqlWasmUrl from "sql.js/dist/sql-wasm.wasm?url";
import { env } from "../lib/env.js";
import type {
  FromWorker,
  Operation,
  OperationResult,
  Progress,
  SerialisedError,
  ToWorker,
} from "./transfer-protocol.js";

interface WorkerScope {
  postMessage(message: FromWorker, options?: { transfer?: Transferable[] }): void;
  addEventListener(type: "message", listener: (event: MessageEvent<ToWorker>) => void): void;
}
const scope = self as unknown as WorkerScope;

const wasm: Wasm = { sqlJs: { locateFile: () => sqlWasmUrl }, fsrs: fsrsWasmUrl };

const tokenRequests = new Map<number, (token: string | null) => void>();
let nextTokenRequest = 0;

function askPageForToken(): Promise<string | null> {
  const requestId = nextTokenRequest++;
  return new Promise((resolve) => {
    tokenRequests.set(requestId, resolve);
    scope.postMessage({ type: "token-request", requestId });
  });
}

const drawRequests = new Map<number, (png: Blob | null) => void>();
let nextDrawRequest = 0;

/** The page's PNG drawing of an SVG; rejects when the page cannot draw it, and the import counts it skipped. */
function askPageToDraw(svg: Uint8Array): Promise<Blob> {
  const requestId = nextDrawRequest++;
  return new Promise((resolve, reject) => {
    drawRequests.set(requestId, (png) => (png ? resolve(png) : reject(new Error("The page could not draw this SVG."))));
    scope.postMessage({ type: "svg-request", requestId, svg });
  });
}

const engram = createEngram(
  createEngramClient({ url: env.supabaseUrl, key: env.supabaseAnonKey, accessToken: askPageForToken }),
);

const running = new Map<number, AbortController>();

async function run(
  operation: Operation,
  signal: AbortSignal,
  report: (progress: Progress) => void,
): Promise<OperationResult[keyof OperationResult]> {
  switch (operation.kind) {
    case "preview":
      return previewImport(await readFile(operation.file), { wasm, ...(operation.csv ? { csv: operation.csv } : {}) });
    case "import":
      return importDeck(engram, await readFile(operation.file), {
        ...operation.options,
        wasm,
        rasterizeSvg: askPageToDraw,
        signal,
        onProgress: report,
      });
    case "export":
      return exportDeck(engram, operation.deckId, { ...operation.options, wasm });
    case "optimise":
      return optimizeScheduler(engram, {
        wasm,
        onProgress: (done, total) => report({ phase: "training", done, total }),
      });
    case "reschedule":
      return rescheduleCards(engram, { parameters: operation.parameters });
  }
}

async function readFile(file: File) {
  return { name: file.name, data: new Uint8Array(await file.arrayBuffer()) };
}

function serialise(error: unknown): SerialisedError {
  // The screen shows a sentence; whoever opens the console sees what actually broke.
  if (!(error instanceof EngramError) || error.code === "internal") console.error(error);
  if (error instanceof EngramError) {
    const { code, message, field, rule, detail } = error;
    // Only what survives structured cloning: detail is plain data from the SDK.
    return {
      code,
      message,
      ...(field ? { field } : {}),
      ...(rule ? { rule } : {}),
      ...(isCloneable(detail) ? { detail } : {}),
    };
  }
  if (error instanceof DOMException && error.name === "AbortError") return { code: "aborted", message: "Cancelled." };
  return { code: "internal", message: error instanceof Error ? error.message : String(error) };
}

function isCloneable(value: unknown): boolean {
  if (value === undefined) return false;
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

scope.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === "token") {
    tokenRequests.get(message.requestId)?.(message.token);
    tokenRequests.delete(message.requestId);
    return;
  }
  if (message.type === "png") {
    drawRequests.get(message.requestId)?.(message.png);
    drawRequests.delete(message.requestId);
    return;
  }
  if (message.type === "cancel") {
    running.get(message.id)?.abort();
    return;
  }
  const { id, operation } = message;
  const controller = new AbortController();
  running.set(id, controller);
  run(operation, controller.signal, (progress) => scope.postMessage({ type: "progress", id, progress }))
    .then(
      (result) => {
        // An exported file's bytes move to the page instead of being copied.
        const transfer =
          operation.kind === "export" ? [(result as { data: Uint8Array }).data.buffer as ArrayBuffer] : [];
        scope.postMessage({ type: "done", id, result }, { transfer });
      },
      (error: unknown) => {
        scope.postMessage({
          type: "failed",
          id,
          error: controller.signal.aborted ? { code: "aborted", message: "Cancelled." } : serialise(error),
        });
      },
    )
    .finally(() => running.delete(id));
});
