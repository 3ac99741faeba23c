/**
 * The personal layer on a shared deck (docs/product.md §3): a member's own
 * tags and My notes on a note, kept when others edit it, seen by nobody else,
 * found by the tag filter and shown under the answer in study.
 */
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { deckOpenedByTwo, noteList, noteRow } from "./deck-fixtures.js";
import { engramFor, openStudy, showAnswer } from "./study-fixtures.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";

const browser = browserPerFile();

const justForMe = (scope: Page | Locator) => scope.getByRole("region", { name: "Just for me" });
const myNotes = (scope: Page | Locator) => scope.getByRole("textbox", { name: "My notes", exact: true });

async function openRow(page: Page, front: string): Promise<Locator> {
  const row = noteRow(page, front);
  await row.getByRole("button", { name: front, exact: true }).click();
  return row;
}

test("a viewer's own tags and My notes survive the owner's edit, stay theirs alone, filter the list and show in study", async () => {
  const {
    member: viewer,
    deckId,
    ownerPage: beaPage,
    memberPage: adaPage,
  } = await deckOpenedByTwo(browser(), {
    owner: "Bea",
    member: "Ada",
    role: "viewer",
    deck: "Renal physiology",
    notes: [
      { front: "Loop diuretic", back: "Furosemide", tags: ["drugs"] },
      { front: "Thiazide", back: "Hydrochlorothiazide", tags: ["drugs"] },
    ],
  });

  // Ada, a viewer, opens the note and keeps her own tag and My notes on it.
  const adaRow = await openRow(adaPage, "Loop diuretic");
  const mine = justForMe(adaRow);
  await mine.getByRole("textbox", { name: "My tags", exact: true }).fill("exam-week ");
  await myNotes(mine).fill("Loop = lose lots (of Na+)");
  await mine.getByRole("button", { name: "Save my notes" }).click();
  await mine.getByText("Your notes are saved.").waitFor();
  await adaRow.locator(".tag-mine").filter({ hasText: "exam-week" }).waitFor();
  expect(await axeViolationsInBothThemes(adaPage)).toEqual([]);

  // Bea, the owner, edits the note in the editor: her own section is empty, and axe finds nothing there.
  const beaRow = await openRow(beaPage, "Loop diuretic");
  await beaRow.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = beaPage.getByRole("dialog", { name: "Edit note" });
  const beaSection = justForMe(editor);
  await beaSection.waitFor();
  expect(await myNotes(beaSection).inputValue()).toBe("");
  expect(await beaSection.getByRole("list", { name: "My tags on this note" }).count()).toBe(0);
  await screenshot(beaPage, "personal-layer-editor");
  expect(await axeViolationsInBothThemes(beaPage)).toEqual([]);
  const back = editor.getByRole("textbox", { name: "Back", exact: true });
  await back.click();
  await beaPage.keyboard.press("End");
  await beaPage.keyboard.type(" (IV or oral)");
  await editor.getByRole("button", { name: "Save", exact: true }).click();
  await editor.waitFor({ state: "hidden" });
  // Bea's list never shows Ada's tag, and her tag filter does not find the note by it.
  expect(await noteRow(beaPage, "Loop diuretic").locator(".tag-mine").count()).toBe(0);
  expect(await noteRow(beaPage, "Loop diuretic").textContent()).not.toContain("exam-week");

  // The note has Bea's edit, and Ada's layer on it is as she left it, on the server and on her screen.
  const adaEngram = await engramFor(viewer);
  const listed = await adaEngram.notes.list(deckId);
  const note = listed.notes.find((each) => each.sort_field === "Loop diuretic");
  expect(note?.fields).toEqual({ front: "Loop diuretic", back: "<p>Furosemide (IV or oral)</p>" });
  expect([note?.tags, note?.my_tags]).toEqual([["drugs"], ["exam-week"]]);
  await adaPage.reload();
  const reopened = await openRow(adaPage, "Loop diuretic");
  expect(await myNotes(justForMe(reopened)).inputValue()).toBe("Loop = lose lots (of Na+)");
  await reopened.locator(".tag-mine").filter({ hasText: "exam-week" }).waitFor();

  // Her tag filter finds the note by her own tag.
  await adaPage.getByRole("textbox", { name: "Tag", exact: true }).fill("exam-week");
  await adaPage.getByText("1 note match").waitFor();
  expect(await noteList(adaPage).locator(".note-text").allTextContents()).toEqual(["Loop diuretic"]);
  await beaPage.getByRole("textbox", { name: "Tag", exact: true }).fill("exam-week");
  await beaPage.getByText("0 notes match").waitFor();

  // In study, My notes shows under the card once the answer does.
  const studyPage = await openPage(browser());
  await openStudy(studyPage, viewer, deckId);
  await showAnswer(studyPage).waitFor();
  expect(await studyPage.getByRole("complementary", { name: "My notes" }).count()).toBe(0);
  await showAnswer(studyPage).click();
  const shown = studyPage.getByRole("complementary", { name: "My notes" });
  await shown.getByText("Loop = lose lots (of Na+)").waitFor();
  await screenshot(studyPage, "personal-layer-study");
});
