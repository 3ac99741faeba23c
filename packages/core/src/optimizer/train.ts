/**
 * Trains the 21 FSRS-6 parameters on a user's review logs with fsrs-browser, the
 * wasm-bindgen build of the reference optimiser fsrs-rs, single-threaded so it runs in
 * Node and in a browser Web Worker without cross-origin isolation. It trains as fsrs-rs
 * does with 5 epochs and histories of at most 64 answers; Anki 26.08 trains 8 epochs.
 * (`@open-spaced-repetition/binding`, which takes a training configuration, has no
 * browser build on npm: `@open-spaced-repetition/binding-wasm32-wasi@0.5.0` is missing.)
 */
import type { InitInput } from "fsrs-browser";
import { clipParameters, default_w } from "ts-fsrs";
import { defaults } from "../limits";
import { schedulerSettings } from "../scheduler";
import { type Evaluation, evaluateItems } from "./evaluate";
import { cardHistories, itemEnds, itemsOf, type StudyDayOptions, type TrainingLog } from "./items";

/** The wasm bytes (BufferSource), a compiled WebAssembly.Module, a Response, or a URL to fetch. */
export type OptimizerWasm = InitInput;

export type OptimizeOptions = StudyDayOptions & {
  /** fsrs-browser's `fsrs_browser_bg.wasm`: its bytes, a compiled module, or where to fetch it. */
  wasm: OptimizerWasm;
  /** The parameters in use now, to compare against; null or absent for the FSRS-6 defaults. */
  current?: readonly number[] | null;
  /** Called before and after training (the wasm call runs to completion on this thread). */
  onProgress?: (done: number, total: number) => void;
};

export type OptimizeResult = {
  parameters: number[];
  /** The current parameters' fit to the same reviews, and the trained ones', as Anki's Evaluate. */
  before: Evaluation;
  after: Evaluation;
  /** Whether the trained parameters fit better than the current ones: Anki keeps the current ones otherwise. */
  improved: boolean;
  /** Answers trained on (those of cards with a training item), and the cards they belong to. */
  reviews: number;
  cards: number;
};

export type OptimizerErrorCode = "not-enough-reviews" | "training-failed";

export class OptimizerError extends Error {
  readonly code: OptimizerErrorCode;
  constructor(code: OptimizerErrorCode, message: string) {
    super(message);
    this.name = "OptimizerError";
    this.code = code;
  }
}

/**
 * docs/product.md §9 asks for 400 reviews. fsrs-rs would answer with the defaults under 8
 * items and only fit the first stabilities on small sets, which is not worth a
 * button press.
 */
export async function optimizeParameters(
  logs: readonly TrainingLog[],
  options: OptimizeOptions,
): Promise<OptimizeResult> {
  if (logs.length < defaults.optimizerMinReviews) {
    throw new OptimizerError(
      "not-enough-reviews",
      `The optimiser needs at least ${defaults.optimizerMinReviews} reviews; you have ${logs.length}.`,
    );
  }
  const histories = cardHistories(logs, options);
  // One ordering of the items serves training and both evaluations.
  const ends = itemEnds(histories);
  const items = itemsOf(ends);
  if (items.lengths.length === 0) {
    throw new OptimizerError("not-enough-reviews", "None of these reviews follows a card's first answer.");
  }
  const before = evaluateItems(ends, options.current ?? null);
  const fsrs = await loadFsrs(options.wasm);
  options.onProgress?.(0, items.lengths.length);
  let trained: Float32Array;
  try {
    trained = quietly(() =>
      new fsrs.Fsrs().computeParameters(items.ratings, items.deltaTs, items.lengths, undefined, true),
    );
  } catch (cause) {
    throw new OptimizerError("training-failed", `Training stopped: ${String(cause)}`);
  }
  const raw = Array.from(trained);
  if (raw.length !== default_w.length || !raw.every(Number.isFinite)) {
    throw new OptimizerError("training-failed", `Training gave unusable parameters: ${raw.join(", ")}.`);
  }
  options.onProgress?.(items.lengths.length, items.lengths.length);
  // float32 out of the wasm; ts-fsrs's bounds for Engram's relearning steps keep them schedulable.
  const parameters = clipParameters(raw, schedulerSettings.relearningSteps.length, true);
  const after = evaluateItems(ends, parameters);
  return {
    parameters,
    before,
    after,
    // Anki's rule: the trained parameters replace the current ones only with a lower log loss
    // (beyond what the wasm's float32 makes of the same parameters).
    improved: after.logLoss < before.logLoss - 1e-6,
    reviews: items.reviews,
    cards: items.cards,
  };
}

type FsrsBrowser = typeof import("fsrs-browser");

let loaded: Promise<FsrsBrowser> | undefined;

/** The wasm module is instantiated once per thread; later calls reuse it whatever `wasm` they pass. */
function loadFsrs(wasm: OptimizerWasm): Promise<FsrsBrowser> {
  loaded ??= (async () => {
    const fsrs = await importWithSelf();
    await fsrs.default({ module_or_path: wasm });
    return fsrs;
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/**
 * fsrs-browser's thread-pool helper (wasm-bindgen-rayon) listens on `self` as soon as it
 * is imported. Node has no `self`, so one is lent for the import and taken back after,
 * lest other libraries take Node for a browser. The pool itself is never started.
 */
async function importWithSelf(): Promise<FsrsBrowser> {
  const scope = globalThis as { self?: unknown };
  if (typeof scope.self !== "undefined") return import("fsrs-browser");
  scope.self = { addEventListener() {}, removeEventListener() {} };
  try {
    return await import("fsrs-browser");
  } finally {
    delete scope.self;
  }
}

/** fsrs-rs logs every epoch to the console (info, through its logger); the caller gets the outcome instead. */
function quietly<T>(run: () => T): T {
  const { log, info, debug } = console;
  console.log = console.info = console.debug = () => {};
  try {
    return run();
  } finally {
    Object.assign(console, { log, info, debug });
  }
}
