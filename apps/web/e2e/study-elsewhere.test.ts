import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { answerButton, cardArea, countsText, engramFor, openStudy, reviewLogs, showAnswer } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";

// The open study screen follows the user's other devices (docs/product.md §2):
// a card suspended or buried there leaves it at once. Card info opens on the
// card being studied, by key and from the More menu.

const browser = browserPerFile();
let account: Account;

beforeEach(async () => {
  account = await newAccount("elsewhere");
});

/** Card ids by the text of their front. */
async function cardsByFront(deckId: string): Promise<Map<string, { cardId: string; noteId: string }>> {
  const { data, error } = await adminClient().from("cards").select("id, note_id, notes(fields)").eq("deck_id", deckId);
  if (error) throw error;
  return new Map(
    data.map((card) => [
      (card.notes as unknown as { fields: { front: string } }).fields.front,
      { cardId: card.id, noteId: card.note_id },
    ]),
  );
}

const shownFront = (page: Page) =>
  cardArea(page)
    .locator(".card-view-front")
    .getByText(/^Question \d$/);
const status = (page: Page) => page.getByRole("status").filter({ hasText: /\w/ }).last();

test("a card suspended and a note buried on another device leave the open study screen; the next card shows", async () => {
  const deckId = await seedDeck(account.id, "Elsewhere", [
    { front: "Question 1", back: "Answer 1" },
    { front: "Question 2", back: "Answer 2" },
    { front: "Question 3", back: "Answer 3" },
  ]);
  const cards = await cardsByFront(deckId);
  const page = await openPage(browser());
  await openStudy(page, account, deckId);
  await shownFront(page).waitFor();
  const first = (await shownFront(page).textContent()) ?? "";
  const phone = await engramFor(account);

  await phone.cards.setSuspended([cards.get(first)?.cardId ?? ""], true);
  await cardArea(page).getByText(first, { exact: true }).waitFor({ state: "detached" });
  await status(page).getByText("A card was suspended on another device").waitFor();
  await shownFront(page).waitFor();
  const second = (await shownFront(page).textContent()) ?? "";
  expect(second).not.toBe(first);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await phone.cards.setBuriedForNotes([cards.get(second)?.noteId ?? ""], true);
  await cardArea(page).getByText(second, { exact: true }).waitFor({ state: "detached" });
  await status(page).getByText("A card was buried on another device").waitFor();
  const third = (await shownFront(page).textContent()) ?? "";
  expect([first, second]).not.toContain(third);
  expect(await countsText(page)).toMatch(/^1\b/);
});

test("card info opens on the card being studied, by I and from the More menu, and gives the focus back to the card", async () => {
  const deckId = await seedDeck(account.id, "Capitals", [{ front: "Peru?", back: "Lima" }]);
  const page = await openPage(browser(), { viewport: { width: 1280, height: 900 } });
  await openStudy(page, account, deckId);
  await cardArea(page).getByText("Peru?").waitFor();
  await showAnswer(page).click();
  await answerButton(page, "Again").click();
  // Answered Again, it comes back at once (nothing else is left) with its answer saved.
  await expect.poll(async () => (await reviewLogs(account.id)).length, { timeout: 15_000 }).toBe(1);
  await showAnswer(page).waitFor();

  await page.keyboard.press("i");
  const dialog = page.getByRole("dialog", { name: "Card info" });
  const reviews = dialog.getByRole("table", { name: "Your reviews of this card" });
  await reviews.waitFor();
  expect(await reviews.locator("tbody tr td.rating").allTextContents()).toEqual(["Again"]);
  expect(await dialog.getByRole("img").getAttribute("aria-label")).toMatch(/\d/);
  expect(await dialog.locator("svg path").count()).toBeGreaterThan(0);
  await screenshot(page, "study-card-info");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  const cardHasFocus = () => page.evaluate(() => document.activeElement?.classList.contains("study-card") ?? false);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await expect.poll(cardHasFocus).toBe(true);

  await page.getByRole("button", { name: "More" }).click();
  await page
    .getByRole("menu", { name: "Card actions" })
    .getByRole("menuitem", { name: /Card info/ })
    .click();
  await reviews.waitFor();
  await dialog.getByRole("button", { name: "Close" }).click();
  await dialog.waitFor({ state: "detached" });
  await expect.poll(cardHasFocus).toBe(true);
  // The keys still act on the card.
  await page.keyboard.press("Space");
  await answerButton(page, "Good").waitFor();

  await page.keyboard.press("?");
  await page
    .getByRole("dialog", { name: "Keyboard shortcuts" })
    .getByText(/^Card info/)
    .waitFor();
});
