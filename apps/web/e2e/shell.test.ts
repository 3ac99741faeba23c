/** The frame around every screen: landing, themes, keyboard use and small screens. */
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { newAccount } from "./support/accounts.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { accountMenu, decksHeading, signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page | undefined;

const darkBackground = "rgb(9, 9, 11)";
const lightBackground = "rgb(255, 255, 255)";

// Evaluated as a string: the tests are compiled without the DOM library.
const pageBackground = (target: Page) =>
  target.evaluate<string>("getComputedStyle(document.documentElement).backgroundColor");

test("the landing page says what Engram is and leads to sign-up and sign-in", async () => {
  page = await openPage(browser());
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning" || message.type() === "error") warnings.push(message.text());
  });
  await page.goto("/");
  await page.getByRole("heading", { level: 1, name: "Remember what you learn." }).waitFor();
  expect(await page.title()).toBe("Engram");
  expect(await page.getByRole("link", { name: "Engram home" }).isVisible()).toBe(true);
  expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");
  expect(await pageBackground(page)).toBe(lightBackground);
  await screenshot(page, "landing");
  // The first screen loads without the router asking for a fallback.
  expect(warnings.filter((text) => text.includes("HydrateFallback"))).toEqual([]);

  await page.getByRole("link", { name: "Create a free account" }).click();
  await page.getByRole("heading", { name: "Create your account" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/sign-up");
  // As after a page load, focus starts at the new screen's content.
  expect(await page.locator(":focus").getAttribute("id")).toBe("main");
});

test("signed in, the start page shows the user's day and leads to their decks", async () => {
  page = await openPage(browser());
  const account = await newAccount("home");
  await signInWithPassword(page, account, "/sign-in?next=%2F");
  await page.getByRole("heading", { level: 1, name: "Today" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/");
  // A new user has no decks yet: the dashboard (e2e/dashboard.test.ts) leads them to make one.
  await page.getByRole("link", { name: "Create a deck" }).click();
  await decksHeading(page).waitFor();

  // An address that cannot name a deck is a missing page, not a form error.
  await page.goto("/decks/not-a-uuid/study");
  await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
});

describe("themes", () => {
  test("the dark theme follows the system's preference", async () => {
    page = await openPage(browser(), { colorScheme: "dark" });
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await pageBackground(page)).toBe(darkBackground);
    expect(await page.getByRole("button", { name: "Switch to light theme" }).isVisible()).toBe(true);
    await screenshot(page, "landing-dark");

    await page.goto("/sign-in");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await screenshot(page, "sign-in-dark");

    const account = await newAccount("dark");
    await signInWithPassword(page, account, "");
    await decksHeading(page).waitFor();
    await page.getByLabel("New deck name", { exact: true }).fill("Night reading");
    await page.getByRole("button", { name: "Create deck" }).click();
    await page.getByRole("listitem", { name: "Night reading" }).waitFor();
    expect(await pageBackground(page)).toBe(darkBackground);
    await screenshot(page, "decks-dark");
  });

  test("the theme chosen with the toggle overrides the system's and is remembered", async () => {
    page = await openPage(browser(), { colorScheme: "light" });
    await page.goto("/");
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await expect.poll(() => pageBackground(page as Page), { timeout: 5_000 }).toBe(darkBackground);

    await page.reload();
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await pageBackground(page)).toBe(darkBackground);
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await expect.poll(() => pageBackground(page as Page), { timeout: 5_000 }).toBe(lightBackground);
  });
});

describe("keyboard", () => {
  test("the first Tab reaches the skip link, which jumps past the header to the form", async () => {
    page = await openPage(browser());
    await page.goto("/sign-in");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();

    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    expect((await page.locator(":focus").textContent())?.trim()).toBe("Skip to content");
    expect(await skip.isVisible()).toBe(true);
    await screenshot(page, "skip-link");

    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.locator(":focus").getAttribute("name")).toBe("email");
  });

  test("the account menu opens, signs out and closes with the keyboard", async () => {
    page = await openPage(browser());
    const account = await newAccount("keys");
    await signInWithPassword(page, account, "/decks");
    await decksHeading(page).waitFor();

    const menu = accountMenu(page, account.email);
    const shown = page;
    const menuCodeFetched = () =>
      shown.evaluate(() =>
        performance.getEntriesByType("resource").some((entry) => entry.name.includes("account-dropdown")),
      );
    expect(await menuCodeFetched()).toBe(false);
    // Reaching the button fetches the menu's code; the first press opens it as the key would have.
    await menu.focus();
    await page.keyboard.press("Enter");
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await page.getByRole("menuitem", { name: "Sign out everywhere" }).waitFor();
    const focused = page.locator(":focus");
    await expect.poll(async () => (await focused.textContent())?.trim()).toBe("Statistics");
    expect(await menuCodeFetched()).toBe(true);
    await screenshot(page, "account-menu");

    await page.keyboard.press("Escape");
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByRole("menuitem", { name: "Sign out everywhere" }).isVisible()).toBe(false);
    await expect.poll(() => shown.locator(":focus").getAttribute("aria-expanded")).toBe("false");

    // Opened from the keyboard, the menu focuses its first item; the arrow keys walk the rest in order.
    await page.keyboard.press("Enter");
    for (const [index, item] of ["Statistics", "Settings", "Sign out"].entries()) {
      if (index > 0) await page.keyboard.press("ArrowDown");
      await expect.poll(async () => (await focused.textContent())?.trim()).toBe(item);
    }
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await menu.count()).toBe(0);
  });
});

test("screens fit a phone's width without sideways scrolling", async () => {
  page = await openPage(browser(), { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const account = await newAccount("phone");
  for (const path of ["/", "/sign-in", "/sign-up"]) {
    await page.goto(path);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  }
  await screenshot(page, "sign-up-phone");
  await signInWithPassword(page, account, "/decks");
  await decksHeading(page).waitFor();
  await page.getByLabel("New deck name", { exact: true }).fill("Commute flashcards with a rather long name");
  await page.getByRole("button", { name: "Create deck" }).click();
  await page.getByRole("listitem", { name: "Commute flashcards with a rather long name" }).waitFor();
  expect(await page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  // The app's header is one row: the logo, the navigation and the account menu side by side.
  const header = page.getByRole("banner");
  const middle = async (name: string, role: "link" | "button") => {
    const box = await header.getByRole(role, { name }).boundingBox();
    if (!box) throw new Error(`${name} is not on screen`);
    return box.y + box.height / 2;
  };
  const logo = await middle("Engram home", "link");
  expect(Math.abs((await middle("Decks", "link")) - logo)).toBeLessThan(8);
  expect(Math.abs((await middle(account.email, "button")) - logo)).toBeLessThan(8);
  await screenshot(page, "decks-phone");
});
