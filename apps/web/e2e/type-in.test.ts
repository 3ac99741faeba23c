/**
 * Type-in cards and the answer side as Anki shows it (docs/product.md §3): a
 * "Basic (type in the answer)" note added in the editor; a type-in card
 * studied by typing a partly wrong answer and pressing Enter, then Anki's
 * comparison; a cloze card's back shows its text once, the gap filled, then
 * the extra; a custom type's template showing the card's deck path, a hint
 * opened by keyboard, and a `{{type:nc:…}}` box that takes "e" for "é".
 */
import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { answerButton, cardArea, engramFor, openStudy } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("typein");
});

const answerBox = () => cardArea(page).getByRole("textbox", { name: "Type the answer" });
const marks = (kind: "typeGood" | "typeBad" | "typeMissed") =>
  cardArea(page).locator(`.card-view-back code#typeans .${kind}`).allInnerTexts();
const focusedInCard = () =>
  page.evaluate(() => {
    const host = document.querySelector(".study-card .card-view");
    const inner = host?.shadowRoot?.activeElement ?? document.activeElement;
    return inner ? `${inner.tagName.toLowerCase()}#${inner.id}` : null;
  });

test("the editor adds a type-in note: one card, its preview showing the box disabled", async () => {
  const deckId = await seedDeck(account.id, "Capitals", []);
  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.getByRole("button", { name: "Add note" }).click();
  const editor = page.getByRole("dialog", { name: "Add note" });
  await editor.getByRole("radio", { name: /type in the answer/i }).check();
  await editor.getByRole("textbox", { name: "Front", exact: true }).click();
  await page.keyboard.type("Capital of Peru?");
  await editor.getByRole("textbox", { name: "Back", exact: true }).click();
  await page.keyboard.type("Lima");
  // The preview shows the front with the box, which nobody can type into there.
  const previewBox = editor.getByRole("textbox", { name: "Type the answer" });
  await previewBox.waitFor();
  expect(await previewBox.isDisabled()).toBe(true);
  await page.keyboard.press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  const { data: notes, error } = await adminClient()
    .from("notes")
    .select("kind, fields, cards(ordinal)")
    .eq("deck_id", deckId);
  if (error) throw error;
  expect(notes).toMatchObject([
    { kind: "type_in", fields: { front: "<p>Capital of Peru?</p>", back: "<p>Lima</p>" }, cards: [{ ordinal: 1 }] },
  ]);
});

test("a type-in card is studied by typing: Enter shows Anki's comparison in place of the answer", async () => {
  const deckId = await seedDeck(account.id, "Capitals", [
    { kind: "type_in", front: "<p>Capital of Peru?</p>", back: "<p>Lima</p>" },
  ]);
  await openStudy(page, account, deckId);
  const box = answerBox();
  await box.waitFor();
  // The box has the focus, so typing goes straight in; Space types a space rather than showing the answer.
  await expect.poll(focusedInCard).toBe("input#typeans");
  await page.keyboard.type("Lem ");
  expect(await box.inputValue()).toBe("Lem ");
  expect(await cardArea(page).locator(".card-view-back").count()).toBe(0);
  await page.keyboard.press("Backspace");
  await screenshot(page, "type-in-front");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await page.keyboard.press("Enter");
  const comparison = cardArea(page).locator(".card-view-back code#typeans");
  await comparison.waitFor();
  // Typed "Lem" against "Lima": L and m right, e wrong, a missing; the expected line marks i and a as missed.
  expect(await marks("typeGood")).toEqual(["L", "m", "L", "m"]);
  expect(await marks("typeBad")).toEqual(["e"]);
  expect(await marks("typeMissed")).toEqual(["-", "i", "a"]);
  expect(await comparison.innerText()).toMatch(/^Lem-\s*↓\s*Lima$/);
  // The answer side is the question, the rule, then the comparison in place of the answer, shown alone.
  expect(await cardArea(page).locator(".card-view-front").count()).toBe(0);
  const backText = await cardArea(page).locator(".card-view-back").innerText();
  expect(backText.split("Capital of Peru?")).toHaveLength(2);
  expect(await cardArea(page).locator(".card-view-back hr#answer").count()).toBe(1);
  await expect
    .poll(() => answerButton(page, "Good").evaluate((button) => button === document.activeElement))
    .toBe(true);
  await screenshot(page, "type-in-back");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});

test("a cloze card's answer side shows the sentence once, the gap filled, then the extra", async () => {
  const sentence = "is the capital of Australia";
  const deckId = await seedDeck(account.id, "Cloze", [
    { kind: "cloze", text: `{{c1::Canberra}} ${sentence}`, extra: "Chosen in 1908" },
  ]);
  await openStudy(page, account, deckId);
  const front = cardArea(page).locator(".card-view-front");
  await front.getByText(`[...] ${sentence}`).waitFor();
  await page.keyboard.press("Space");
  const back = cardArea(page).locator(".card-view-back");
  await back.locator(".cloze").getByText("Canberra").waitFor();
  const text = await back.innerText();
  expect(text.split(sentence)).toHaveLength(2);
  expect(text).toContain("Chosen in 1908");
  expect(text.indexOf("Canberra")).toBeLessThan(text.indexOf("Chosen in 1908"));
  expect(await front.count()).toBe(0);
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});

test("a custom card shows its deck path, a hint opened by keyboard, and a type:nc: box that takes e for é", async () => {
  const engram = await engramFor(account);
  const parent = await engram.decks.create({ name: "Old Decks" });
  const deck = await engram.decks.create({ name: "Board Review 2023", parentId: parent.id });
  const noteType = await engram.noteTypes.create(deck.id, {
    name: "Spelling",
    kind: "standard",
    fields: ["Word", "Notes", "Answer"],
    templates: [
      {
        name: "Spell",
        front: '<p class="where">{{Deck}} | {{Subdeck}}</p><p>{{Word}}</p>{{hint:Notes}}{{type:nc:Answer}}',
        back: '<p class="where">{{Deck}}</p><p>{{Word}}</p><hr id=answer>{{type:nc:Answer}}',
      },
    ],
    css: "",
  });
  await engram.notes.create(deck.id, {
    kind: "custom",
    noteTypeId: noteType.id,
    fields: { Word: "Coffee, in French?", Notes: "A drink", Answer: "café" },
  });
  // Studying the parent deck studies its subdeck's card, which names its own deck.
  await openStudy(page, account, parent.id);
  const front = cardArea(page).locator(".card-view-front");
  await expect.poll(() => front.locator(".where").innerText()).toBe("Old Decks::Board Review 2023 | Board Review 2023");

  // The hint is a link named after the field; its text shows only once it is opened, here by keyboard.
  const hintLink = front.locator("summary.hint");
  const hintText = front.getByText("A drink");
  expect(await hintLink.innerText()).toBe("Notes");
  expect(await hintText.isVisible()).toBe(false);
  await expect.poll(focusedInCard).toBe("input#typeans");
  await page.keyboard.press("Shift+Tab");
  await expect.poll(focusedInCard).toBe("summary#");
  await page.keyboard.press("Enter");
  await hintText.waitFor();
  expect(await hintLink.isVisible()).toBe(false);
  // Enter opened the hint and did nothing else: the question still shows.
  expect(await cardArea(page).locator(".card-view-back").count()).toBe(0);
  await screenshot(page, "custom-card-hint");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await answerBox().click();
  await page.keyboard.type("cafe");
  await page.keyboard.press("Enter");
  const comparison = cardArea(page).locator(".card-view-back code#typeans");
  await comparison.waitFor();
  // Without combining marks "cafe" is right, and the expected line keeps its accent.
  expect(await marks("typeGood")).toEqual(["café"]);
  expect(await marks("typeBad")).toEqual([]);
  expect(await marks("typeMissed")).toEqual([]);
  expect(await cardArea(page).locator(".card-view-back .where").innerText()).toBe("Old Decks::Board Review 2023");
  await screenshot(page, "custom-card-nc-back");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});
