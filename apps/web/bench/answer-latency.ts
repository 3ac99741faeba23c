/**
 * Answer latency on the study screen: from the answer key's keydown to the
 * frame that paints the next card, measured inside the page, with every
 * request to the stack delayed by 300 ms (CDP network emulation). The answer
 * is saved in the background, so the network should not be in this path.
 *
 *   pnpm exec tsx --conditions=source bench/answer-latency.ts
 *
 * Prints p50 / p95 / max over 200 answers, the answers still waiting to be
 * sent when the last card was painted, and whether all 200 reached the server.
 */
import type { Page } from "playwright-core";
import { startAppServer } from "../e2e/support/app-server.js";
import { adminClient, launchChromium, newUser, signIn } from "./support/browser-bench.js";

const cards = 1000;
const answers = 200;
const latencyMs = 300;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** Records, in the page, keydown of 1–4 → the frame after the next card entered the DOM. */
function installProbe(page: Page) {
  return page.evaluate(() => {
    const probe = {
      samples: [] as number[],
      inDom: [] as number[],
      frame: [] as number[],
      start: null as number | null,
    };
    (window as unknown as { probe: typeof probe }).probe = probe;
    window.addEventListener(
      "keydown",
      (event) => {
        if ("1234".includes(event.key)) probe.start = performance.now();
      },
      true,
    );
    const card = document.querySelector(".study-session");
    if (!card) throw new Error("the study screen is not showing");
    new MutationObserver(() => {
      const start = probe.start;
      if (start === null) return;
      probe.start = null;
      probe.inDom.push(performance.now() - start);
      // rAF runs just before the frame is painted; a message posted from it arrives just after.
      requestAnimationFrame(() => {
        probe.frame.push(performance.now() - start);
        const channel = new MessageChannel();
        channel.port1.onmessage = () => probe.samples.push(performance.now() - start);
        channel.port2.postMessage(null);
      });
    }).observe(card, { childList: true, subtree: true, characterData: true });
  });
}

/** Answers waiting in IndexedDB (the review store) for the server. */
function pendingInStore(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("engram-reviews");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction("pending").objectStore("pending").count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        };
      }),
  );
}

type Profile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
};

function printHotspots(profile: Profile) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<string, number>();
  (profile.samples ?? []).forEach((id, index) => {
    const frame = byNode.get(id)?.callFrame;
    const name = frame
      ? `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${frame.lineNumber}`
      : "?";
    selfMs.set(name, (selfMs.get(name) ?? 0) + (profile.timeDeltas?.[index] ?? 0) / 1000);
  });
  const top = [...selfMs].filter(([name]) => !name.startsWith("(idle)")).sort((a, b) => b[1] - a[1]);
  console.log("page CPU by function (self time over the run):");
  for (const [name, ms] of top.slice(0, 25)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
}

async function main() {
  const server = await startAppServer();
  const admin = adminClient(server.stackUrl, server.serviceRoleKey);
  const browser = await launchChromium();
  try {
    const { userId, email, password } = await newUser(admin);
    // A 1,000-card queue: every new card allowed today.
    await admin.from("profiles").update({ new_per_day: cards }).eq("id", userId).throwOnError();
    const deck = await admin.from("decks").insert({ owner_id: userId, name: "Bench" }).select("id").single();
    const deckId = deck.data?.id;
    if (!deckId) throw deck.error ?? new Error("no deck");
    const notes = Array.from({ length: cards }, (_, i) => ({
      deck_id: deckId,
      kind: "basic",
      fields: { front: `Question ${i + 1}`, back: `Answer ${i + 1}` },
      created_by: userId,
    }));
    for (let at = 0; at < notes.length; at += 500) {
      await admin
        .from("notes")
        .insert(notes.slice(at, at + 500))
        .throwOnError();
    }

    const context = await browser.newContext({ baseURL: server.appUrl, viewport: { width: 1024, height: 720 } });
    const page = await context.newPage();
    const path = `/decks/${deckId}/study`;
    await signIn(page, { email, password }, path);
    await page.locator(".card-view-front").waitFor({ timeout: 60_000 });
    const queued = await page.getByRole("list", { name: "Cards left" }).innerText();

    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: latencyMs,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await installProbe(page);
    // BENCH_PROFILE=1 also prints where the page spends its time during the answers (CPU profile, self time).
    const profiling = process.env.BENCH_PROFILE === "1";
    if (profiling) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
      await cdp.send("Profiler.start");
    }

    for (let i = 0; i < answers; i++) {
      await page.keyboard.press("Space");
      await page.locator(".card-view-back").waitFor();
      await page.keyboard.press(i % 5 === 0 ? "3" : "4");
      await page.waitForFunction(
        (n) => (window as unknown as { probe: { samples: number[] } }).probe.samples.length > n,
        i,
      );
    }
    const { samples, inDom, frame } = await page.evaluate(
      () => (window as unknown as { probe: { samples: number[]; inDom: number[]; frame: number[] } }).probe,
    );
    const pending = await pendingInStore(page);
    if (profiling) printHotspots((await cdp.send("Profiler.stop")).profile);

    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const deadline = Date.now() + 120_000;
    let stored = 0;
    while (Date.now() < deadline) {
      const { count } = await admin
        .from("review_logs")
        .select("id", { count: "exact", head: true })
        .eq("user_id", userId)
        .throwOnError();
      stored = count ?? 0;
      if (stored >= answers) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const logs = await admin.from("review_logs").select("client_review_id").eq("user_id", userId).throwOnError();
    const distinct = new Set((logs.data ?? []).map((row) => row.client_review_id)).size;

    const summary = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 50).toFixed(1)} ms   p95 ${percentile(sorted, 95).toFixed(1)} ms   max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms`;
    };
    console.log(`queue at start: ${queued.replace(/\s+/g, " ")}; network latency ${latencyMs} ms`);
    console.log(`answer key → next card painted, ${samples.length} answers:`);
    console.log(`  painted (a message posted from requestAnimationFrame arrives): ${summary(samples)}`);
    console.log(`  the frame that paints it starts (requestAnimationFrame):       ${summary(frame)}`);
    console.log(`  the next card in the DOM (the app's own work, no frame wait):  ${summary(inDom)}`);
    console.log(`answers still waiting to be sent after the last card: ${pending}`);
    console.log(
      `review_logs on the server afterwards: ${stored} of ${answers} (${distinct} distinct client_review_id)`,
    );
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
