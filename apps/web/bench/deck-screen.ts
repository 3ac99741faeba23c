/**
 * The deck screen with 10,000 notes, in Chromium against the production build:
 * time from navigation to the first rows on screen, and from the last
 * keystroke of a search to its results. Prints median and p95; targets are
 * < 300 ms and < 150 ms.
 *
 *   pnpm exec tsx --conditions=source bench/deck-screen.ts
 */
import type { Page } from "playwright-core";
import { startAppServer } from "../e2e/support/app-server.js";
import { adminClient, launchChromium, newUser, signIn, summary } from "./support/browser-bench.js";

const noteCount = 10_000;
const loads = 10;
const words = ["apple", "river", "stone", "cloud", "tiger", "piano", "garden", "silver", "window", "planet"];

async function seed(stackUrl: string, serviceRoleKey: string) {
  const admin = adminClient(stackUrl, serviceRoleKey);
  const { userId, email, password } = await newUser(admin);
  const { data: deck, error: deckError } = await admin
    .from("decks")
    .insert({ owner_id: userId, name: "Ten thousand notes" })
    .select("id")
    .single();
  if (deckError || !deck) throw deckError ?? new Error("no deck");
  const started = performance.now();
  const base = Date.now() - noteCount * 1000;
  for (let at = 0; at < noteCount; at += 1000) {
    const rows = Array.from({ length: Math.min(1000, noteCount - at) }, (_, offset) => {
      const i = at + offset;
      return {
        deck_id: deck.id,
        kind: "basic" as const,
        fields: { front: `<p>kw${i} ${words[i % 10]} ${words[(i * 7) % 10]}</p>`, back: `answer ${i}` },
        tags: [`group${i % 20}`],
        created_by: userId,
        created_at: new Date(base + i * 1000).toISOString(),
      };
    });
    const { error: insertError } = await admin.from("notes").insert(rows);
    if (insertError) throw insertError;
  }
  console.log(`seeded ${noteCount} notes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { deckId: deck.id, email, password };
}

/** performance.now() (since navigation start) at the first frame that shows a note row. */
async function firstRowsAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => (document.querySelector(".note-text") ? performance.now() : 0),
    null,
    {
      polling: "raf",
      timeout: 30_000,
    },
  );
  return (await handle.jsonValue()) as number;
}

/**
 * The page's requests to the notes table: when the last one was sent (ms since
 * navigation start) and how long it took to answer. Cross-origin timing hides
 * the server's own share, so this is the whole round trip.
 */
async function notesRequest(page: Page): Promise<{ sentAt: number; took: number }> {
  return page.evaluate(() => {
    const entries = performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.includes("/rest/v1/notes")) as PerformanceResourceTiming[];
    const last = entries.at(-1);
    return last ? { sentAt: last.startTime, took: last.duration } : { sentAt: Number.NaN, took: Number.NaN };
  });
}

async function main() {
  console.log("starting the stack and building the app…");
  const server = await startAppServer();
  const browser = await launchChromium();
  try {
    const { deckId, email, password } = await seed(server.stackUrl, server.serviceRoleKey);
    const context = await browser.newContext({ baseURL: server.appUrl, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page, { email, password });
    await page.getByRole("heading", { name: "Your decks" }).waitFor();

    // Warm-up: the browser caches the app's chunks as a returning user has them.
    await page.goto(`/decks/${deckId}`);
    await firstRowsAt(page);

    const firstRows: number[] = [];
    const notesSentAt: number[] = [];
    const notesTook: number[] = [];
    for (let i = 0; i < loads; i += 1) {
      await page.goto(`/decks/${deckId}`, { waitUntil: "commit" });
      firstRows.push(await firstRowsAt(page));
      const request = await notesRequest(page);
      notesSentAt.push(request.sentAt);
      notesTook.push(request.took);
    }
    const total = await page.locator(".list-summary").textContent();
    console.log(`list shows: ${total}`);

    await page.evaluate(() => {
      document.addEventListener(
        "keydown",
        () => {
          (window as unknown as { lastKeyAt: number }).lastKeyAt = performance.now();
        },
        true,
      );
    });
    const searches: number[] = [];
    const searchesServer: number[] = [];
    const search = page.getByLabel("Search notes");
    for (let i = 0; i < loads; i += 1) {
      // Half the searches find one note, half find a thousand.
      const term = i % 2 === 0 ? `kw${1234 + i * 777}` : (words[i] ?? "apple");
      const expected = i % 2 === 0 ? "1 note match" : null;
      await search.fill("");
      await page.waitForFunction(() => document.querySelector(".list-summary")?.textContent === "10,000 notes");
      await search.click();
      await page.keyboard.type(term, { delay: 30 });
      const handle = await page
        .waitForFunction(
          ({ term: typed, expected: wanted }) => {
            const summary = document.querySelector(".list-summary")?.textContent ?? "";
            const first = document.querySelector(".note-text")?.textContent ?? "";
            const done = wanted
              ? summary === wanted && first.includes(typed)
              : summary.endsWith("match") && first.includes(typed);
            return done ? performance.now() - (window as unknown as { lastKeyAt: number }).lastKeyAt : 0;
          },
          { term, expected },
          { polling: "raf", timeout: 30_000 },
        )
        .catch(async (error: unknown) => {
          const shown = await page.locator(".list-summary").textContent();
          const typed = await search.inputValue();
          throw new Error(`search "${term}" never showed its results (box: "${typed}", list: "${shown}")`, {
            cause: error,
          });
        });
      searches.push((await handle.jsonValue()) as number);
      searchesServer.push((await notesRequest(page)).took);
      console.log(`  search "${term}": ${(searches.at(-1) ?? 0).toFixed(0)} ms`);
    }

    console.log(`navigation → first rows visible: ${summary(firstRows)}  (target < 300 ms)`);
    console.log(`  the app sends the notes request at: ${summary(notesSentAt)}`);
    console.log(`  the notes request's round trip: ${summary(notesTook)}`);
    console.log(`last keystroke → search results visible: ${summary(searches)}  (target < 150 ms)`);
    console.log(`  the last search request's round trip: ${summary(searchesServer)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
