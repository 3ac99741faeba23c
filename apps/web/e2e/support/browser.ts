/** Chromium through playwright-core: Debian's build, headless, one context per test. */
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, inject, onTestFinished } from "vitest";

export const app = () => inject("e2e");

const screenshotDir = fileURLToPath(new URL("../../test-results/screenshots/", import.meta.url));

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** One Chromium for the test file: launched before its tests, closed after them. */
export function browserPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("The browser starts in beforeAll; use it inside hooks and tests.");
    return browser;
  };
}

/** A fresh browser profile (no cookies, no storage) on the app, closed when the current test ends. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL: app().appUrl,
    viewport: { width: 1024, height: 720 },
    ...options,
  });
  // Generous: CI runs these beside the other packages' suites on two cores.
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  onTestFinished(async ({ task }) => {
    // What the screen showed when a step gave up, for whoever reads the failure.
    if (task.result?.state === "fail") {
      await screenshot(page, `failed-${task.name.replace(/\W+/g, "-").slice(0, 80)}`).catch(() => undefined);
    }
    await context.close();
  });
  return page;
}

/** Keeps a picture of the screen for people reviewing the run (CI uploads the folder). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  // Two frames: the page is laid out and painted at its current size (a picture taken right after
  // a resize could show a band the page had not painted yet).
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))),
  );
  await page.screenshot({ path: `${screenshotDir}${name}.png`, fullPage: true });
}
