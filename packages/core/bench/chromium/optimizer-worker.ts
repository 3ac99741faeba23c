/**
 * The worker optimizer-chromium.ts runs in Chromium: it simulates a history of the
 * asked size and times the optimiser on it, as the web app's transfer worker runs it.
 */
import { optimizeParameters } from "../../src/optimizer/index";
import { simulateLogs } from "../../src/optimizer/simulate-test-support";

type Ask = { answers: number };
type Reply = { answers: number; firstRunMs: number; ms: number; improved: boolean } | { error: string };

const scope = self as unknown as {
  postMessage(message: Reply): void;
  addEventListener(type: "message", listener: (event: MessageEvent<Ask>) => void): void;
};
const wasm = "/fsrs_browser_bg.wasm";

scope.addEventListener("message", async ({ data: { answers } }) => {
  try {
    const logs = simulateLogs({ cards: answers / 10, reviewsPerCard: 10, seed: 42 });
    let started = performance.now();
    await optimizeParameters(logs, { wasm });
    const firstRunMs = performance.now() - started;
    started = performance.now();
    const result = await optimizeParameters(logs, { wasm });
    scope.postMessage({ answers, firstRunMs, ms: performance.now() - started, improved: result.improved });
  } catch (error) {
    scope.postMessage({ error: String(error) });
  }
});
