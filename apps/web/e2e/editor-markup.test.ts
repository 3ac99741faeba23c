/**
 * The note editor never loses markup: a field holding HTML the rich editor
 * cannot show (Anki's tables, ruby, inline styles) opens as HTML, so typing
 * into it keeps everything; any field can be switched to its HTML and back
 * (Anki's Ctrl+Shift+X) where the rich editor can hold it; an image the deck
 * does not store is named as missing.
 */
import { createEngram } from "@engram/sdk";
import type { Locator, Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { type Account, adminClient, newAccount, nodeClient } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let account: Account;
let deckId: string;

beforeEach(async () => {
  page = await openPage(browser());
  account = await newAccount("markup");
  deckId = await seedDeck(account.id, "Chemistry", []);
});

async function addNote(front: string, back: string): Promise<string> {
  const { data, error } = await adminClient()
    .from("notes")
    .insert({ deck_id: deckId, kind: "basic", fields: { front, back }, created_by: account.id })
    .select("id")
    .single();
  if (error || !data) throw error ?? new Error("no note");
  return data.id;
}

/** The note as its owner reads it through the SDK. */
async function storedFields(noteId: string) {
  const engram = createEngram(nodeClient());
  await engram.auth.signIn({ email: account.email, password: account.password });
  return (await engram.notes.get(noteId)).fields as { front: string; back: string };
}

async function openEditor(rowName: RegExp): Promise<Locator> {
  await signInWithPassword(page, account, `/decks/${deckId}`);
  await page.getByRole("button", { name: rowName }).click();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit note" });
  await editor.waitFor();
  return editor;
}

const textbox = (scope: Locator, name: string) => scope.getByRole("textbox", { name, exact: true });
const htmlButton = (scope: Locator, field: string) =>
  scope.getByRole("toolbar", { name: `${field} formatting` }).getByRole("button", { name: "Edit as HTML" });
const focusedName = () =>
  page.evaluate(() => {
    const ids = document.activeElement?.getAttribute("aria-labelledby");
    return ids
      ? ids
          .split(" ")
          .map((id) => document.getElementById(id)?.textContent)
          .join(" ")
      : document.activeElement?.textContent;
  });
const notice = "This field has formatting the rich editor can't show; edit it as HTML.";

test("a field with a table, sub, ruby and an inline style opens as HTML, and typing into it keeps them all", async () => {
  const back =
    '<table><tr><th>Formula</th><th>Reading</th></tr><tr><td>H<sub>2</sub>O</td><td><ruby>漢<rt>kan</rt></ruby></td></tr></table><span style="color: red">hot</span>';
  const noteId = await addNote("<p>Water</p>", back);
  const editor = await openEditor(/Water/);

  // The front is plain: rich text. The back opens as HTML, saying why, with its text exactly as stored.
  await textbox(editor, "Front").getByText("Water").waitFor();
  const backHtml = textbox(editor, "Back (HTML)");
  await backHtml.waitFor();
  expect(await backHtml.textContent()).toBe(back);
  expect(await editor.getByText(notice).isVisible()).toBe(true);
  expect(await htmlButton(editor, "Back").getAttribute("aria-pressed")).toBe("true");
  expect(await textbox(editor, "Back").count()).toBe(0);
  await screenshot(page, "editor-markup-html-view");
  // Accessibility is checked with the HTML view open in the next test: this note's red text is its
  // author's choice, and the preview shows it as it is.

  await backHtml.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" three more words");
  await page.keyboard.press("Control+Enter");
  await editor.waitFor({ state: "hidden" });

  const saved = await storedFields(noteId);
  expect(saved).toEqual({ front: "<p>Water</p>", back: `${back} three more words` });
  for (const markup of ["<table>", "<sub>2</sub>", "<ruby>漢<rt>kan</rt></ruby>", 'style="color: red"']) {
    expect(saved.back).toContain(markup);
  }
});

test("any field switches to its HTML and back by button or Ctrl+Shift+X, unless the rich editor cannot show it", async () => {
  const front = '<p>Capital of <b>France</b> <img src="gone.png"></p>';
  const noteId = await addNote(front, "<p>Paris</p>");
  const editor = await openEditor(/Capital of France/);
  await editor.getByText("Keyboard shortcuts").click();
  const help = editor.locator(".shortcut-row").filter({ hasText: "Edit the field as HTML, or back as rich text" });
  expect(await help.locator("kbd").textContent()).toBe("Ctrl+Shift+X");

  // An image the deck does not store is named, not loaded forever.
  const frontRich = textbox(editor, "Front");
  await frontRich.getByText("missing image: gone.png").waitFor();
  expect(await frontRich.getByText("Loading image…").count()).toBe(0);

  // By button: the field's exact HTML, focused, the button pressed.
  const button = htmlButton(editor, "Front");
  expect(await button.getAttribute("aria-pressed")).toBe("false");
  expect(await button.getAttribute("aria-keyshortcuts")).toBe("Control+Shift+X");
  await button.click();
  const frontHtml = textbox(editor, "Front (HTML)");
  await frontHtml.waitFor();
  expect(await frontHtml.textContent()).toBe(front);
  expect(await button.getAttribute("aria-pressed")).toBe("true");
  await expect.poll(focusedName).toBe("Front (HTML)");
  // Reachable by keyboard: back to the toolbar and into the text again.
  await page.keyboard.press("Shift+Tab");
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Edit as HTML");
  await page.keyboard.press("Tab");
  await expect.poll(focusedName).toBe("Front (HTML)");

  // Markup the rich editor cannot hold keeps the field in HTML, saying why.
  await page.keyboard.press("Control+A");
  await page.keyboard.type('<p>Capital of <font color="red">Spain</font></p>');
  await page.keyboard.press("Control+Shift+X");
  await editor.getByText(notice).waitFor();
  expect(await frontHtml.isVisible()).toBe(true);
  expect(await button.getAttribute("aria-pressed")).toBe("true");
  await screenshot(page, "editor-markup-toggle-refused");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await frontHtml.click();

  // Markup it can hold goes back to rich text, by the shortcut.
  await page.keyboard.press("Control+A");
  await page.keyboard.type("<p>Capital of <i>Spain</i></p>");
  await page.keyboard.press("Control+Shift+X");
  await frontRich.locator("em").getByText("Spain").waitFor();
  expect(await button.getAttribute("aria-pressed")).toBe("false");
  expect(await editor.getByText(notice).count()).toBe(0);
  await expect.poll(focusedName).toBe("Front");

  // And to HTML again by the shortcut, showing what was typed, which is what is saved.
  await page.keyboard.press("Control+Shift+X");
  await frontHtml.waitFor();
  expect(await frontHtml.textContent()).toBe("<p>Capital of <i>Spain</i></p>");
  await page.keyboard.press("Control+Enter");
  await editor.waitFor({ state: "hidden" });
  expect(await storedFields(noteId)).toEqual({ front: "<p>Capital of <i>Spain</i></p>", back: "<p>Paris</p>" });
});
