/**
 * "Optimise my scheduler": trains the 21 FSRS-6 parameters on the caller's own
 * review history, on the device, with study days cut in their time zone at their
 * day-start hour, and saves them to their profile when they predict that history
 * better (lower log loss) than the parameters in use: Anki's rule, which keeps the
 * old ones otherwise. Before and after figures are log loss and RMSE (bins) on that
 * history, as Anki's Evaluate shows them.
 */
import type { CardState } from "@engram/core";
import { type Evaluation, OptimizerError, optimizeParameters, type TrainingLog } from "@engram/core/optimizer";
import type { Engram } from "../client.js";
import { EngramError, toEngramError } from "../errors.js";
import { run, runAllPages } from "../request.js";
import type { EngramClient } from "../supabase-client.js";
import type { Wasm } from "./read.js";

export type { Evaluation } from "@engram/core/optimizer";

export type OptimizeOptions = {
  /** fsrs-browser's wasm: bytes, or a URL to fetch; Node reads it from the package when absent. */
  wasm?: Wasm;
  /** Save the trained parameters to the profile if they fit better (default true); false only evaluates. */
  save?: boolean;
  onProgress?: (done: number, total: number) => void;
};

export type OptimizeOutcome = {
  parameters: number[];
  before: Evaluation;
  after: Evaluation;
  reviews: number;
  saved: boolean;
};

type LogRow = { user_id: string; card_id: string; rating: 1 | 2 | 3 | 4; reviewed_at: string; state: CardState };

function readLogs(supabase: EngramClient): Promise<LogRow[]> {
  return runAllPages<LogRow>((from, to) =>
    supabase
      .from("review_logs")
      .select("user_id, card_id, rating, reviewed_at, state")
      .order("reviewed_at")
      .order("id")
      .range(from, to),
  );
}

async function nodeWasm(): Promise<Uint8Array> {
  const { readFile } = await import(/* @vite-ignore */ "node:fs/promises");
  const { createRequire } = await import(/* @vite-ignore */ "node:module");
  const require = createRequire(import.meta.url);
  return readFile(require.resolve("fsrs-browser/fsrs_browser_bg.wasm"));
}

export async function optimizeScheduler(engram: Engram, options: OptimizeOptions = {}): Promise<OptimizeOutcome> {
  const supabase = engram.supabase;
  const rows = await readLogs(supabase);
  const userId = rows[0]?.user_id;
  const profile = userId
    ? (await run(supabase.from("profiles").select("fsrs_params, timezone, day_starts_at").eq("id", userId)))[0]
    : undefined;
  const logs: TrainingLog[] = rows.map((row) => ({
    cardId: row.card_id,
    rating: row.rating,
    reviewedAt: new Date(row.reviewed_at),
    state: row.state,
  }));
  let result: Awaited<ReturnType<typeof optimizeParameters>>;
  try {
    result = await optimizeParameters(logs, {
      wasm: options.wasm?.fsrs ?? (await nodeWasm()),
      current: profile?.fsrs_params ?? null,
      ...(profile ? { timeZone: profile.timezone, dayStartHour: profile.day_starts_at } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } catch (error) {
    if (error instanceof OptimizerError) {
      throw new EngramError("validation", error.message, { field: "reviews", rule: error.code, cause: error });
    }
    throw toEngramError(error);
  }
  const save = (options.save ?? true) && userId !== undefined && result.improved;
  if (save) {
    await run(supabase.from("profiles").update({ fsrs_params: result.parameters }).eq("id", userId).select("id"));
  }
  return {
    parameters: result.parameters,
    before: result.before,
    after: result.after,
    reviews: result.reviews,
    saved: save,
  };
}
