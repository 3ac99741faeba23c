/**
 * A note's history (docs/product.md §3, "Note history"): a member sees who
 * changed a note and how, word by word, and an editor brings an old version
 * back as a new one, which the others' open history shows at once; the deck
 * screen tells a member what others changed since they last studied.
 */
import type { Locator, Page } from "playwright-core";
import { expect, test } from "vitest";
import { addMember, deckOpenedByTwo, noteList, noteRow, setDisplayName } from "./deck-fixtures.js";
import { engramFor } from "./study-fixtures.js";
import { adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

const browser = browserPerFile();

async function openEditor(page: Page, front: string): Promise<Locator> {
  const row = noteRow(page, front);
  const edit = row.getByRole("button", { name: "Edit", exact: true });
  // A row opened before stays open.
  if (!(await edit.isVisible())) await row.getByRole("button", { name: front, exact: true }).click();
  await edit.click();
  const editor = page.getByRole("dialog", { name: "Edit note" });
  await editor.getByRole("textbox", { name: "Back", exact: true }).waitFor();
  return editor;
}

async function openHistory(page: Page, editor: Locator): Promise<Locator> {
  await editor.getByRole("button", { name: "History", exact: true }).click();
  const panel = page.getByRole("dialog", { name: "History" });
  await panel.getByRole("list", { name: "Versions, newest first" }).waitFor();
  return panel;
}

const version = (panel: Locator, number: number) =>
  panel
    .getByRole("listitem")
    .filter({ has: panel.page().getByRole("heading", { name: new RegExp(`^Version ${number}\\b`) }) });

test("an editor's change shows in the history as a word diff with its author, and another editor restores the old version live", async () => {
  const {
    owner: lena,
    deckId,
    ownerPage: lenaPage,
    memberPage: mayaPage,
  } = await deckOpenedByTwo(browser(), {
    owner: "Lena",
    member: "Maya",
    role: "editor",
    deck: "German",
    notes: [{ front: "<p>Hund</p>", back: "<p>a dog</p>", tags: ["a1"] }],
  });

  // Lena rewrites Back and swaps the tag.
  const lenaEditor = await openEditor(lenaPage, "Hund");
  await lenaEditor.getByRole("textbox", { name: "Back", exact: true }).fill("the loyal dog");
  await lenaEditor.getByRole("button", { name: "Remove tag a1" }).click();
  await lenaEditor.getByRole("textbox", { name: "Tags", exact: true }).fill("animals ");
  await lenaEditor.getByRole("button", { name: "Save", exact: true }).click();
  await lenaEditor.waitFor({ state: "hidden" });

  // Maya opens the note's history: Lena's version, word by word, and the tags.
  const mayaEditor = await openEditor(mayaPage, "Hund");
  const panel = await openHistory(mayaPage, mayaEditor);
  const edited = version(panel, 2);
  await edited.getByText("Edited by Lena").waitFor();
  expect(await edited.locator("del").allTextContents()).toEqual(["removed: a", "removed: a1"]);
  expect(await edited.locator("ins").allTextContents()).toEqual(["added: the loyal", "added: animals"]);
  expect(await version(panel, 1).getByText("Added", { exact: true }).count()).toBe(1);
  await screenshot(mayaPage, "note-history-panel");
  expect(await axeViolationsInBothThemes(mayaPage)).toEqual([]);

  // Lena keeps the history open while Maya restores the first version.
  const lenaEditorAgain = await openEditor(lenaPage, "Hund");
  const lenaPanel = await openHistory(lenaPage, lenaEditorAgain);
  await version(panel, 1).getByRole("button", { name: "Restore this version" }).click();
  const confirm = mayaPage.getByRole("alertdialog", { name: "Restore version 1?" });
  await confirm.getByRole("button", { name: "Restore", exact: true }).click();
  await panel.getByRole("status").filter({ hasText: "Version 1 restored as version 3." }).waitFor();
  await version(panel, 3).getByText("Restored version 1 by Maya").waitFor();
  await version(lenaPanel, 3).getByText("Restored version 1 by Maya").waitFor();
  expect(await version(panel, 3).locator("ins").allTextContents()).toEqual(["added: a", "added: a1"]);

  const lenaEngram = await engramFor(lena);
  const [listed] = (await lenaEngram.notes.list(deckId)).notes;
  expect(await lenaEngram.notes.get(listed?.id ?? "")).toMatchObject({
    version: 3,
    fields: { front: "<p>Hund</p>", back: "<p>a dog</p>" },
    tags: ["a1"],
  });
});

test("a member is told what others changed since they last studied, and the deck's history page shows it", async () => {
  const ana = await newAccount("ana");
  const li = await newAccount("li");
  const sam = await newAccount("sam");
  await Promise.all([setDisplayName(ana.id, "Ana"), setDisplayName(li.id, "Li"), setDisplayName(sam.id, "Sam")]);
  const deckId = await seedDeck(ana.id, "Capitals", [
    { front: "France", back: "Paris" },
    { front: "Spain", back: "Madrid" },
  ]);
  await addMember(deckId, li.id, "editor");
  await addMember(deckId, sam.id, "viewer");

  // Sam studied the deck once, after it was made.
  const admin = adminClient();
  const { data: card } = await admin.from("cards").select("id").eq("deck_id", deckId).limit(1).single();
  const studied = await admin.from("review_logs").insert({
    user_id: sam.id,
    card_id: card?.id ?? "",
    client_review_id: crypto.randomUUID(),
    rating: 3,
    state: "new",
    due: new Date().toISOString(),
    stability: 2,
    difficulty: 5,
    elapsed_days: 0,
    scheduled_days: 1,
    reviewed_at: new Date().toISOString(),
    duration_ms: 4000,
    previous: {},
  });
  if (studied.error) throw studied.error;

  // Then Ana and Li change it.
  const anaEngram = await engramFor(ana);
  const liEngram = await engramFor(li);
  const { notes } = await anaEngram.notes.list(deckId);
  const spain = notes.find((note) => (note.fields as { front: string }).front === "Spain");
  await anaEngram.notes.update(spain?.id ?? "", spain?.version ?? 0, {
    kind: "basic",
    fields: { front: "Spain", back: "Madrid, on the Manzanares" },
  });
  await liEngram.notes.create(deckId, { kind: "basic", fields: { front: "Italy", back: "Rome" } });

  const page = await openPage(browser());
  await signInWithPassword(page, sam, `/decks/${deckId}`);
  const banner = page.getByRole("complementary", { name: "Changes since you last studied" });
  await banner.getByText("1 note edited, 1 added since you last studied, by Ana and Li").waitFor();
  await screenshot(page, "deck-changes-banner");
  await banner.getByRole("link", { name: "See changes" }).click();

  await page.getByRole("heading", { level: 1, name: "Changes in Capitals" }).waitFor();
  const changes = page.getByRole("list", { name: "Changes, newest first" });
  await changes.getByRole("heading", { name: "Italy" }).waitFor();
  const spainChange = changes.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Spain" }) });
  await spainChange.getByText("Edited by Ana").waitFor();
  expect(await spainChange.locator("ins").allTextContents()).toEqual(["added: , on the Manzanares"]);
  // Only changes since Sam's study: the notes as first made are not listed.
  expect(await changes.getByRole("heading", { name: "France" }).count()).toBe(0);
  await screenshot(page, "deck-history");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  // Dismissed, the banner stays away until something else changes.
  await page.getByRole("link", { name: /Back to Capitals/ }).click();
  await banner.getByRole("button", { name: "Dismiss" }).click();
  await banner.waitFor({ state: "hidden" });
  await page.reload();
  await noteList(page).waitFor();
  expect(await banner.count()).toBe(0);
});
