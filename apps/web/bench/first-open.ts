/**
 * The first press that opens something whose code loads on first use, from
 * the keydown or pointerdown to the frame that paints it: the deck screen's
 * keyboard shortcuts ("?", a dialog) and the account menu (a pointer press).
 * In Chromium against the production build, each sample on a fresh load of
 * the screen with the app's files in the browser's cache. Prints median and p95.
 *
 *   pnpm exec tsx --conditions=source bench/first-open.ts
 */
import { randomUUID } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { chromium, type Page } from "playwright-core";
import { startAppServer } from "../e2e/support/app-server.js";

const loads = 12;

/** Node 20 has no WebSocket; this script's client never opens realtime. */
class NoRealtime {
  constructor() {
    throw new Error("no realtime in the benchmark's Node client");
  }
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return `median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms (min ${sorted[0]?.toFixed(0)}, max ${sorted.at(-1)?.toFixed(0)}, n=${sorted.length})`;
}

async function seed(stackUrl: string, serviceRoleKey: string) {
  const admin = createClient(stackUrl, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoRealtime as never },
  });
  const email = `bench-${randomUUID().slice(0, 8)}@example.test`;
  const password = `pw-${randomUUID()}`;
  const { data: created, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !created.user) throw error ?? new Error("no user");
  const { data: deck, error: deckError } = await admin
    .from("decks")
    .insert({ owner_id: created.user.id, name: "First open" })
    .select("id")
    .single();
  if (deckError || !deck) throw deckError ?? new Error("no deck");
  return { deckId: deck.id, email, password };
}

/**
 * Watches for `selector` in the page: resolves with the ms from the first
 * keydown or pointerdown after this call to the frame that paints it.
 */
function watchFor(page: Page, selector: string) {
  return page.evaluate((watched) => {
    const probe = window as unknown as { opened: Promise<number> };
    probe.opened = new Promise<number>((resolve) => {
      let start = 0;
      // Inline listeners: a named function here would be given a helper the page does not have.
      for (const type of ["keydown", "pointerdown"]) {
        window.addEventListener(type, () => (start ||= performance.now()), { capture: true, once: true });
      }
      const observer = new MutationObserver(() => {
        if (!start || !document.querySelector(watched)) return;
        observer.disconnect();
        // rAF runs just before the frame is painted; a message posted from it arrives just after.
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve(performance.now() - start);
          channel.port2.postMessage(null);
        });
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
  }, selector);
}

function opened(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { opened: Promise<number> }).opened);
}

async function main() {
  console.log("starting the stack and building the app…");
  const server = await startAppServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const { deckId, email, password } = await seed(server.stackUrl, server.serviceRoleKey);
    const context = await browser.newContext({ baseURL: server.appUrl, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto("/sign-in");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Your decks" }).waitFor();

    const shortcuts: number[] = [];
    const accountMenu: number[] = [];
    for (let i = 0; i <= loads; i += 1) {
      await page.goto(`/decks/${deckId}`);
      await page.getByRole("heading", { name: "First open" }).waitFor();
      // A moment idle, as a user reading the screen would be.
      await page.waitForTimeout(500);
      await watchFor(page, "[role=dialog]");
      await page.keyboard.press("?");
      const dialog = await opened(page);
      await page.keyboard.press("Escape");
      // A pointer press: the menu's code starts loading as the pointer enters the button.
      await watchFor(page, "[role=menu]");
      await page.getByRole("button", { name: "Account menu" }).click();
      const menu = await opened(page);
      // The first load fills the browser's cache, as a returning user has it.
      if (i > 0) {
        shortcuts.push(dialog);
        accountMenu.push(menu);
      }
    }
    console.log(`deck screen, "?" → keyboard shortcuts painted: ${stats(shortcuts)}`);
    console.log(`account menu, press → menu painted: ${stats(accountMenu)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
