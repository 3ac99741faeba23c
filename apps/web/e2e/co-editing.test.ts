/**
 * Two members editing one note at once (docs/product.md §2): each sees where
 * the other's cursor is and when the other saved; different fields merge on
 * saving, and a field both changed shows both versions until one is chosen.
 */
import { createEngram } from "@engram/sdk";
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { deckOpenedByTwo, noteRow } from "./deck-fixtures.js";
import { type Account, nodeClient } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, screenshot } from "./support/browser.js";

const browser = browserPerFile();

const field = (editor: Locator, label: string) => editor.getByRole("textbox", { name: label, exact: true });

/** Lena owns a deck Maya edits too; each has it open in their own browser. */
async function twoEditors(notes: { front: string; back: string; tags?: string[] }[]) {
  const opened = await deckOpenedByTwo(browser(), {
    owner: "Lena",
    member: "Maya",
    role: "editor",
    deck: "German",
    notes,
  });
  return { lena: opened.owner, deckId: opened.deckId, lenaPage: opened.ownerPage, mayaPage: opened.memberPage };
}

async function openEditor(page: Page, front: string): Promise<Locator> {
  const row = noteRow(page, front);
  await row.getByRole("button", { name: front, exact: true }).click();
  await row.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = page.getByRole("dialog", { name: "Edit note" });
  await field(editor, "Back").waitFor();
  return editor;
}

/** Types at the end of a field's text. */
async function typeAtEnd(page: Page, editor: Locator, label: string, text: string) {
  await field(editor, label).click();
  await page.keyboard.press("End");
  await page.keyboard.type(text);
}

async function storedNote(account: Account, deckId: string, front: string) {
  const engram = createEngram(nodeClient());
  await engram.auth.signIn({ email: account.email, password: account.password });
  const { notes } = await engram.notes.list(deckId);
  const listed = notes.find((note) => JSON.stringify(note.fields).includes(front));
  if (!listed) throw new Error(`no note with ${front}`);
  return engram.notes.get(listed.id);
}

test("two members change different fields of one note: each sees the other's cursor and save, and both changes are kept", async () => {
  const { lena, deckId, lenaPage, mayaPage } = await twoEditors([
    { front: "<p>Hund</p>", back: "<p>dog</p>", tags: ["a1"] },
  ]);
  const lenaEditor = await openEditor(lenaPage, "Hund");
  const mayaEditor = await openEditor(mayaPage, "Hund");

  // Lena writes in Back: Maya sees where, beside that field's label only.
  await typeAtEnd(lenaPage, lenaEditor, "Back", ", the animal");
  await lenaEditor.getByRole("textbox", { name: "Tags", exact: true }).fill("animals ");
  await typeAtEnd(lenaPage, lenaEditor, "Back", "!");
  await mayaEditor.locator('[data-note-field="back"]').getByText("Lena is editing").waitFor();
  expect(
    await mayaEditor
      .locator('[data-note-field="front"]')
      .getByText(/is editing/)
      .count(),
  ).toBe(0);

  // Maya changes Front and drops a tag, and saves; Lena's editor says so at once and keeps her typing.
  await typeAtEnd(mayaPage, mayaEditor, "Front", " (m.)");
  await lenaEditor.locator('[data-note-field="front"]').getByText("Maya is editing").waitFor();
  await mayaEditor.getByRole("button", { name: "Remove tag a1" }).click();
  await mayaEditor.getByRole("button", { name: "Save", exact: true }).click();
  await mayaEditor.waitFor({ state: "hidden" });
  await lenaEditor.getByText("Maya changed this note while you were editing").waitFor();
  expect(await lenaEditor.locator(".change-notice").textContent()).toContain("while you were editing: Front and tags.");
  expect(await field(lenaEditor, "Back").textContent()).toBe("dog, the animal!");
  expect(await field(lenaEditor, "Front").textContent()).toBe("Hund");
  await screenshot(lenaPage, "co-editing-notice");

  // Lena saves: her Back, Maya's Front, Lena's tag added and Maya's removal kept.
  await lenaEditor.getByRole("button", { name: "Save", exact: true }).click();
  await lenaEditor.waitFor({ state: "hidden" });
  await lenaPage
    .getByRole("status")
    .filter({ hasText: "Note saved. Merged with Maya's change to Front and tags." })
    .waitFor();
  const stored = await storedNote(lena, deckId, "Hund");
  expect(stored.fields).toEqual({ front: "<p>Hund (m.)</p>", back: "<p>dog, the animal!</p>" });
  expect(stored.tags).toEqual(["animals"]);
  expect(stored.updated_by).toBe(lena.id);
  await noteRow(lenaPage, "Hund (m.)").waitFor();
  await noteRow(mayaPage, "Hund (m.)").waitFor();
});

test("a field both changed shows both versions; keeping mine or taking theirs saves exactly that", async () => {
  const { lena, deckId, lenaPage, mayaPage } = await twoEditors([
    { front: "<p>Katze</p>", back: "<p>cat</p>" },
    { front: "<p>Maus</p>", back: "<p>mouse</p>" },
  ]);

  // Keep mine: Maya saves Back first; Lena's Back differs, so her save asks.
  let lenaEditor = await openEditor(lenaPage, "Katze");
  let mayaEditor = await openEditor(mayaPage, "Katze");
  await typeAtEnd(mayaPage, mayaEditor, "Back", " (Maya)");
  await mayaEditor.getByRole("button", { name: "Save", exact: true }).click();
  await mayaEditor.waitFor({ state: "hidden" });
  await typeAtEnd(lenaPage, lenaEditor, "Front", "!");
  await typeAtEnd(lenaPage, lenaEditor, "Back", " (Lena)");
  await lenaEditor.getByRole("button", { name: "Save", exact: true }).click();

  const conflict = lenaEditor.getByRole("region", { name: "Back: you and Maya both changed it" });
  await conflict.waitFor();
  await lenaEditor.getByRole("alert").filter({ hasText: "Back changed on both sides" }).waitFor();
  await conflict.getByRole("figure", { name: "Yours" }).getByText("cat (Lena)").waitFor();
  await conflict.getByRole("figure", { name: "Theirs" }).getByText("cat (Maya)").waitFor();
  // The field's editor waits for the choice; nothing was saved over Maya's version.
  expect(await field(lenaEditor, "Back").count()).toBe(0);
  expect((await storedNote(lena, deckId, "Katze")).fields).toEqual({
    front: "<p>Katze</p>",
    back: "<p>cat (Maya)</p>",
  });
  await screenshot(lenaPage, "co-editing-conflict");
  expect(await axeViolationsInBothThemes(lenaPage)).toEqual([]);

  // Saving before choosing says what is missing.
  await lenaEditor.getByRole("button", { name: "Save", exact: true }).click();
  await lenaEditor.getByRole("alert").filter({ hasText: "Choose which version of Back to keep" }).waitFor();
  await conflict.getByRole("button", { name: "Keep mine for Back" }).click();
  expect(await field(lenaEditor, "Back").textContent()).toBe("cat (Lena)");
  await lenaEditor.getByRole("button", { name: "Save", exact: true }).click();
  await lenaEditor.waitFor({ state: "hidden" });
  expect((await storedNote(lena, deckId, "Katze")).fields).toEqual({
    front: "<p>Katze!</p>",
    back: "<p>cat (Lena)</p>",
  });

  // Take theirs, after starting to edit the field from mine.
  lenaEditor = await openEditor(lenaPage, "Maus");
  mayaEditor = await openEditor(mayaPage, "Maus");
  await typeAtEnd(mayaPage, mayaEditor, "Front", " (f.)");
  await mayaEditor.getByRole("button", { name: "Save", exact: true }).click();
  await mayaEditor.waitFor({ state: "hidden" });
  await typeAtEnd(lenaPage, lenaEditor, "Front", ", die");
  await lenaEditor.getByRole("button", { name: "Save", exact: true }).click();
  const frontConflict = lenaEditor.getByRole("region", { name: "Front: you and Maya both changed it" });
  await frontConflict.getByRole("button", { name: "Edit Front" }).click();
  expect(await field(lenaEditor, "Front").textContent()).toBe("Maus, die");
  await frontConflict.getByRole("button", { name: "Take theirs for Front" }).click();
  await frontConflict.waitFor({ state: "hidden" });
  expect(await field(lenaEditor, "Front").textContent()).toBe("Maus (f.)");
  await lenaEditor.getByRole("button", { name: "Save", exact: true }).click();
  await lenaEditor.waitFor({ state: "hidden" });
  expect((await storedNote(lena, deckId, "Maus")).fields).toEqual({ front: "<p>Maus (f.)</p>", back: "<p>mouse</p>" });
});
