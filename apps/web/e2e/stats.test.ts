import { Rating } from "@engram/core";
import type { Engram } from "@engram/sdk";
import type { Locator, Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { engramFor } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { basicNotes, seedDeck } from "./support/decks.js";
import { accountMenu, decksHeading, signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("stats");
});

const day = 86_400_000;
const heading = () => page.getByRole("heading", { level: 1, name: "Statistics" });
/** The screen once its figures for the current choice are on it. */
const ready = () => page.locator('.stats[data-state="ready"]').waitFor();
const section = (name: string) => page.getByRole("region", { name, exact: true });
const table = (name: string | RegExp) => page.getByRole("table", { name });

/** A figure in the Today panel, e.g. "Answers" → "9". */
const todayFigure = (name: string) =>
  section("Today")
    .locator(".today-stat")
    .filter({ has: page.locator("dt").filter({ hasText: new RegExp(`^\\s*${name}\\s*$`) }) })
    .locator(".today-stat-value")
    .textContent();

/** The cells of a table row, its header cell first. */
const cells = async (row: Locator) => (await row.locator("th, td").allTextContents()).map((text) => text.trim());
const bodyRow = (of: Locator, header: string) =>
  of.locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: header, exact: true }) });

async function cardsOf(deckId: string): Promise<string[]> {
  const { data, error } = await adminClient().from("cards").select("id").eq("deck_id", deckId).order("created_at");
  if (error) throw error;
  return data.map((card) => card.id);
}

/** Makes a card a review card due now, with `interval` days before this answer (young under 21, mature from 21). */
async function makeReview(cardId: string, interval: number) {
  const { error } = await adminClient()
    .from("card_states")
    .update({
      state: "review",
      due: new Date(Date.now() - 3_600_000).toISOString(),
      last_review: new Date(Date.now() - interval * day).toISOString(),
      stability: interval,
      difficulty: 5,
      scheduled_days: interval,
      reps: 3,
    })
    .eq("user_id", account.id)
    .eq("card_id", cardId);
  if (error) throw error;
}

/** Answers each card (by id) in today's queue with its rating, five seconds each, as the study screen would. */
async function answer(engram: Engram, deckId: string, ratings: [string, Rating][]) {
  const queue = await engram.study.queue({ deckId });
  for (const [cardId, rating] of ratings) {
    const card = queue.find((item) => item.card_id === cardId);
    if (!card) throw new Error(`card ${cardId} is not in today's queue`);
    await engram.study.recordReview({ card, rating, duration_ms: 5000 });
  }
}

/**
 * Spanish (8 cards): four new ones answered good, again, easy, hard; two young
 * reviews answered good and again; two mature reviews good and hard.
 * Anatomy (3 cards): one new card answered good.
 */
async function studiedDecks(engram: Engram) {
  const spanish = await seedDeck(account.id, "Spanish", basicNotes(8, "Verb"));
  const anatomy = await seedDeck(account.id, "Anatomy", basicNotes(3, "Bone"));
  const [a, b, c, d, young1, young2, mature1, mature2] = await cardsOf(spanish);
  const [bone] = await cardsOf(anatomy);
  if (!a || !b || !c || !d || !young1 || !young2 || !mature1 || !mature2 || !bone) throw new Error("too few cards");
  await makeReview(young1, 3);
  await makeReview(young2, 5);
  await makeReview(mature1, 30);
  await makeReview(mature2, 45);
  await answer(engram, spanish, [
    [a, Rating.good],
    [b, Rating.again],
    [c, Rating.easy],
    [d, Rating.hard],
    [young1, Rating.good],
    [young2, Rating.again],
    [mature1, Rating.good],
    [mature2, Rating.hard],
  ]);
  await answer(engram, anatomy, [[bone, Rating.good]]);
  return { spanish, anatomy };
}

test("the figures are the server's and add up by hand, as charts with names and as tables", async () => {
  const engram = await engramFor(account);
  await studiedDecks(engram);
  const user = await engram.stats.user();
  const reviews = await engram.stats.reviews({ days: 30 });

  // Reached from the account menu, as a user finds it.
  await signInWithPassword(page, account, "/sign-in?next=%2Fdecks");
  await decksHeading(page).waitFor();
  await accountMenu(page, account.email).click();
  await page.getByRole("menuitem", { name: "Statistics" }).click();
  await heading().waitFor();
  await ready();
  expect(new URL(page.url()).pathname).toBe("/stats");

  // Today: nine answers (the server's count too), two "again", 45 seconds; of the four reviews, three passed.
  expect(user.reviewed_today).toBe(9);
  expect(await todayFigure("Answers")).toBe(String(user.reviewed_today));
  expect(await todayFigure("Again")).toBe("2");
  expect(await todayFigure("Time")).toBe("45 s");
  expect(await todayFigure("True retention")).toBe("75.0%");

  // Reviews per day, by the state before the answer: five new, four review, all today.
  const perDay = table("Reviews per day by card state, past 1 month");
  const todayRow = reviews.per_day.find((row) => row.date === reviews.today);
  expect(todayRow).toMatchObject({ new: 5, learning: 0, relearning: 0, review: 4 });
  expect((await cells(perDay.locator("tfoot tr"))).slice(1)).toEqual(["5", "0", "0", "4", "9"]);

  // True retention today: young 1 passed 1 failed, mature 2 passed; the same as the server's.
  const retentionToday = reviews.retention.find((row) => row.period === "today");
  expect(retentionToday).toEqual({
    period: "today",
    young: { passed: 1, failed: 1 },
    mature: { passed: 2, failed: 0 },
  });
  expect(await cells(page.locator('.retention-table tr[data-period="today"]'))).toEqual([
    "Today",
    "1",
    "1",
    "50.0%",
    "2",
    "0",
    "100.0%",
    "3",
    "1",
    "75.0%",
  ]);

  // The forecast's total and the card counts are the server's.
  const forecastTotal = user.forecast.reduce((sum, row) => sum + row.due, 0);
  expect(forecastTotal).toBeGreaterThan(0);
  expect((await cells(table("Cards due per day, next 30 days").locator("tfoot tr")))[1]).toBe(String(forecastTotal));
  const counts = table("Cards by state");
  for (const [state, name] of [
    ["new", "New"],
    ["learning", "Learning"],
    ["relearning", "Relearning"],
    ["review", "Review"],
    ["suspended", "Suspended"],
  ] as const) {
    expect((await cells(bodyRow(counts, name)))[1]).toBe(String(user.card_counts[state]));
  }
  expect((await cells(counts.locator("tfoot tr")))[1]).toBe("11");

  // Answer buttons: learning again/hard/good/easy = 1/1/2/1 (80% correct), young 1/0/1/0, mature 0/1/1/0.
  expect(reviews.buttons).toEqual({ learning: [1, 1, 2, 1], young: [1, 0, 1, 0], mature: [0, 1, 1, 0] });
  const buttons = table("Answer buttons pressed, past 1 month");
  expect(await cells(bodyRow(buttons, "Learning"))).toEqual(["Learning", "1", "1", "2", "1", "80.0%"]);
  expect(await cells(bodyRow(buttons, "Young"))).toEqual(["Young", "1", "0", "1", "0", "50.0%"]);
  expect(await cells(bodyRow(buttons, "Mature"))).toEqual(["Mature", "0", "1", "1", "0", "100.0%"]);

  // Every chart has a name and is drawn.
  for (const name of [/^Bar chart of reviews per day/, /^Bar chart of time studied/, /^Bar chart of cards due/]) {
    expect(await page.getByRole("img", { name }).locator(".chart-bar").count()).toBeGreaterThan(0);
  }
  expect(await page.getByRole("img", { name: /^Donut chart of cards by state/ }).count()).toBe(1);
  // Today's square in the calendar names its nine reviews.
  expect(await page.locator(`.calendar-day[data-date="${user.today}"]`).getAttribute("aria-label")).toMatch(
    /^9 reviews on /,
  );

  // The calendar is one tab stop on today; arrow keys move by day and week, End comes back to today.
  const calendar = page.getByRole("group", { name: /^Days of the past year/ });
  const focusedDate = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date);
  const readout = page.locator(".calendar-readout");
  await calendar.locator('[tabindex="0"]').focus();
  expect(await focusedDate()).toBe(user.today);
  expect(await readout.textContent()).toMatch(/^9 reviews on /);
  await page.keyboard.press("ArrowLeft");
  expect(await focusedDate()).toBe(shiftDate(user.today, -7));
  await page.keyboard.press("ArrowUp");
  expect(await focusedDate()).toBe(shiftDate(user.today, -8));
  await page.keyboard.press("ArrowRight");
  expect(await focusedDate()).toBe(shiftDate(user.today, -1));
  expect(await readout.textContent()).toBe(
    await page.locator(`.calendar-day[data-date="${shiftDate(user.today, -1)}"]`).getAttribute("aria-label"),
  );
  await page.keyboard.press("ArrowRight");
  expect(await focusedDate()).toBe(user.today);
  await page.keyboard.press("Home");
  expect(await focusedDate()).toBe(shiftDate(user.today, -364));
  await page.keyboard.press("ArrowUp");
  expect(await focusedDate()).toBe(shiftDate(user.today, -364));
  await page.keyboard.press("End");
  expect(await focusedDate()).toBe(user.today);
  expect(await calendar.locator('[tabindex="0"]').count()).toBe(1);

  await screenshot(page, "stats");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  // The charts follow their boxes' new width on the next resize observation.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, "stats-phone");
  await page.setViewportSize({ width: 1024, height: 720 });

  // "Show as table" puts a chart's figures on screen in its place.
  const reviewsSection = section("Reviews");
  await reviewsSection.getByRole("button", { name: "Show as table: Reviews" }).click();
  expect(await perDay.isVisible()).toBe(true);
  expect(await reviewsSection.getByRole("img", { name: /^Bar chart of reviews per day/ }).count()).toBe(0);
  await reviewsSection.getByRole("button", { name: "Show as chart: Reviews" }).click();
  await reviewsSection.getByRole("img", { name: /^Bar chart of reviews per day/ }).waitFor();

  // Pointing at a bar shows its day's figures in a card, gone when the pointer leaves.
  const reviewsChart = page.getByRole("img", { name: /^Bar chart of reviews per day/ });
  const tooltipTitle = (chart: Locator) => chart.locator(".stats-tooltip-title").textContent();
  await reviewsChart.locator(".chart-bar").last().hover();
  expect(await tooltipTitle(reviewsChart)).toMatch(/: 9 reviews$/);
  expect(await reviewsChart.locator(".stats-tooltip-row").allTextContents()).toEqual([
    "New5",
    "Learning0",
    "Relearning0",
    "Review4",
  ]);
  await page.mouse.move(0, 0);
  await reviewsChart.locator(".stats-tooltip").waitFor({ state: "detached" });

  // With a chart in focus, the arrow keys move the card from bar to bar; Escape puts it away.
  const forecastChart = page.getByRole("img", { name: /^Bar chart of cards due/ });
  await forecastChart.focus();
  await page.keyboard.press("Home");
  expect(await tooltipTitle(forecastChart)).toBe("Today, with overdue cards");
  expect(await forecastChart.locator(".stats-tooltip-value").textContent()).toMatch(
    new RegExp(`^${user.forecast[0]?.due} cards?$`),
  );
  await page.keyboard.press("ArrowRight");
  expect(await tooltipTitle(forecastChart)).not.toBe("Today, with overdue cards");
  expect(await forecastChart.locator(".stats-tooltip-value").textContent()).toMatch(
    new RegExp(`^${user.forecast[1]?.due} cards?$`),
  );
  await page.keyboard.press("Escape");
  await forecastChart.locator(".stats-tooltip").waitFor({ state: "detached" });
});

test("an answer elsewhere arrives live; one deck and a year, kept in the URL", async () => {
  const engram = await engramFor(account);
  const { spanish, anatomy } = await studiedDecks(engram);
  await signInWithPassword(page, account, "/sign-in?next=%2Fstats");
  await heading().waitFor();
  await ready();
  expect(await todayFigure("Answers")).toBe("9");
  const perDay = table("Reviews per day by card state, past 1 month");
  const buttons = table("Answer buttons pressed, past 1 month");
  const counts = table("Cards by state");

  // An answer on another device arrives without a reload.
  const [bone2] = (await cardsOf(anatomy)).slice(1);
  if (!bone2) throw new Error("no second Anatomy card");
  await answer(engram, anatomy, [[bone2, Rating.again]]);
  await expect.poll(() => todayFigure("Answers")).toBe("10");
  await expect.poll(() => todayFigure("Again")).toBe("3");

  // One deck: Spanish's own figures, and the choice is in the URL.
  await page.getByLabel("Deck", { exact: true }).selectOption({ label: "Spanish" });
  await page.waitForURL((url) => url.searchParams.get("deck") === spanish);
  await ready();
  await expect.poll(() => todayFigure("Answers")).toBe("8");
  const spanishUser = await engram.stats.user({ deckId: spanish });
  expect(spanishUser.reviewed_today).toBe(8);
  expect(await todayFigure("Again")).toBe("2");
  expect((await cells(perDay.locator("tfoot tr"))).slice(1)).toEqual(["4", "0", "0", "4", "8"]);
  expect(await cells(bodyRow(buttons, "Learning"))).toEqual(["Learning", "1", "1", "1", "1", "75.0%"]);
  expect((await cells(counts.locator("tfoot tr")))[1]).toBe("8");

  // The period switch: a year, in the URL too; a reload keeps both choices.
  await page.getByRole("radio", { name: "1 year" }).check();
  await page.waitForURL((url) => url.searchParams.get("period") === "365");
  await table("Reviews per day by card state, past 1 year").waitFor({ state: "attached" });
  await ready();
  await page.reload();
  await ready();
  // The select takes the URL's deck once the deck list has loaded.
  await expect.poll(() => page.getByLabel("Deck", { exact: true }).inputValue()).toBe(spanish);
  expect(await page.getByRole("radio", { name: "1 year" }).isChecked()).toBe(true);
  await expect.poll(() => todayFigure("Answers")).toBe("8");

  // Back to every deck.
  await page.getByLabel("Deck", { exact: true }).selectOption({ label: "All decks" });
  await expect.poll(() => todayFigure("Answers")).toBe("10");

  // All time: every answer since the first, as the server counts them.
  await page.getByRole("radio", { name: "All time" }).check();
  await page.waitForURL((url) => url.searchParams.get("period") === "all");
  const allTime = table("Reviews per day by card state, all time");
  await allTime.waitFor({ state: "attached" });
  await ready();
  const all = await engram.stats.reviews({ days: "all" });
  const answered = all.per_day.reduce((sum, day) => sum + day.new + day.learning + day.relearning + day.review, 0);
  expect(answered).toBeGreaterThanOrEqual(10);
  await expect.poll(async () => (await cells(allTime.locator("tfoot tr")))[5]).toBe(String(answered));
});

test("a new account is told there is nothing yet, with the way to study", async () => {
  await signInWithPassword(page, account, "/sign-in?next=%2Fstats");
  await heading().waitFor();
  await page.getByRole("heading", { name: "No reviews yet" }).waitFor();
  expect(await page.getByRole("link", { name: "Make a deck to study" }).getAttribute("href")).toBe("/decks");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await screenshot(page, "stats-empty");

  // With cards but no answers: study them, and their counts already show.
  await seedDeck(account.id, "French", basicNotes(4, "Mot"));
  await page.reload();
  await page.getByRole("heading", { name: "No reviews yet" }).waitFor();
  expect(await page.getByRole("link", { name: "Study now" }).getAttribute("href")).toBe("/study");
  expect((await cells(table("Cards by state").locator("tfoot tr")))[1]).toBe("4");
  expect(await page.getByRole("region", { name: "Reviews", exact: true }).count()).toBe(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "stats-empty-phone");
});

test("a deck the user is not in: the error in words and the way back to every deck", async () => {
  await signInWithPassword(page, account, `/sign-in?next=${encodeURIComponent(`/stats?deck=${crypto.randomUUID()}`)}`);
  await heading().waitFor();
  const alert = page.getByRole("alert");
  await alert.getByText("This no longer exists, or it isn't shared with you.").waitFor();
  await alert.getByRole("button", { name: "Show all decks" }).click();
  await page.getByRole("heading", { name: "No reviews yet" }).waitFor();
  expect(new URL(page.url()).searchParams.get("deck")).toBeNull();
});

/** The ISO date `days` after `date` (negative: before). */
function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * day).toISOString().slice(0, 10);
}
