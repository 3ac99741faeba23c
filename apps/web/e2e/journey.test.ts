/**
 * The learner's whole journey with the keyboard alone: sign up, make a deck,
 * add a basic note and a cloze note with a picture, study them (reveal, rate,
 * undo, edit in place), and see the deck list and the dashboard move.
 */
import { expect, test } from "vitest";
import { uniqueEmail } from "./support/accounts.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { tabTo } from "./support/keyboard.js";
import { nextEmail } from "./support/mailbox.js";
import { redPng } from "./support/media.js";

const browser = browserPerFile();

test("a new learner signs up, writes two notes and studies them without touching the mouse", async () => {
  const page = await openPage(browser());
  const email = uniqueEmail("journey");
  const press = (key: string) => page.keyboard.press(key);

  // Sign up, confirm by email, land on the decks.
  await page.goto("/sign-up");
  await tabTo(page, page.getByLabel("Email", { exact: true }));
  await page.keyboard.type(email);
  await press("Tab");
  await page.keyboard.type("correct horse battery");
  await press("Enter");
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  await page.goto((await nextEmail(email)).link);
  await page.getByRole("heading", { level: 1, name: "Your decks" }).waitFor();

  // A deck, opened from the list.
  await tabTo(page, page.getByLabel("New deck name", { exact: true }));
  await page.keyboard.type("Biology");
  await press("Enter");
  const deckLink = page.getByRole("list", { name: "Decks" }).getByRole("link", { name: "Biology", exact: true });
  await tabTo(page, deckLink);
  await press("Enter");
  await page.getByRole("heading", { level: 1, name: "Biology" }).waitFor();

  // A basic note: `a` opens the editor with the front focused; Ctrl+Enter saves and clears for the next.
  await page.locator("main").focus();
  await press("a");
  const editor = page.getByRole("dialog", { name: "Add note" });
  await editor.waitFor();
  // Typing starts once the caret is in the front field, as a person sees it there.
  const front = editor.getByRole("textbox", { name: "Front", exact: true });
  await expect.poll(() => front.evaluate((field) => field.contains(document.activeElement))).toBe(true);
  await page.keyboard.type("Powerhouse of the cell");
  await press("Tab");
  await press("Tab");
  await page.keyboard.type("Mitochondrion");
  await press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();

  // A cloze note with a picture from the toolbar's file picker.
  await tabTo(page, editor.getByRole("radio", { name: "Basic", exact: true }), { backwards: true });
  await press("ArrowRight");
  await press("ArrowRight");
  expect(await editor.getByRole("radio", { name: "Cloze" }).isChecked()).toBe(true);
  const text = editor.getByRole("textbox", { name: "Text", exact: true });
  await tabTo(page, text);
  // Listening early lets Playwright take over the browser's file dialog before it opens.
  const fileChooser = page.waitForEvent("filechooser");
  await page.keyboard.type("The heart has four chambers");
  for (let step = 0; step < "chambers".length + 1 + "four".length; step += 1) await press("ArrowLeft");
  for (let step = 0; step < "four".length; step += 1) await press("Shift+ArrowRight");
  await press("Control+Shift+C");
  expect(await text.textContent()).toBe("The heart has {{c1::four}} chambers");
  await press("End");
  // Shift+Tab reaches the field's toolbar; its buttons are one tab stop, walked with the arrow keys.
  await press("Shift+Tab");
  await tabTo(page, editor.getByRole("button", { name: /Insert image or sound/ }).first(), {
    key: "ArrowRight",
    limit: 10,
  });
  await press("Enter");
  const chooser = await fileChooser;
  await chooser.setFiles({ name: "heart.png", mimeType: "image/png", buffer: redPng });
  await text.getByRole("img", { name: /heart\.png$/ }).waitFor();
  await text.focus();
  await press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  await press("Escape");
  await editor.waitFor({ state: "hidden" });
  await page.getByText("2 notes").first().waitFor();

  // Study: the basic note's card first (oldest new card), then the cloze card with its picture.
  await tabTo(page, page.getByRole("link", { name: /^Study/ }).first());
  await press("Enter");
  await page.waitForURL((url) => url.pathname.endsWith("/study"));
  const card = page.locator(".study-card");
  await card.getByText("Powerhouse of the cell").waitFor();
  const left = page.getByRole("list", { name: "Cards left" });
  expect((await left.innerText()).replace(/\s+/g, " ")).toMatch(/^2 New 0 Learning 0 Review$/i);

  await press("Space");
  await card.getByText("Mitochondrion").waitFor();
  await press("1"); // Again: the card goes back to learning
  await card.getByText("The heart has").waitFor();
  await press("u"); // Undo brings the first card back
  await card.getByText("Powerhouse of the cell").waitFor();
  await press("Space");
  await press("3"); // Good

  await card.getByText("The heart has").waitFor();
  const picture = card.locator("img");
  await picture.waitFor();
  expect(
    await picture.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth),
  ).toBe(2);
  await press("Space");
  await card.locator(".cloze", { hasText: "four" }).waitFor();

  // E edits the card's note in place; the card shows the change at once.
  await press("e");
  const edit = page.getByRole("dialog", { name: "Edit note" });
  await edit.waitFor();
  const extra = edit.getByRole("textbox", { name: "Extra", exact: true });
  await tabTo(page, extra);
  await page.keyboard.type("Two atria and two ventricles");
  await press("Control+Enter");
  await edit.waitFor({ state: "hidden" });
  await card.getByText("Two atria and two ventricles").waitFor();
  await screenshot(page, "journey-study-edited");
  await press("4"); // Easy

  // Both new cards answered: the card rated Good is in learning and, as in Anki, shown
  // again ahead of time when nothing else is left.
  await card.getByText("Powerhouse of the cell").waitFor();
  await expect.poll(async () => (await left.innerText()).replace(/\s+/g, " ")).toMatch(/^0 New 1 Learning 0 Review$/i);

  // The deck list and the dashboard count what was studied.
  await page.goto("/decks");
  const counts = page.getByRole("list", { name: "Decks" }).getByRole("list", { name: "Due today" });
  await expect.poll(async () => (await counts.innerText()).replace(/\s+/g, " ").trim()).toMatch(/^0 new/);
  await tabTo(page, page.getByRole("link", { name: "Engram home" }), { backwards: true });
  await press("Enter");
  await page.getByRole("heading", { level: 1, name: "Today" }).waitFor();
  const reviewedToday = page.locator(".today-figure", { hasText: "Reviewed today" }).locator("dd");
  await expect.poll(() => reviewedToday.innerText()).toMatch(/^2 /);
  await screenshot(page, "journey-dashboard");
});
