import { randomUUID } from "node:crypto";
import { Rating } from "@engram/core";
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { engramFor } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { basicNotes, seedDeck } from "./support/decks.js";
import { decksHeading, signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("dashboard");
});

const hour = 3_600_000;
const todayHeading = () => page.getByRole("heading", { level: 1, name: "Today" });
const deckRow = (name: string) => page.getByRole("list", { name: "Due today by deck" }).getByRole("listitem", { name });
/** "3 new 1 learning 2 review" as the row shows it. */
const numbers = async (name: string) =>
  (await deckRow(name).getByRole("list", { name: "Due today" }).innerText()).replace(/\s+/g, " ").trim();

async function cardsOf(deckId: string): Promise<string[]> {
  const { data, error } = await adminClient().from("cards").select("id").eq("deck_id", deckId).order("created_at");
  if (error) throw error;
  return data.map((card) => card.id);
}

async function schedule(cardId: string, state: "learning" | "review", due: Date) {
  const { error } = await adminClient()
    .from("card_states")
    .update({ state, due: due.toISOString(), stability: 4, difficulty: 5, scheduled_days: 3, reps: 2 })
    .eq("user_id", account.id)
    .eq("card_id", cardId);
  if (error) throw error;
}

/**
 * Answers as the server stores them, at moments in the past (the study days they fall in make the streak).
 * Whole days back from one `now` land on the same study days whatever the hour; half a day could cross the day start.
 */
async function answered(cardId: string, daysAgo: number[]) {
  const now = Date.now();
  const rows = daysAgo.map((ago) => ({
    user_id: account.id,
    card_id: cardId,
    client_review_id: randomUUID(),
    rating: 3,
    state: "review" as const,
    due: new Date(now - ago * 24 * hour).toISOString(),
    stability: 4,
    difficulty: 5,
    elapsed_days: 1,
    scheduled_days: 3,
    reviewed_at: new Date(now - ago * 24 * hour).toISOString(),
    duration_ms: 4000,
    previous: {},
  }));
  const { error } = await adminClient().from("review_logs").insert(rows);
  if (error) throw error;
}

test("the dashboard shows each deck's cards due today, the streak and the year's reviews, and Study all starts", async () => {
  const spanish = await seedDeck(account.id, "Spanish verbs", basicNotes(6, "Verb"));
  const anatomy = await seedDeck(account.id, "Anatomy", basicNotes(3, "Bone"));
  const chemistry = await seedDeck(account.id, "Chemistry", basicNotes(2, "Element"));
  const [review1, review2, learning] = await cardsOf(spanish);
  if (!review1 || !review2 || !learning) throw new Error("the notes made no cards");
  await schedule(review1, "review", new Date(Date.now() - hour));
  await schedule(review2, "review", new Date(Date.now() - 2 * hour));
  await schedule(learning, "learning", new Date(Date.now() - 60_000));
  for (const card of await cardsOf(chemistry)) await schedule(card, "review", new Date(Date.now() + 3 * 24 * hour));
  // Three days in a row ending today (two answers yesterday), and one day alone ten days back.
  await answered(review1, [0, 1, 1, 2, 10]);

  const engram = await engramFor(account);
  const stats = await engram.stats.decks();
  const user = await engram.stats.user();
  const byName = new Map(stats.map((row) => [row.name, row]));

  await signInWithPassword(page, account, "/sign-in?next=%2F");
  await todayHeading().waitFor();
  await deckRow("Spanish verbs").waitFor();

  // The counts are the server's: what a session of the deck gives today.
  for (const name of ["Spanish verbs", "Anatomy"]) {
    const row = byName.get(name);
    if (!row) throw new Error(`no stats for ${name}`);
    expect(await numbers(name)).toBe(`${row.new_today} new ${row.learning_today} learning ${row.review_today} review`);
  }
  expect(await numbers("Spanish verbs")).toBe("3 new 1 learning 2 review");
  expect(await numbers("Anatomy")).toBe("3 new 0 learning 0 review");
  expect(await deckRow("Chemistry").getByText("Nothing due").isVisible()).toBe(true);
  expect(await deckRow("Chemistry").getByRole("link", { name: /Study/ }).count()).toBe(0);
  expect(await page.getByText("9 cards due today").isVisible()).toBe(true);

  const figures = page.getByRole("region", { name: "Today at a glance" });
  expect(user.streak).toBe(3);
  expect((await figures.getByRole("definition").first().innerText()).trim()).toBe("3 days");
  expect(user.reviewed_today).toBe(1);
  expect(await figures.getByText("1 card", { exact: true }).first().isVisible()).toBe(true);

  // Yesterday's square says two reviews; the month table adds up the year.
  const yesterday = user.heatmap.find((day) => day.reviews === 2);
  if (!yesterday) throw new Error("no day with two reviews");
  const calendar = page.getByRole("group", { name: /^Days of the past year/ });
  const square = calendar.getByRole("img", { name: /^2 reviews on / });
  expect(await square.getAttribute("data-date")).toBe(yesterday.date);
  // The statistics screen's calendar: one tab stop, today's square, and the arrow keys move a day.
  await calendar.locator('[tabindex="0"]').focus();
  await page.keyboard.press("ArrowUp");
  expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date)).toBe(yesterday.date);
  expect(await page.locator(".calendar-readout").textContent()).toMatch(/^2 reviews on /);
  expect(await page.getByText("5 reviews on 4 days in the past year.").isVisible()).toBe(true);
  const table = page.getByRole("table", { name: "Reviews per month, past year" });
  const monthReviews = await table.locator("tbody td:nth-child(2)").allInnerTexts();
  expect(monthReviews.map(Number).reduce((a, b) => a + b, 0)).toBe(5);

  await screenshot(page, "dashboard");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // On a phone: everything fits the width, the heatmap included.
  await page.setViewportSize({ width: 375, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screenshot(page, "dashboard-phone");
  await page.setViewportSize({ width: 1024, height: 720 });

  // Each deck leads to its screen and its own study; Study all studies everything.
  expect(await deckRow("Anatomy").getByRole("link", { name: "Anatomy", exact: true }).getAttribute("href")).toBe(
    `/decks/${anatomy}`,
  );
  expect(await deckRow("Anatomy").getByRole("link", { name: "Study Anatomy" }).getAttribute("href")).toBe(
    `/decks/${anatomy}/study`,
  );
  await page.getByRole("link", { name: "Study all" }).click();
  await page.waitForURL((url) => url.pathname === "/study");
});

test("counts drop without a reload when the user studies on another device", async () => {
  const deckId = await seedDeck(account.id, "Capitals", basicNotes(2, "Capital"));
  await signInWithPassword(page, account, "/sign-in?next=%2F");
  await todayHeading().waitFor();
  await deckRow("Capitals").waitFor();
  expect(await numbers("Capitals")).toBe("2 new 0 learning 0 review");

  // Another device (a script through the SDK) answers one new card "easy": it leaves today's queue.
  const engram = await engramFor(account);
  const [card] = await engram.study.queue({ deckId });
  if (!card) throw new Error("nothing to study");
  await engram.study.recordReview({ card, rating: Rating.easy, duration_ms: 1500 });

  await expect.poll(() => numbers("Capitals"), { timeout: 10_000 }).toBe("1 new 0 learning 0 review");
  const glance = page.getByRole("region", { name: "Today at a glance" });
  await glance.getByText("1 card due today").waitFor();
  await glance.getByText("1 card", { exact: true }).waitFor(); // reviewed today
});

test("everything studied: all caught up, with when the next cards come", async () => {
  const deckId = await seedDeck(account.id, "Geology", basicNotes(1, "Rock"));
  const [card] = await cardsOf(deckId);
  if (!card) throw new Error("no card");
  await schedule(card, "review", new Date(Date.now() + 3 * 24 * hour));
  const user = await (await engramFor(account)).stats.user();
  const next = user.forecast.find((day) => day.date > user.today && day.due > 0);
  if (!next) throw new Error("the forecast has no next day");

  await signInWithPassword(page, account, "/sign-in?next=%2F");
  await page.getByText("All caught up").waitFor();
  expect(await page.getByText(/Next up: 1 card on /).isVisible()).toBe(true);
  expect(await page.getByRole("link", { name: "Study all" }).count()).toBe(0);
  expect(await deckRow("Geology").getByText("Nothing due").isVisible()).toBe(true);
  await screenshot(page, "dashboard-caught-up");
});

test("a new user is led to make a first deck, with the name field ready", async () => {
  await signInWithPassword(page, account, "/sign-in?next=%2F");
  await page.getByRole("heading", { name: "Make your first deck" }).waitFor();
  expect(await page.getByRole("link", { name: "Study all" }).count()).toBe(0);
  await screenshot(page, "dashboard-empty");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await page.getByRole("link", { name: "Create a deck" }).click();
  await decksHeading(page).waitFor();
  const field = page.getByLabel("New deck name", { exact: true });
  await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
  await page.keyboard.type("Italian");
  await page.keyboard.press("Enter");
  await page.getByRole("list", { name: "Decks" }).getByRole("listitem", { name: "Italian" }).waitFor();
});

test("a signed-out visitor gets the landing page, not the dashboard", async () => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));
  await page.goto("/");
  await page.getByRole("heading", { name: "Remember what you learn." }).waitFor();
  expect(await todayHeading().count()).toBe(0);
  expect(requested.filter((path) => /\/assets\/dashboard-/.test(path))).toEqual([]);
});
