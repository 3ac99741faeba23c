/**
 * The statistics screen for an account with a year of history, in Chromium
 * against the production build: time from `page.goto("/stats")` (signed in,
 * the app's chunks cached as a returning user has them) to the charts drawn
 * with the account's figures, and the same after switching to one deck.
 * Prints median and p95.
 *
 *   pnpm exec tsx --conditions=source bench/stats-screen.ts
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { startAppServer } from "../e2e/support/app-server.js";
import { adminClient, launchChromium, newUser, signIn, summary } from "./support/browser-bench.js";

const noteCount = 2_000;
const days = 365;
const reviewsPerDay = 100;
const loads = 20;
const dayMs = 86_400_000;

/**
 * A user with two decks of 1,000 cards, and 100 answers a day for a year
 * written straight into the review log: all of them to the first deck's cards,
 * while the second deck's stay new.
 */
async function seed(stackUrl: string, serviceRoleKey: string) {
  const admin = adminClient(stackUrl, serviceRoleKey);
  const { userId, email, password } = await newUser(admin);
  const started = performance.now();

  const deckIds: string[] = [];
  for (const name of ["Vocabulary", "Geography"]) {
    const { data: deck, error: deckError } = await admin
      .from("decks")
      .insert({ owner_id: userId, name })
      .select("id")
      .single();
    if (deckError || !deck) throw deckError ?? new Error("no deck");
    deckIds.push(deck.id);
    const rows = Array.from({ length: noteCount / 2 }, (_, i) => ({
      deck_id: deck.id,
      kind: "basic" as const,
      fields: { front: `${name} ${i}`, back: `answer ${i}` },
      tags: [],
      created_by: userId,
    }));
    for (let at = 0; at < rows.length; at += 500) {
      const { error: insertError } = await admin.from("notes").insert(rows.slice(at, at + 500));
      if (insertError) throw insertError;
    }
  }

  const { data: cards, error: cardsError } = await admin
    .from("cards")
    .select("id")
    .eq("deck_id", deckIds[0] as string);
  if (cardsError || !cards) throw cardsError ?? new Error("no cards");
  // Most cards in review, due over the coming month, so the forecast and card counts have figures.
  const reviewCards = cards.slice(0, Math.floor(cards.length * 0.8));
  for (let at = 0; at < reviewCards.length; at += 200) {
    const ids = reviewCards.slice(at, at + 200).map((card) => card.id);
    const { error: stateError } = await admin
      .from("card_states")
      .update({
        state: "review",
        due: new Date(Date.now() + (at / 200) * 2 * dayMs).toISOString(),
        stability: 20,
        difficulty: 5,
        scheduled_days: 20,
        reps: 5,
      })
      .eq("user_id", userId)
      .in("card_id", ids);
    if (stateError) throw stateError;
  }

  const states = ["new", "learning", "review", "review", "review", "relearning"] as const;
  let logs = 0;
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const { error: logError } = await admin.from("review_logs").insert(batch as never);
    if (logError) throw logError;
    logs += batch.length;
    batch = [];
  };
  for (let day = days - 1; day >= 0; day -= 1) {
    // Skip one day in seven, as people do.
    if (day % 7 === 3) continue;
    for (let i = 0; i < reviewsPerDay; i += 1) {
      const at = new Date(Date.now() - day * dayMs - i * 20_000);
      const card = cards[(day * reviewsPerDay + i) % cards.length];
      if (!card) continue;
      batch.push({
        user_id: userId,
        card_id: card.id,
        client_review_id: randomUUID(),
        rating: i % 10 === 0 ? 1 : (i % 3) + 2,
        state: states[i % states.length],
        due: at.toISOString(),
        stability: 10,
        difficulty: 5,
        elapsed_days: i % 40,
        scheduled_days: i % 40,
        reviewed_at: at.toISOString(),
        duration_ms: 4000 + (i % 9) * 1000,
        previous: { scheduled_days: i % 40 },
      });
      if (batch.length === 2000) await flush();
    }
  }
  await flush();
  console.log(
    `seeded ${noteCount} cards and ${logs.toLocaleString()} answers over a year in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { email, password, deckId: deckIds[0] as string };
}

/** performance.now() (since navigation start) at the first frame with the figures in and the bars drawn. */
async function chartsDrawnAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () =>
      document.querySelector('.stats[data-state="ready"] [data-section="reviews"] .chart-bar') &&
      document.querySelector('.stats[data-state="ready"] [data-section="forecast"] .chart-bar')
        ? performance.now()
        : 0,
    null,
    { polling: "raf", timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

/**
 * When the page sent its two stats requests (ms since navigation start), the
 * slower one's round trip, and when the last of the app's code the page had
 * asked for before them had arrived.
 */
async function statsRequests(page: Page): Promise<{ sentAt: number; took: number; codeIn: number }> {
  return page.evaluate(() => {
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const entries = resources.filter((entry) => /\/rpc\/(user_stats|review_stats)/.test(entry.name));
    if (entries.length === 0) return { sentAt: Number.NaN, took: Number.NaN, codeIn: Number.NaN };
    const sentAt = Math.min(...entries.map((entry) => entry.startTime));
    const code = resources.filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name) && entry.startTime < sentAt);
    return {
      sentAt,
      took: Math.max(...entries.map((entry) => entry.duration)),
      codeIn: Math.max(...code.map((entry) => entry.responseEnd)),
    };
  });
}

async function main() {
  console.log("starting the stack and building the app…");
  const server = await startAppServer();
  const browser = await launchChromium();
  try {
    const { email, password, deckId } = await seed(server.stackUrl, server.serviceRoleKey);
    const context = await browser.newContext({ baseURL: server.appUrl, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signIn(page, { email, password }, "/stats");
    // Warm-up: the browser caches the app's chunks as a returning user has them.
    await chartsDrawnAt(page);
    console.log(`the screen shows: ${await page.locator('[data-section="calendar"] .stats-summary').textContent()}`);

    const allDecks: number[] = [];
    const statsSentAt: number[] = [];
    const statsTook: number[] = [];
    const codeIn: number[] = [];
    for (let i = 0; i < loads; i += 1) {
      await page.goto("/stats", { waitUntil: "commit" });
      allDecks.push(await chartsDrawnAt(page));
      const request = await statsRequests(page);
      statsSentAt.push(request.sentAt);
      statsTook.push(request.took);
      codeIn.push(request.codeIn);
    }
    const oneDeck: number[] = [];
    for (let i = 0; i < loads; i += 1) {
      await page.goto(`/stats?deck=${deckId}&period=365`, { waitUntil: "commit" });
      oneDeck.push(await chartsDrawnAt(page));
    }

    console.log(`page.goto("/stats") → charts drawn, all decks, 1 month: ${summary(allDecks)}`);
    console.log(`page.goto("/stats?deck=…&period=365") → charts drawn, one deck, 1 year: ${summary(oneDeck)}`);
    console.log(`  all decks: the app's code is in at ${summary(codeIn)}`);
    console.log(`  all decks: the app sends the stats requests at ${summary(statsSentAt)}`);
    console.log(`  all decks: the slower stats request's round trip ${summary(statsTook)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
