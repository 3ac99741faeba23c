import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { answerButton, cardArea, openStudy } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";

// Acting on the card being studied (docs/product.md §2 study screen): suspend,
// bury card, bury note, flag and mark, by key and from the More menu, each
// undone; the database holds exactly what was there before after each undo.

const browser = browserPerFile();
let account: Account;
let deckId: string;
/** Card ids by the text of their front. */
let cards: Map<string, string>;

beforeEach(async () => {
  account = await newAccount("actions");
  deckId = await seedDeck(account.id, "Actions", [
    { front: "Question 1", back: "Answer 1" },
    { front: "Question 2", back: "Answer 2" },
    { kind: "basic_reversed", front: "Question 3", back: "Answer 3" },
  ]);
  const { data, error } = await adminClient()
    .from("cards")
    .select("id, ordinal, notes(fields)")
    .eq("deck_id", deckId)
    .order("ordinal");
  if (error) throw error;
  cards = new Map(
    data.map((card) => {
      const fields = (card.notes as unknown as { fields: { front: string; back: string } }).fields;
      return [card.ordinal === 1 ? fields.front : fields.back, card.id];
    }),
  );
});

const front = (page: Page, text: string) => cardArea(page).locator(".card-view-front").getByText(text, { exact: true });

function cardId(front: string): string {
  const id = cards.get(front);
  if (!id) throw new Error(`no card ${front}`);
  return id;
}

/** The user's schedule of a card as the database holds it. */
async function stateOf(front: string) {
  const { data, error } = await adminClient()
    .from("card_states")
    .select("suspended, buried_until, flag")
    .eq("user_id", account.id)
    .eq("card_id", cardId(front))
    .single();
  if (error) throw error;
  return { suspended: data.suspended, buried: data.buried_until !== null, flag: data.flag };
}

async function ownTags(front: string): Promise<string[]> {
  const { data, error } = await adminClient()
    .from("personal_notes")
    .select("tags, notes!inner(fields)")
    .eq("user_id", account.id)
    .eq("notes.fields->>front", front);
  if (error) throw error;
  return data[0]?.tags ?? [];
}

const unchanged = { suspended: false, buried: false, flag: 0 };
const poll = (front: string) => expect.poll(() => stateOf(front), { timeout: 10_000 });
const status = (page: Page) => page.getByRole("status").filter({ hasText: /\w/ }).last();

test("by key: suspend, bury the card, bury the note, flag and mark, each undone with U", async () => {
  const page = await openPage(browser(), { viewport: { width: 1280, height: 800 } });
  await openStudy(page, account, deckId);
  await front(page, "Question 1").waitFor();

  await page.keyboard.press("@");
  await front(page, "Question 2").waitFor();
  await poll("Question 1").toEqual({ ...unchanged, suspended: true });
  await page.getByText("Card suspended").waitFor();
  await page.keyboard.press("u");
  await front(page, "Question 1").waitFor();
  await poll("Question 1").toEqual(unchanged);

  await page.keyboard.press("-");
  await front(page, "Question 2").waitFor();
  await poll("Question 1").toEqual({ ...unchanged, buried: true });
  await page.keyboard.press("u");
  await front(page, "Question 1").waitFor();
  await poll("Question 1").toEqual(unchanged);

  await page.keyboard.press("Control+3");
  await cardArea(page).getByRole("img", { name: "Green flag" }).waitFor();
  await poll("Question 1").toEqual({ ...unchanged, flag: 3 });
  await page.keyboard.press("Control+5");
  await cardArea(page).getByRole("img", { name: "Pink flag" }).waitFor();
  await page.keyboard.press("u");
  await cardArea(page).getByRole("img", { name: "Green flag" }).waitFor();
  await poll("Question 1").toEqual({ ...unchanged, flag: 3 });
  await page.keyboard.press("Control+3");
  await poll("Question 1").toEqual(unchanged);
  await cardArea(page).getByRole("img", { name: /flag/ }).waitFor({ state: "detached" });

  await page.keyboard.press("*");
  await cardArea(page).getByRole("img", { name: "Marked" }).waitFor();
  await expect.poll(() => ownTags("Question 1")).toEqual(["marked"]);
  await page.keyboard.press("u");
  await cardArea(page).getByRole("img", { name: "Marked" }).waitFor({ state: "detached" });
  await expect.poll(() => ownTags("Question 1")).toEqual([]);

  // Answer the first two, then bury the reversed note's cards: both leave, undo brings them back.
  for (const text of ["Question 1", "Question 2"]) {
    await front(page, text).waitFor();
    await page.keyboard.press("Space");
    // A rating key counts only once the answer shows: on a busy machine that takes a render.
    await answerButton(page, "Easy").waitFor();
    await page.keyboard.press("4");
  }
  // Either card of the reversed note may come first: both are new.
  const noteThree = cardArea(page)
    .locator(".card-view-front")
    .getByText(/^(Question|Answer) 3$/);
  await noteThree.waitFor();
  const shown = (await noteThree.textContent()) ?? "";
  await page.keyboard.press("=");
  await page.getByText("Note's cards buried until tomorrow").waitFor();
  await poll("Question 3").toEqual({ ...unchanged, buried: true });
  await poll("Answer 3").toEqual({ ...unchanged, buried: true });
  await front(page, shown).waitFor({ state: "detached" });
  await page.keyboard.press("u");
  await front(page, shown).waitFor();
  await poll("Question 3").toEqual(unchanged);
  await poll("Answer 3").toEqual(unchanged);

  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  for (const action of ["Suspend the card", "Bury the card until tomorrow", "Bury the note's cards until tomorrow"]) {
    await help.getByText(action).waitFor();
  }
  await help.getByText("Ctrl+1 to Ctrl+7").waitFor();
});

test("from the More menu on a touch screen, each action is undone from its notice; the open menu passes axe", async () => {
  const phone = await openPage(browser(), { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await openStudy(phone, account, deckId);
  await front(phone, "Question 1").waitFor();
  const more = phone.getByRole("button", { name: "More" });
  const menu = phone.getByRole("menu", { name: "Card actions" });
  const choose = async (item: string | RegExp) => {
    await more.tap();
    await menu.getByRole("menuitem", { name: item }).tap();
  };
  const undoFromNotice = () => status(phone).getByRole("button", { name: "Undo" }).tap();

  await more.tap();
  await menu.waitFor();
  expect(await axeViolationsInBothThemes(phone)).toEqual([]);
  await screenshot(phone, "study-phone-more-menu");
  await menu.getByRole("menuitem", { name: /Suspend card/ }).tap();
  await front(phone, "Question 2").waitFor();
  await poll("Question 1").toEqual({ ...unchanged, suspended: true });
  await undoFromNotice();
  await front(phone, "Question 1").waitFor();
  await poll("Question 1").toEqual(unchanged);

  await choose(/Bury card/);
  await front(phone, "Question 2").waitFor();
  await poll("Question 1").toEqual({ ...unchanged, buried: true });
  await undoFromNotice();
  await front(phone, "Question 1").waitFor();
  await poll("Question 1").toEqual(unchanged);

  await choose(/Red flag/);
  await poll("Question 1").toEqual({ ...unchanged, flag: 1 });
  await cardArea(phone).getByRole("img", { name: "Red flag" }).waitFor();
  await undoFromNotice();
  await poll("Question 1").toEqual(unchanged);

  await choose(/Mark note/);
  await expect.poll(() => ownTags("Question 1")).toEqual(["marked"]);
  await undoFromNotice();
  await expect.poll(() => ownTags("Question 1")).toEqual([]);

  await choose(/Bury note/);
  await front(phone, "Question 2").waitFor();
  await poll("Question 1").toEqual({ ...unchanged, buried: true });
  await undoFromNotice();
  await front(phone, "Question 1").waitFor();
  await poll("Question 1").toEqual(unchanged);
  expect(await axeViolationsInBothThemes(phone)).toEqual([]);
});
