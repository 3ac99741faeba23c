/**
 * The session lifecycle of PRODUCT §1: an access token that expires is renewed
 * silently; a session ended elsewhere sends the user to sign in with a clear
 * message and brings them back afterwards. The page's clock is moved forward
 * so auth-js's refresh timer fires without waiting an hour.
 */
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { type Account, newAccount } from "./support/accounts.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { decksHeading, signInWithPassword, signOut } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  await page.clock.install();
  account = await newAccount("session");
});

// Access tokens live an hour (config.toml); auth-js renews one within 90 s of its end,
// and gives a session up only when that fails after the access token has run out.
const nearTokenExpiry = "59:00";
const pastTokenExpiry = "01:01:00";

async function accessTokenCookie(): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies
    .filter((cookie) => /^sb-.+-auth-token/.test(cookie.name))
    .map((cookie) => cookie.value)
    .join("");
}

test("a session renewed in the background changes nothing the user sees", async () => {
  await signInWithPassword(page, account, "/decks");
  await decksHeading(page).waitFor();
  const before = await accessTokenCookie();

  await page.clock.fastForward(nearTokenExpiry);
  await expect.poll(accessTokenCookie, { timeout: 10_000 }).not.toBe(before);

  expect(new URL(page.url()).pathname).toBe("/decks");
  expect(await decksHeading(page).isVisible()).toBe(true);
  expect(await page.getByText("Your session ended").count()).toBe(0);
});

test("a session ended on another device sends the user to sign in with a message, then back to their place", async () => {
  await signInWithPassword(page, account, "/decks");
  await decksHeading(page).waitFor();

  const otherDevice = await openPage(browser());
  await signInWithPassword(otherDevice, account, "/decks");
  await decksHeading(otherDevice).waitFor();
  await signOut(otherDevice, account.email, true);
  await otherDevice.getByRole("heading", { name: "Sign in" }).waitFor();
  await otherDevice.context().close();

  // This device finds out when its access token runs out and cannot be renewed.
  await page.clock.fastForward(pastTokenExpiry);
  const notice = page.getByText("Your session ended. Sign in again to continue.");
  await notice.waitFor();
  const url = new URL(page.url());
  expect(url.pathname).toBe("/sign-in");
  expect(url.searchParams.get("next")).toBe("/decks");
  await screenshot(page, "session-expired");

  // Back to real time, so the new session is not already near its end.
  await page.clock.setSystemTime(new Date());
  await signInWithPassword(page, account, "");
  await decksHeading(page).waitFor();
  expect(new URL(page.url()).pathname).toBe("/decks");
});
