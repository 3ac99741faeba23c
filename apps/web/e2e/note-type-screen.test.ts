/**
 * The note-type screen as Anki's Fields, Cards and Manage Note Types dialogs:
 * a field of a type in use renamed with its notes' text kept, a card template
 * added (a card for every note) and removed again after asking, and a new
 * note type made from Basic and used for a note.
 */
import { renderCard } from "@engram/core";
import type { Engram } from "@engram/sdk";
import type { Locator, Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
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

const vocabulary = {
  name: "Vocabulary",
  kind: "standard" as const,
  fields: ["Word", "Meaning"],
  templates: [
    { name: "Recognise", front: "<p>Recognise: {{Word}}</p>", back: "{{FrontSide}}<hr id=answer>{{Meaning}}" },
    { name: "Recall", front: "<p>Recall: {{Meaning}}</p>", back: "{{FrontSide}}<hr id=answer>{{Word}}" },
  ],
  css: ".card { text-align: center; }",
};
const words = [
  { Word: "chien", Meaning: "dog" },
  { Word: "chat", Meaning: "cat" },
];

beforeEach(async () => {
  page = await openPage(browser());
  owner = await newAccount("type-screen");
  engram = await engramFor(owner);
  deckId = (await engram.decks.create({ name: "French" })).id;
  noteTypeId = (await engram.noteTypes.create(deckId, vocabulary)).id;
  noteIds = [];
  for (const fields of words) {
    noteIds.push((await engram.notes.create(deckId, { kind: "custom", noteTypeId, fields })).id);
  }
});

async function openType(name: string): Promise<Locator> {
  await signInWithPassword(page, owner, `/decks/${deckId}/settings`);
  const item = page.getByRole("list", { name: "Note types" }).getByRole("listitem").filter({ hasText: name });
  await item.getByRole("button", { name: `Edit ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Edit note type: ${name}` });
  await dialog.getByLabel("Styling (CSS)").waitFor();
  return dialog;
}

const ordinals = async () =>
  ((await adminClient().from("cards").select("note_id, ordinal").in("note_id", noteIds).order("ordinal")).data ?? [])
    .filter((card) => card.note_id === noteIds[0])
    .map((card) => card.ordinal);

test("a field of a type in use is renamed: its notes keep their text and its cards still show it", async () => {
  const dialog = await openType("Vocabulary");
  const first = dialog.getByLabel("Field 1", { exact: true });
  await first.fill("Term");
  // Leaving the field takes its new name into the templates, as Anki does.
  await dialog.getByLabel("Field 2", { exact: true }).focus();
  await dialog.getByLabel("Recognise front template").getByText("Recognise: {{Term}}").waitFor();
  await dialog.getByRole("button", { name: "Save note type" }).click();
  await dialog.getByRole("status").filter({ hasText: "version 2" }).waitFor();

  const saved = await engram.noteTypes.get(noteTypeId);
  expect(saved.fields).toEqual(["Term", "Meaning"]);
  expect(saved.templates[0]?.front).toBe("<p>Recognise: {{Term}}</p>");
  expect(saved.templates[1]?.back).toBe("{{FrontSide}}<hr id=answer>{{Term}}");
  const note = await engram.notes.get(noteIds[0] ?? "");
  expect(note.fields).toEqual({ Term: "chien", Meaning: "dog" });
  // The preview draws the type's newest note under the new name.
  await dialog.getByRole("figure", { name: "Front" }).getByText("Recognise: chat").first().waitFor();
  // And its card, as studied, still shows the word.
  const [card] = await engram.study.queue({ deckId });
  expect(card && renderCard(card.note, card.ordinal).back).toMatch(/chien|chat/);
});

test("a template added makes a card for every note; removed, its cards go after asking", async () => {
  const dialog = await openType("Vocabulary");
  await dialog.getByRole("button", { name: "Copy card template Recall into a new one" }).click();
  await dialog.getByRole("group", { name: "Card 3: Card 3" }).waitFor();
  await dialog.getByRole("button", { name: "Save note type" }).click();
  await dialog.getByRole("status").filter({ hasText: "version 2" }).waitFor();
  expect(await ordinals()).toEqual([1, 2, 3]);
  await screenshot(page, "note-type-screen-templates");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // Card 2 removed: its cards go only once the count is confirmed; card 3's move up to its place.
  const [, , third] =
    (
      await adminClient()
        .from("cards")
        .select("id, ordinal")
        .eq("note_id", noteIds[0] ?? "")
        .order("ordinal")
    ).data ?? [];
  await dialog.getByRole("button", { name: "Remove card template Recall" }).click();
  await dialog.getByRole("button", { name: "Save note type" }).click();
  await dialog.getByText(/^2 cards would no longer be made by these templates/).waitFor();
  expect(await ordinals()).toEqual([1, 2, 3]);
  await dialog.getByRole("button", { name: "Save and delete 2 cards" }).click();
  await dialog.getByRole("status").filter({ hasText: "version 3" }).waitFor();
  expect(await ordinals()).toEqual([1, 2]);
  const [, second] =
    (
      await adminClient()
        .from("cards")
        .select("id, ordinal")
        .eq("note_id", noteIds[0] ?? "")
        .order("ordinal")
    ).data ?? [];
  expect(second?.id).toBe(third?.id);
  expect((await engram.noteTypes.get(noteTypeId)).templates.map((template) => template.name)).toEqual([
    "Recognise",
    "Card 3",
  ]);
});

test("a new note type from Basic is added to the deck and used for a note; an unused one is deleted", async () => {
  await signInWithPassword(page, owner, `/decks/${deckId}/settings`);
  await page.getByRole("button", { name: "New note type" }).click();
  const create = page.getByRole("dialog", { name: "New note type" });
  await create.getByLabel("Start from").selectOption({ label: "Basic" });
  await create.getByLabel("Name", { exact: true }).fill("Phrases");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
  await create.getByRole("button", { name: "Add note type" }).click();
  const editor = page.getByRole("dialog", { name: "Edit note type: Phrases" });
  await editor.getByLabel("Styling (CSS)").waitFor();
  const phrases = (await engram.noteTypes.list(deckId)).find((type) => type.name === "Phrases");
  expect(phrases).toMatchObject({ fields: ["Front", "Back"], kind: "standard" });
  await editor.getByRole("button", { name: "Cancel" }).click();

  // A copy of it, unused, is deleted after asking.
  await page.getByRole("button", { name: "New note type" }).click();
  await create.getByLabel("Start from").selectOption({ label: "Copy of Phrases" });
  await create.getByLabel("Name", { exact: true }).fill("Phrases 2");
  await create.getByRole("button", { name: "Add note type" }).click();
  const copy = page.getByRole("dialog", { name: "Edit note type: Phrases 2" });
  await copy.getByRole("button", { name: "Delete note type" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Phrases 2?" });
  await confirm.getByRole("button", { name: "Delete note type" }).click();
  await copy.waitFor({ state: "detached" });
  expect((await engram.noteTypes.list(deckId)).map((type) => type.name)).toEqual(["Phrases", "Vocabulary"]);

  // The deck's notes may now use it.
  await page.goto(new URL(`/decks/${deckId}`, page.url()).href);
  await page.getByRole("button", { name: "Add note" }).click();
  const add = page.getByRole("dialog", { name: "Add note" });
  await add.getByRole("radio", { name: "Phrases" }).check();
  await add.getByRole("textbox", { name: "Front", exact: true }).click();
  await page.keyboard.type("Bonjour");
  await add.getByRole("textbox", { name: "Back", exact: true }).click();
  await page.keyboard.type("Hello");
  await page.keyboard.press("Control+Enter");
  await add.getByRole("status").filter({ hasText: "Note added" }).waitFor();
  const { notes } = await engram.notes.list(deckId, { noteTypeId: phrases?.id ?? "" });
  expect(notes.map((note) => note.fields)).toEqual([{ Front: "<p>Bonjour</p>", Back: "<p>Hello</p>" }]);
});
