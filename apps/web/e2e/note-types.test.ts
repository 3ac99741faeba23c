/**
 * Note types in the web app: a custom note edited field by field with a
 * preview per template, the browser's type name, fields and filter, and the
 * note-types screen in deck settings for editors and viewers.
 */
import type { Engram } from "@engram/sdk";
import type { Locator, Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { addMember, noteList, noteRow } from "./deck-fixtures.js";
import { engramFor } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();
let page: Page;
let owner: Account;
let engram: Engram;
let deckId: string;
let noteTypeId: string;
let noteIds: string[];

const fields = ["Word", "Meaning", "Example", "Gender", "Source"];
const vocabulary = {
  name: "Vocabulary",
  kind: "standard" as const,
  fields,
  templates: [
    { name: "Recognise", front: "<p>Recognise: {{Word}}</p>", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" },
    { name: "Recall", front: "<p>Recall: {{Meaning}}</p>", back: "{{FrontSide}}<hr id=answer>{{Word}} ({{Gender}})" },
  ],
  css: ".card { font-family: serif; text-align: center; }",
};
const words = [
  { Word: "chien", Meaning: "dog", Example: "Le chien dort.", Gender: "masculine", Source: "Book 1" },
  { Word: "maison", Meaning: "house", Example: "La maison est grande.", Gender: "feminine", Source: "Book 1" },
  { Word: "livre", Meaning: "book", Example: "Un livre rouge.", Gender: "masculine", Source: "Book 2" },
];

beforeEach(async () => {
  page = await openPage(browser());
  owner = await newAccount("types");
  engram = await engramFor(owner);
  deckId = (await engram.decks.create({ name: "French" })).id;
  noteTypeId = (await engram.noteTypes.create(deckId, vocabulary)).id;
  noteIds = [];
  for (const values of words) {
    const note = await engram.notes.create(deckId, { kind: "custom", noteTypeId, fields: values, tags: ["fr"] });
    noteIds.push(note.id);
  }
  await engram.notes.create(deckId, { kind: "basic", fields: { front: "Capital of France", back: "Paris" } });
});

const field = (scope: Locator, label: string) => scope.getByRole("textbox", { name: label, exact: true });

async function openNote(word: string): Promise<Locator> {
  await noteRow(page, word).getByRole("button", { name: word, exact: true }).click();
  await noteRow(page, word).getByRole("button", { name: "Edit" }).click();
  const editor = page.getByRole("dialog", { name: "Edit note" });
  await field(editor, "Word").waitFor();
  return editor;
}

test("a custom note is edited field by field, with a preview of each card its templates make", async () => {
  await signInWithPassword(page, owner, `/decks/${deckId}`);
  const editor = await openNote("chien");

  // One labelled editor per field, in the note type's order.
  for (const name of fields) await field(editor, name).waitFor();
  const labels = await editor
    .locator("[role=textbox][aria-multiline=true]")
    .evaluateAll((boxes) =>
      boxes.map((box) => document.getElementById(box.getAttribute("aria-labelledby") ?? "")?.textContent),
    );
  expect(labels).toEqual(fields);
  expect(await editor.getByText("Note type: Vocabulary").count()).toBe(1);

  // Both templates make a card, each named as its template and drawn from it.
  const preview = editor.getByRole("region", { name: /Preview/ });
  const recognise = preview.getByRole("listitem", { name: "Recognise" });
  const recall = preview.getByRole("listitem", { name: "Recall" });
  await recognise.getByRole("figure", { name: "Front" }).getByText("Recognise: chien").waitFor();
  await recall.getByRole("figure", { name: "Front" }).getByText("Recall: dog").waitFor();
  await recall.getByRole("figure", { name: "Back" }).getByText("chien (masculine)").waitFor();
  expect(await preview.getByRole("listitem").count()).toBe(2);
  await screenshot(page, "note-types-editor");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // Field 3 changed, saved with the version the note was loaded at.
  const before = await engram.notes.get(noteIds[0] ?? "");
  await field(editor, "Example").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("Le chien aboie.");
  await page.keyboard.press("Control+Enter");
  await editor.waitFor({ state: "detached" });
  const after = await engram.notes.get(noteIds[0] ?? "");
  expect(after.fields).toEqual({ ...words[0], Example: "<p>Le chien aboie.</p>" });
  expect(after.version).toBe(before.version + 1);
  expect(after.note_type_id).toBe(noteTypeId);
});

test("adding offers the deck's note types beside the built-in kinds", async () => {
  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await page.getByRole("button", { name: "Add note" }).click();
  const editor = page.getByRole("dialog", { name: "Add note" });
  await editor.getByRole("radio", { name: "Vocabulary" }).check();
  await field(editor, "Word").click();
  await page.keyboard.type("chat");
  await field(editor, "Meaning").click();
  await page.keyboard.type("cat");
  await editor
    .getByRole("region", { name: /Preview/ })
    .getByRole("listitem", { name: "Recall" })
    .getByRole("figure", { name: "Front" })
    .getByText("Recall: cat")
    .waitFor();
  await page.keyboard.press("Control+Enter");
  await editor.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  const { notes } = await engram.notes.list(deckId, { noteTypeId });
  const added = notes.find((note) => (note.fields as Record<string, string>).Word === "<p>chat</p>");
  expect(added?.fields).toEqual({ Word: "<p>chat</p>", Meaning: "<p>cat</p>", Example: "", Gender: "", Source: "" });
});

test("the browser names each custom note's type, shows its first field, lists its fields and filters by type", async () => {
  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await noteRow(page, "chien").waitFor();
  expect(await noteRow(page, "chien").locator(".kind-badge").textContent()).toBe("Vocabulary");
  expect(await noteRow(page, "Capital of France").locator(".kind-badge").textContent()).toBe("Basic");

  // Opened, the note lists every field under its name, and its cards by template.
  await noteRow(page, "maison").getByRole("button", { name: "maison", exact: true }).click();
  const opened = noteRow(page, "maison");
  const terms = await opened.getByRole("term").allTextContents();
  expect(terms).toEqual(fields);
  expect(await opened.getByRole("definition").allTextContents()).toEqual(Object.values(words[1] ?? {}));
  await opened.getByRole("rowheader", { name: "Recognise" }).waitFor();
  await opened.getByRole("rowheader", { name: "Recall" }).waitFor();

  // The note type filter narrows the list to its notes, and the URL keeps it.
  await page.getByLabel("Note type").selectOption({ label: "Vocabulary" });
  await expect.poll(() => noteList(page).locator(".note-text").allTextContents()).toHaveLength(3);
  expect(new URL(page.url()).searchParams.get("type")).toBe(noteTypeId);
  await page.reload();
  await expect.poll(() => noteList(page).locator(".note-text").allTextContents()).toHaveLength(3);
  expect(await page.getByText("Capital of France").count()).toBe(0);
  await screenshot(page, "note-types-browser");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});

async function openSettingsType(who: Account, action: "Edit" | "View"): Promise<Locator> {
  await signInWithPassword(page, who, `/decks/${deckId}/settings`);
  const list = page.getByRole("list", { name: "Note types" });
  const item = list.getByRole("listitem").filter({ hasText: "Vocabulary" });
  expect(await item.textContent()).toContain("5 fields");
  expect(await item.textContent()).toContain("2 card templates");
  await item.getByRole("button", { name: `${action} Vocabulary` }).click();
  return page.getByRole("dialog", { name: action === "Edit" ? "Edit note type: Vocabulary" : "Note type: Vocabulary" });
}

test("the note types screen changes a type's CSS, shown at once in the preview, saved with its version", async () => {
  const dialog = await openSettingsType(owner, "Edit");
  const css = dialog.getByLabel("Styling (CSS)");
  await css.waitFor();
  // Three notes use the type: its fields may still be renamed, and the screen says they keep their text.
  await dialog.getByText(/^3 notes use this type: a renamed or moved field keeps its text/).waitFor();
  expect(await dialog.getByLabel("Field 1", { exact: true }).getAttribute("readonly")).toBeNull();

  // The type's newest note is the one previewed.
  const front = dialog.getByRole("figure", { name: "Front" });
  await front.getByText("Recognise: livre").waitFor();
  const alignment = () =>
    front.getByText("Recognise: livre").evaluate((element) => getComputedStyle(element).textAlign);
  expect(await alignment()).toBe("center");
  await css.fill(".card { text-align: left }");
  await expect.poll(alignment).toBe("left");
  await screenshot(page, "note-types-settings");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  const stored = await engram.noteTypes.get(noteTypeId);
  await dialog.getByRole("button", { name: "Save note type" }).click();
  await dialog
    .getByRole("status")
    .filter({ hasText: `version ${stored.version + 1}` })
    .waitFor();
  const saved = await engram.noteTypes.get(noteTypeId);
  expect(saved.css).toBe(".card { text-align: left }");
  expect(saved.fields).toEqual(fields);
  expect(saved.templates).toEqual(vocabulary.templates);
});

test("a template that breaks Anki's rules is refused beside it, and nothing is saved", async () => {
  const dialog = await openSettingsType(owner, "Edit");
  const recallFront = dialog.getByLabel("Recall front template");
  await recallFront.fill("{{#Word}}{{Meaning}}");
  await dialog.getByRole("button", { name: "Save note type" }).click();
  await dialog.getByText("Close the section with {{/Word}}.").first().waitFor();
  expect(await recallFront.getAttribute("aria-invalid")).toBe("true");
  expect((await engram.noteTypes.get(noteTypeId)).templates).toEqual(vocabulary.templates);
});

test("a change that would delete cards asks first, and so does removing a field that holds text", async () => {
  const dialog = await openSettingsType(owner, "Edit");
  // A new field, empty in every note, shown alone on card 2's front: no note makes that card any more.
  await dialog.getByLabel("New field").fill("Hint");
  await dialog.getByRole("button", { name: "Add field" }).click();
  await dialog.getByLabel("Field 6", { exact: true }).waitFor();
  await dialog.getByLabel("Recall front template").fill("{{Hint}}");
  await dialog.getByRole("button", { name: "Save note type" }).click();
  await dialog.getByText(/^3 cards would no longer be made by these templates/).waitFor();
  expect((await engram.noteTypes.get(noteTypeId)).version).toBe(1);
  await dialog.getByRole("button", { name: "Save and delete 3 cards" }).click();
  await dialog.getByRole("status").filter({ hasText: "version 2" }).waitFor();
  expect((await engram.noteTypes.get(noteTypeId)).fields).toEqual([...fields, "Hint"]);
  const cards = await adminClient().from("cards").select("ordinal").in("note_id", noteIds);
  expect(cards.data?.map((card) => card.ordinal)).toEqual([1, 1, 1]);
  expect((await engram.notes.get(noteIds[0] ?? "")).fields).toEqual({ ...words[0], Hint: "" });

  // Every note holds text in Source: removing it asks first, and nothing changes until asked.
  await dialog.getByRole("button", { name: "Remove Source" }).click();
  await dialog.getByRole("button", { name: "Save note type" }).click();
  await dialog.getByText("3 notes lose the text of its Source field, which this change removes.").waitFor();
  expect((await engram.noteTypes.get(noteTypeId)).fields).toEqual([...fields, "Hint"]);
  await dialog.getByRole("button", { name: "Save and discard the text of Source" }).click();
  await dialog.getByRole("status").filter({ hasText: "version 3" }).waitFor();
  expect((await engram.notes.get(noteIds[0] ?? "")).fields).not.toHaveProperty("Source");
});

test("a viewer reads the note types screen without changing anything", async () => {
  const viewer = await newAccount("viewer");
  await addMember(deckId, viewer.id, "viewer");
  const dialog = await openSettingsType(viewer, "View");
  await dialog.getByText("Only the deck's owner and editors change note types.").waitFor();
  expect(await dialog.getByLabel("Styling (CSS)").getAttribute("readonly")).not.toBeNull();
  expect(await dialog.getByLabel("Name", { exact: true }).getAttribute("readonly")).not.toBeNull();
  expect(await dialog.getByRole("button", { name: "Save note type" }).count()).toBe(0);
  expect(await dialog.getByRole("button", { name: /^Add field|^Remove / }).count()).toBe(0);
  await dialog.getByRole("figure", { name: "Front" }).getByText("Recognise: livre").waitFor();
  await screenshot(page, "note-types-viewer");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});
