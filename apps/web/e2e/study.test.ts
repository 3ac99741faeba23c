import { Rating } from "@engram/core";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import {
  answerButton,
  cardArea,
  countsText,
  endsWith,
  engramFor,
  openStudy,
  reviewLogs,
  setDue,
  showAnswer,
} from "./study-fixtures.js";
import { type Account, adminClient, newAccount, startDayFarFromNow } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { basicNotes, seedDeck } from "./support/decks.js";
import { redPng, silentWav } from "./support/media.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("study");
});

const front = (text: string) => cardArea(page).locator(".card-view-front").getByText(text, { exact: true });
/** The answer side is the question, a rule and the answer (docs/product.md §3): the answer ends it. */
const back = (text: string) => cardArea(page).locator(".card-view-back").getByText(endsWith(text));

async function expectCounts(text: string) {
  await expect.poll(() => countsText(page)).toBe(text);
}

/** Space reveals, then the digit answers; waits for the answer side in between. */
async function answer(key: "1" | "2" | "3" | "4", backText: string) {
  await page.keyboard.press("Space");
  await back(backText).waitFor();
  await page.keyboard.press(key);
}

test("by keyboard alone: reveal, answer with the intervals shown, undo, learning cards come back, summary", async () => {
  const deckId = await seedDeck(account.id, "Capitals", basicNotes(3));
  await openStudy(page, account, deckId);
  await front("Question 1").waitFor();
  await expectCounts("3 New 0 Learning 0 Review");
  expect(await back("Answer 1").count()).toBe(0);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "study-front");

  await page.keyboard.press("Space");
  await back("Answer 1").waitFor();
  // A new card: Again in a minute, Good in ten (the first learning steps), Easy in days.
  expect(await answerButton(page, "Again").innerText()).toContain("1m");
  expect(await answerButton(page, "Good").innerText()).toContain("10m");
  expect(await answerButton(page, "Easy").innerText()).toMatch(/\dd/);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "study-revealed");

  await page.keyboard.press("1");
  await front("Question 2").waitFor();
  await expectCounts("2 New 1 Learning 0 Review");
  expect(await back("Answer 2").count()).toBe(0);

  await page.keyboard.press("u");
  await front("Question 1").waitFor();
  await expectCounts("3 New 0 Learning 0 Review");

  await answer("1", "Answer 1");
  await front("Question 2").waitFor();
  await answer("3", "Answer 2");
  await front("Question 3").waitFor();
  await expectCounts("1 New 2 Learning 0 Review");
  await answer("4", "Answer 3");
  // Nothing new is left: the learning card due first comes back within the session.
  await front("Question 1").waitFor();
  await expectCounts("0 New 2 Learning 0 Review");
  await answer("4", "Answer 1");
  await front("Question 2").waitFor();
  await answer("4", "Answer 2");

  const summary = page.getByRole("heading", { name: /You've finished for now/ });
  await summary.waitFor();
  expect(await page.getByText(/You answered 5 cards in/).isVisible()).toBe(true);
  expect(await page.getByText(/Again 20% of the time/).isVisible()).toBe(true);
  const table = page.getByRole("table", { name: "Answers by button" });
  expect((await table.locator("td").allInnerTexts()).map(Number)).toEqual([1, 0, 1, 3]);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "study-summary");

  // Every answer reached the server once; the undone one is not there.
  await expect
    .poll(async () => (await reviewLogs(account.id)).map((log) => log.rating), { timeout: 15_000 })
    .toEqual([Rating.again, Rating.good, Rating.easy, Rating.easy, Rating.easy]);
});

test("keys are ignored while the shortcuts dialog is open; ? shows them; 2 answers Hard", async () => {
  const deckId = await seedDeck(account.id, "Keys", basicNotes(1));
  await openStudy(page, account, deckId);
  await front("Question 1").waitFor();
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await dialog.waitFor();
  expect(await dialog.getByRole("row", { name: /Undo the last answer/ }).isVisible()).toBe(true);
  await screenshot(page, "study-shortcuts");
  await page.keyboard.press("r");
  await page.keyboard.press("u");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await page.keyboard.press("Enter");
  await back("Answer 1").waitFor();
  // Nothing was answered or undone while the dialog was open; 2 answers Hard now.
  expect(await reviewLogs(account.id)).toEqual([]);
  await page.keyboard.press("2");
  await expect.poll(async () => (await reviewLogs(account.id)).map((log) => log.rating)).toEqual([Rating.hard]);
});

test("E edits the card's note in place and the card shows the new text", async () => {
  const deckId = await seedDeck(account.id, "Edit", basicNotes(2));
  await openStudy(page, account, deckId);
  await front("Question 1").waitFor();
  await page.keyboard.press("e");
  const dialog = page.getByRole("dialog", { name: "Edit note" });
  await dialog.waitFor();
  const field = dialog.getByRole("textbox", { name: "Front" });
  await expect.poll(() => field.innerText()).toBe("Question 1");
  await field.click();
  await page.keyboard.press("ControlOrMeta+a");
  // Typing digits and letters in the editor must not answer the card or undo.
  await page.keyboard.type("Edited 1 question");
  await page.keyboard.press("ControlOrMeta+Enter");
  await dialog.waitFor({ state: "hidden" });
  await front("Edited 1 question").waitFor();
  await expectCounts("2 New 0 Learning 0 Review");
  await page.keyboard.press("Space");
  await back("Answer 1").waitFor();
  await page.keyboard.press("3");
  await front("Question 2").waitFor();
});

test("cloze blanks with their hint, images and sounds from the deck's storage; R replays", async () => {
  const deckId = await seedDeck(account.id, "Media", [
    { kind: "cloze", text: "{{c1::Paris::capital}} is in France" },
    { front: 'What animal? <img src="cat.png" alt="A cat">', back: 'Cat <audio src="meow.wav"></audio>' },
  ]);
  const engram = await engramFor(account);
  await engram.storage.uploadMedia(deckId, new Uint8Array(redPng), { name: "cat.png" });
  await engram.storage.uploadMedia(deckId, new Uint8Array(silentWav()), { name: "meow.wav" });

  await openStudy(page, account, deckId);
  const blank = cardArea(page).locator(".card-view-front .cloze");
  await blank.waitFor();
  expect(await blank.innerText()).toBe("[capital]");
  expect(await cardArea(page).locator(".card-view-front").innerText()).toBe("[capital] is in France");
  await screenshot(page, "study-cloze-front");
  await page.keyboard.press("Space");
  expect(await cardArea(page).locator(".card-view-back .cloze").innerText()).toBe("Paris");
  await page.keyboard.press("4");

  const image = cardArea(page).getByRole("img", { name: "A cat" });
  await image.waitFor();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 })
    .toBe(2);
  expect(await image.getAttribute("src")).toContain(`/storage/v1/object/sign/media/${deckId}/cat.png`);

  // Every play() call counted, whether or not the browser lets the sound start.
  await page.evaluate(() => {
    const counter = window as { plays?: number };
    counter.plays = 0;
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      counter.plays = (counter.plays ?? 0) + 1;
      return play.call(this);
    };
  });
  const plays = () => page.evaluate(() => (window as { plays?: number }).plays ?? 0);
  await page.keyboard.press("Space");
  const audio = cardArea(page).locator(".card-view-back audio");
  await audio.waitFor();
  await expect.poll(() => audio.getAttribute("src")).toContain(`/media/${deckId}/meow.wav`);
  // The answer side's sound plays as it is shown, and R plays it again.
  await expect.poll(plays).toBe(1);
  await page.keyboard.press("r");
  await expect.poll(plays).toBe(2);
  await screenshot(page, "study-media");
});

test("only learning cards not yet due: the screen says when the next one comes", async () => {
  // A learning card due after the day ends counts for tomorrow; keep the day's end far away.
  await startDayFarFromNow(account.id);
  const deckId = await seedDeck(account.id, "Later", basicNotes(1));
  const engram = await engramFor(account);
  const [card] = await engram.study.queue({ deckId });
  if (!card) throw new Error("the deck has a card");
  await engram.study.recordReview({ card, rating: Rating.again, duration_ms: 1000 });
  // Thirty minutes away: past the session's twenty-minute look-ahead.
  await setDue(account.id, card.card_id, new Date(Date.now() + 30 * 60_000));

  await openStudy(page, account, deckId);
  await page.getByRole("heading", { name: /^Next card in (9|10) min$/ }).waitFor();
  await expectCounts("0 New 1 Learning 0 Review");
  await screenshot(page, "study-waiting");
});

test("nothing due says when the next review is; an empty deck says to add notes", async () => {
  const deckId = await seedDeck(account.id, "Done", basicNotes(1));
  const engram = await engramFor(account);
  const [card] = await engram.study.queue({ deckId });
  if (!card) throw new Error("the deck has a card");
  await engram.study.recordReview({ card, rating: Rating.easy, duration_ms: 1000 });

  await openStudy(page, account, deckId);
  await page.getByRole("heading", { name: "Nothing due right now" }).waitFor();
  await page.getByText(/^Next review (tomorrow at \d\d:\d\d|in \d+ days \(.+\))\.$/).waitFor();
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "study-nothing-due");

  const emptyDeck = await seedDeck(account.id, "Empty", []);
  await page.goto(`/decks/${emptyDeck}/study`);
  await page.getByText("This deck has no cards to study yet. Add some notes to start.").waitFor();
});

test("two devices answer the same card: the one that came second is told why its answer did not count", async () => {
  const deckId = await seedDeck(account.id, "Shared", basicNotes(1));
  const other = await openPage(browser());
  await openStudy(page, account, deckId);
  await openStudy(other, account, deckId);
  await front("Question 1").waitFor();
  await other.locator(".card-view-front").getByText("Question 1").waitFor();

  // The other device answers Easy first: the card moves days ahead.
  await other.keyboard.press("Space");
  await other.keyboard.press("4");
  await expect.poll(async () => (await reviewLogs(account.id)).length, { timeout: 15_000 }).toBe(1);

  await answer("3", "Answer 1");
  const notice = page.getByText(/Answered on another device/);
  await notice.waitFor({ timeout: 15_000 });
  expect(await page.locator(".answered-elsewhere-notice").innerText()).toContain(
    "“Question 1” was answered there first, so your answer here was not counted.",
  );
  await screenshot(page, "study-answered-elsewhere");
  expect(await reviewLogs(account.id)).toEqual([expect.objectContaining({ rating: Rating.easy })]);
});

test("forgetting a card for the eighth time makes it a leech: the screen says so, it is suspended and marked in the deck", async () => {
  const deckId = await seedDeck(account.id, "Leeches", basicNotes(2));
  const admin = adminClient();
  const cardOf = async (front: string) => {
    const { data, error } = await admin
      .from("notes")
      .select("cards(id)")
      .eq("deck_id", deckId)
      .eq("fields->>front", front)
      .single();
    if (error) throw error;
    return data.cards[0]?.id ?? "";
  };
  const [forgotten, known] = [await cardOf("Question 1"), await cardOf("Question 2")];
  const day = 86_400_000;
  // Both cards are reviews due since yesterday, the first one first; it was forgotten seven times already.
  for (const [cardId, lapses, dueDaysAgo] of [
    [forgotten, 7, 2],
    [known, 0, 1],
  ] as const) {
    const updated = await admin
      .from("card_states")
      .update({
        state: "review",
        due: new Date(Date.now() - dueDaysAgo * day).toISOString(),
        last_review: new Date(Date.now() - 10 * day).toISOString(),
        stability: 9,
        difficulty: 6,
        scheduled_days: 9,
        reps: 12,
        lapses,
      })
      .eq("user_id", account.id)
      .eq("card_id", cardId);
    if (updated.error) throw updated.error;
  }

  await openStudy(page, account, deckId);
  await front("Question 1").waitFor();
  await expectCounts("0 New 0 Learning 2 Review");
  await answer("1", "Answer 1");
  await front("Question 2").waitFor();

  const notice = page.getByRole("status").filter({ hasText: "Leech:" });
  await notice.waitFor({ timeout: 15_000 });
  expect(await notice.innerText()).toBe("Leech: you've forgotten “Question 1” 8 times. It's been suspended.");
  expect(await notice.getAttribute("aria-live")).toBe("polite");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "study-leech");

  // Relearning, the card would come back within the session; suspended, it does not.
  await expectCounts("0 New 0 Learning 1 Review");
  await answer("4", "Answer 2");
  await page.getByRole("heading", { name: /You've finished for now/ }).waitFor();
  const { data: state } = await admin
    .from("card_states")
    .select("suspended, leech_at, lapses")
    .eq("user_id", account.id)
    .eq("card_id", forgotten)
    .single();
  expect(state).toMatchObject({ suspended: true, lapses: 8, leech_at: expect.any(String) });

  // The deck screen shows the card as the user's leech.
  await page.goto(`/decks/${deckId}`);
  await page.getByRole("button", { name: "Question 1" }).click();
  const table = page.getByRole("table", { name: "Cards of this note" });
  await table.getByText("leech", { exact: true }).waitFor();
  expect(await page.getByRole("checkbox", { name: "Suspend Front → Back" }).isChecked()).toBe(true);
});

test("on a phone, taps reveal and answer; the answer buttons are big enough for a thumb", async () => {
  const phone = await openPage(browser(), { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const deckId = await seedDeck(account.id, "Phone", basicNotes(2));
  await openStudy(phone, account, deckId);
  const phoneFront = (text: string) => cardArea(phone).locator(".card-view-front").getByText(text, { exact: true });
  await phoneFront("Question 1").waitFor();
  await showAnswer(phone).tap();
  await cardArea(phone).locator(".card-view-back").getByText(endsWith("Answer 1")).waitFor();
  for (const name of ["Again", "Hard", "Good", "Easy"] as const) {
    const box = await answerButton(phone, name).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(48);
    expect(box?.width).toBeGreaterThanOrEqual(48);
  }
  await screenshot(phone, "study-phone-revealed");
  await answerButton(phone, "Easy").tap();
  await phoneFront("Question 2").waitFor();
  await expect.poll(async () => (await reviewLogs(account.id)).map((log) => log.rating)).toEqual([Rating.easy]);
});
