import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { answerButton, cardArea, endsWith, openStudy, showAnswer } from "./study-fixtures.js";
import { type Account, newAccount } from "./support/accounts.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { basicNotes, seedDeck } from "./support/decks.js";

// The study screen's layout (docs/product.md §2 study screen): thumb-first on
// phones, the answer bar always in view on desktop, key hints only with keys.

const browser = browserPerFile();
let account: Account;

beforeEach(async () => {
  account = await newAccount("layout");
});

const answers = ["Again", "Hard", "Good", "Easy"] as const;

/** The element's box, which must exist (it is on screen). */
async function boxOf(locator: ReturnType<Page["locator"]>) {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not on screen");
  return box;
}

test("on a phone the answer bar is pinned to the bottom third, the header is one row and there is no Shortcuts button", async () => {
  const height = 844;
  const phone = await openPage(browser(), { viewport: { width: 390, height }, hasTouch: true, isMobile: true });
  const deckId = await seedDeck(account.id, "A deck with a rather long name for a phone screen", basicNotes(2));
  await openStudy(phone, account, deckId);
  await cardArea(phone).locator(".card-view-front").getByText("Question 1", { exact: true }).waitFor();

  const reveal = await boxOf(showAnswer(phone));
  expect(reveal.y).toBeGreaterThanOrEqual(height * 0.75);
  expect(reveal.y + reveal.height).toBeLessThanOrEqual(height);
  const title = await boxOf(phone.getByRole("heading", { level: 1 }));
  const back = await boxOf(phone.getByRole("link", { name: "Back to the deck" }));
  // one row: the title is cut short beside the link, not wrapped above it
  expect(Math.abs(title.y + title.height / 2 - (back.y + back.height / 2))).toBeLessThan(title.height);
  expect(title.height).toBeLessThan(40);
  expect(await phone.getByRole("button", { name: /Shortcuts/ }).count()).toBe(0);
  expect(await phone.locator(".study-session kbd:visible").count()).toBe(0);
  await phone.getByRole("button", { name: "More" }).waitFor();
  await screenshot(phone, "study-phone");

  await showAnswer(phone).tap();
  await cardArea(phone).locator(".card-view-back").getByText(endsWith("Answer 1")).waitFor();
  for (const name of answers) {
    const box = await boxOf(answerButton(phone, name));
    expect(box.y).toBeGreaterThanOrEqual(height * 0.75);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
  }
  await screenshot(phone, "study-phone-answer");
});

test("on desktop a long answer scrolls above the answer bar, which stays in view; the keys are listed", async () => {
  const height = 800;
  const page = await openPage(browser(), { viewport: { width: 1280, height } });
  const long = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of the answer`).join("<br>");
  const deckId = await seedDeck(account.id, "Long answers", [{ front: "Question 1", back: long }]);
  await openStudy(page, account, deckId);
  await cardArea(page).locator(".card-view-front").getByText("Question 1", { exact: true }).waitFor();
  await page.keyboard.press("Space");
  await cardArea(page).locator(".card-view-back").getByText("Line 80 of the answer").waitFor();

  expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  for (const name of answers) {
    const box = await boxOf(answerButton(page, name));
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
  }
  await page.getByRole("button", { name: /Shortcuts/ }).waitFor();
  await screenshot(page, "study-desktop-long-answer");
});
