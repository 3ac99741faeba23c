import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { cardArea, countsText, endsWith, reviewLogs } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { basicNotes, seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

// Custom study (docs/product.md, "Custom study"): the dialog from the deck
// screen, each choice, preview that records nothing and reschedule that
// records answers.

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("custom");
});

const DAY = 86_400_000;
const dialog = () => page.getByRole("dialog", { name: "Custom study" });
const status = () => dialog().getByRole("status");
const front = (text: string) => cardArea(page).locator(".card-view-front").getByText(text, { exact: true });
const back = (text: string) => cardArea(page).locator(".card-view-back").getByText(endsWith(text));
const banner = () => page.getByRole("region", { name: "Custom study" });

/** The card id of each note's single card, by front. */
async function cardsByFront(deckId: string): Promise<Map<string, string>> {
  const { data, error } = await adminClient().from("notes").select("fields, cards(id)").eq("deck_id", deckId);
  if (error) throw error;
  return new Map(
    data.map((note) => [(note.fields as { front: string }).front, (note.cards as { id: string }[])[0]?.id ?? ""]),
  );
}

/** Makes a card a review card of the user due at `due`. */
async function scheduleReview(userId: string, cardId: string, due: Date) {
  const { error } = await adminClient()
    .from("card_states")
    .update({
      state: "review",
      due: due.toISOString(),
      stability: 12,
      difficulty: 5,
      scheduled_days: 12,
      reps: 3,
      last_review: new Date(due.getTime() - 12 * DAY).toISOString(),
    })
    .eq("user_id", userId)
    .eq("card_id", cardId);
  if (error) throw error;
}

async function schedules(userId: string) {
  const { data, error } = await adminClient()
    .from("card_states")
    .select("card_id, state, due, stability, reps, version")
    .eq("user_id", userId)
    .order("card_id");
  if (error) throw error;
  return data;
}

async function signInToDeck(deckId: string) {
  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.waitForURL((url) => url.pathname === `/decks/${deckId}`);
}

async function openDialog(deckId: string) {
  if (new URL(page.url()).pathname !== `/decks/${deckId}`) await page.goto(`/decks/${deckId}`);
  await page.getByRole("button", { name: "Custom study" }).click();
  await dialog().waitFor();
}

async function waitForStatus(text: string) {
  await expect.poll(() => status().textContent()).toBe(text);
}

test("study ahead as a preview: the dialog counts, the session flips through, a reload keeps it, nothing is recorded", async () => {
  const deckId = await seedDeck(account.id, "Exam", basicNotes(4));
  const cards = await cardsByFront(deckId);
  await scheduleReview(account.id, cards.get("Question 3") ?? "", new Date(Date.now() + 2 * DAY));
  await scheduleReview(account.id, cards.get("Question 4") ?? "", new Date(Date.now() + 10 * DAY));
  const before = await schedules(account.id);

  await signInToDeck(deckId);
  await openDialog(deckId);
  expect(await dialog().getByRole("radio", { name: "Study ahead" }).isChecked()).toBe(true);
  await waitForStatus("1 card matches.");
  await dialog().getByLabel("Cards due in the next days").fill("30");
  await waitForStatus("2 cards match.");
  expect(
    await dialog()
      .getByRole("radio", { name: /^Preview/ })
      .isChecked(),
  ).toBe(true);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "custom-study-dialog");

  await dialog().getByRole("button", { name: "Start" }).click();
  await page.waitForURL((url) => url.pathname === `/decks/${deckId}/custom-study`);
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
    mode: "ahead",
    days: "30",
    answers: "preview",
  });
  await front("Question 3").waitFor();
  expect(await banner().textContent()).toContain("Preview — your schedule is not changed.");
  expect(await countsText(page)).toBe("0 New 0 Learning 2 Review");

  // Again shows the card again after the others; Good moves on.
  await page.keyboard.press("Space");
  await back("Answer 3").waitFor();
  await page.keyboard.press("1");
  await front("Question 4").waitFor();
  await page.keyboard.press("Space");
  await back("Answer 4").waitFor();
  await page.keyboard.press("3");
  await front("Question 3").waitFor();

  await page.reload();
  await front("Question 3").waitFor();
  expect(await countsText(page)).toBe("0 New 0 Learning 2 Review");
  // Checked on the session as loaded by itself: the deck screen's stylesheet, once loaded, restyles every kbd.
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "custom-study-session");
  await page.keyboard.press("Space");
  await back("Answer 3").waitFor();
  await page.keyboard.press("3");
  await front("Question 4").waitFor();

  expect(await reviewLogs(account.id)).toEqual([]);
  expect(await schedules(account.id)).toEqual(before);
});

test("cram by search with reschedule records the answers, and the card answered Again is then forgotten", async () => {
  const deckId = await seedDeck(account.id, "Biology", [
    { front: "Mitosis", back: "Cell division", tags: ["exam1"] },
    { front: "Meiosis", back: "Makes gametes", tags: ["exam1"] },
    { front: "Osmosis", back: "Water moves", tags: ["exam2"] },
  ]);
  await signInToDeck(deckId);
  await openDialog(deckId);
  await dialog().getByRole("radio", { name: "Cram by search" }).check();
  await waitForStatus("Type a search, such as tag:exam1 or is:due.");
  await dialog().getByLabel("Search", { exact: true }).fill("tag:exam1 (");
  await expect.poll(() => status().textContent()).toMatch(/^This search does not parse/);
  expect(await dialog().getByRole("button", { name: "Start" }).isDisabled()).toBe(true);
  await dialog().getByLabel("Search", { exact: true }).fill("tag:exam1");
  await waitForStatus("2 cards match.");
  await dialog()
    .getByRole("radio", { name: /^Reschedule/ })
    .check();
  await dialog().getByRole("button", { name: "Start" }).click();

  await page.waitForURL((url) => url.searchParams.get("answers") === "reschedule");
  expect(new URL(page.url()).searchParams.get("q")).toBe("tag:exam1");
  expect(await banner().textContent()).toContain("Answers reschedule these cards as usual.");
  await front("Mitosis").waitFor();
  await page.keyboard.press("Space");
  await back("Cell division").waitFor();
  await page.keyboard.press("1");
  await front("Meiosis").waitFor();
  await page.keyboard.press("Space");
  await back("Makes gametes").waitFor();
  await page.keyboard.press("4");
  await expect.poll(async () => (await reviewLogs(account.id)).map((log) => log.rating)).toEqual([1, 4]);

  await openDialog(deckId);
  await dialog().getByRole("radio", { name: "Review forgotten cards" }).check();
  await waitForStatus("1 card matches.");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await dialog().getByRole("button", { name: "Start" }).click();
  await page.waitForURL((url) => url.searchParams.get("mode") === "forgotten");
  await front("Mitosis").waitFor();
});

test("more new cards today: the deck's study session gives them at once", async () => {
  const deckId = await seedDeck(account.id, "Words", basicNotes(5));
  const { error } = await adminClient().from("decks").update({ new_per_day: 1 }).eq("id", deckId);
  if (error) throw error;
  await signInToDeck(deckId);
  await openDialog(deckId);
  await dialog().getByRole("radio", { name: "More new cards today" }).check();
  await dialog().getByLabel("New cards to add today").fill("3");
  await waitForStatus("Today only, this deck shows up to 3 more new cards.");
  expect(
    await dialog()
      .getByRole("radio", { name: /^Preview/ })
      .count(),
  ).toBe(0);
  await dialog().getByRole("button", { name: "Add and study" }).click();
  await page.waitForURL((url) => url.pathname === `/decks/${deckId}/study`);
  await front("Question 1").waitFor();
  await expect.poll(() => countsText(page)).toBe("4 New 0 Learning 0 Review");
});
