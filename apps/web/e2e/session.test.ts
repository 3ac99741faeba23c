/**
 * The session lifecycle of docs/product.md §1: an access token that expires is renewed
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

test("signing out of all devices in the settings ends the session on another device at once", async () => {
  // This device keeps real time: nothing but the sign-out elsewhere may end its session.
  const laptop = await openPage(browser());
  await signInWithPassword(laptop, account, "/decks");
  await decksHeading(laptop).waitFor();

  const phone = await openPage(browser());
  await signInWithPassword(phone, account, "/sign-in?next=%2Fsettings");
  const sessions = phone.getByRole("region", { name: "Sessions" });
  await sessions.getByRole("button", { name: "Sign out of all devices" }).click();
  const confirm = phone.getByRole("dialog", { name: "Sign out of all devices?" });
  await screenshot(phone, "settings-sign-out-everywhere");
  await confirm.getByRole("button", { name: "Sign out everywhere" }).click();
  await phone.getByRole("heading", { name: "Sign in" }).waitFor();
  // The device that asked was signed out by its own hand: no "session ended" notice there.
  expect(await phone.getByText("Your session ended").count()).toBe(0);

  // The other device hears it on the user's channel, checks, and ends within Playwright's usual wait.
  await laptop.getByText("Your session ended. Sign in again to continue.").waitFor({ timeout: 5_000 });
  const url = new URL(laptop.url());
  expect(url.pathname).toBe("/sign-in");
  expect(url.searchParams.get("next")).toBe("/decks");
});

test("a device that missed the message ends its session as soon as it is used again", async () => {
  const laptop = await openPage(browser());
  // Its realtime connection goes nowhere (asleep, a flaky network): the message cannot reach it.
  await laptop.routeWebSocket(/\/realtime\/v1\//, () => undefined);
  await signInWithPassword(laptop, account, "/decks");
  await decksHeading(laptop).waitFor();

  const other = await openPage(browser());
  await signInWithPassword(other, account, "/decks");
  await decksHeading(other).waitFor();
  await signOut(other, account.email, true);
  await other.getByRole("heading", { name: "Sign in" }).waitFor();
  expect(await laptop.getByText("Your session ended").count()).toBe(0);

  // Back to the laptop: the window regains focus, it asks the server, and the session ends.
  await laptop.evaluate(() => window.dispatchEvent(new Event("focus")));
  await laptop.getByText("Your session ended. Sign in again to continue.").waitFor({ timeout: 5_000 });
});
