/**
 * The first press that opens something whose code loads on first use, from
 * the keydown or pointerdown to the frame that paints it: the deck screen's
 * keyboard shortcuts ("?", a dialog) and the account menu (a pointer press).
 * In Chromium against the production build, each sample on a fresh load of
 * the screen with the app's files in the browser's cache. Prints median and p95.
 *
 *   pnpm exec tsx --conditions=source bench/first-open.ts
 */
import type { Page } from "playwright-core";
import { startAppServer } from "../e2e/support/app-server.js";
import { adminClient, launchChromium, newUser, signIn, summary } from "./support/browser-bench.js";

const loads = 12;

async function seed(stackUrl: string, serviceRoleKey: string) {
  const admin = adminClient(stackUrl, serviceRoleKey);
  const { userId, email, password } = await newUser(admin);
  const { data: deck, error: deckError } = await admin
    .from("decks")
    .insert({ owner_id: userId, name: "First open" })
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
  const browser = await launchChromium();
  try {
    const { deckId, email, password } = await seed(server.stackUrl, server.serviceRoleKey);
    const context = await browser.newContext({ baseURL: server.appUrl, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page, { email, password });
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
    console.log(`deck screen, "?" → keyboard shortcuts painted: ${summary(shortcuts)}`);
    console.log(`account menu, press → menu painted: ${summary(accountMenu)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
