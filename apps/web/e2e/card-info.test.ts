import { Rating } from "@engram/core";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { noteList, noteRow } from "./deck-fixtures.js";
import { engramFor } from "./study-fixtures.js";
import { type Account, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let owner: Account;

beforeEach(async () => {
  page = await openPage(browser());
  owner = await newAccount("card-info");
});

test("card info lists the card's answers, its retrievability and its forgetting curve", async () => {
  const deckId = await seedDeck(owner.id, "Capitals", [{ front: "Peru?", back: "Lima" }]);
  const engram = await engramFor(owner);
  const [card] = await engram.study.queue({ deckId });
  if (!card) throw new Error("the seeded card is not in the queue");
  const first = await engram.study.recordReview({ card, rating: Rating.good, duration_ms: 1200 });
  await engram.study.recordReview({ card: first, rating: Rating.again, duration_ms: 3000 });

  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await noteList(page).waitFor();
  await noteRow(page, "Peru?").getByRole("button", { name: "Peru?" }).click();
  await page.getByRole("table", { name: "Cards of this note" }).waitFor();
  await page.getByRole("button", { name: /^Card info/ }).click();

  const dialog = page.getByRole("dialog", { name: "Card info" });
  const reviews = dialog.getByRole("table", { name: "Your reviews of this card" });
  await reviews.waitFor();
  // Newest first: Again, then Good, with the time each took.
  const ratings = await reviews.locator("tbody tr td.rating").allTextContents();
  expect(ratings).toEqual(["Again", "Good"]);
  expect(await reviews.locator("tbody tr").nth(0).textContent()).toContain("3 s");
  expect(await reviews.locator("tbody tr").nth(1).textContent()).toContain("1.2 s");

  const fact = (term: string) => dialog.locator(".card-info-facts div").filter({ hasText: term }).locator("dd");
  expect(await fact("Reviews").textContent()).toBe("2");
  expect(await fact("Total time").textContent()).toBe("4.2 s");
  // Answered a moment ago: recall is still certain.
  expect(await fact("Retrievability").textContent()).toMatch(/^(100|99)/);
  const curve = dialog.getByRole("img");
  expect(await curve.getAttribute("aria-label")).toMatch(/\d/);
  expect(await dialog.locator("svg path").count()).toBeGreaterThan(0);

  await screenshot(page, "card-info");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});
