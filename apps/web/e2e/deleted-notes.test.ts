import type { Page } from "playwright-core";
import { beforeEach, expect, test } from "vitest";
import { addMember, noteList, noteRow, setDisplayName } from "./deck-fixtures.js";
import { engramFor } from "./study-fixtures.js";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { axeViolationsInBothThemes } from "./support/axe.js";
import { browserPerFile, openPage, screenshot } from "./support/browser.js";
import { seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

// Recently deleted (docs/product.md §3): a deleted note comes back with its
// cards and each member's schedule, due as it was.

const browser = browserPerFile();
let page: Page;
let owner: Account;

beforeEach(async () => {
  page = await openPage(browser());
  owner = await newAccount("deleted");
  await setDisplayName(owner.id, "Olga Owner");
});

const deckWith = (name: string) =>
  seedDeck(owner.id, name, [
    { front: "Capital of Peru?", back: "Lima" },
    { front: "Capital of Chile?", back: "Santiago" },
  ]);

async function cardOf(deckId: string, front: string) {
  const { data, error } = await adminClient()
    .from("cards")
    .select("id, notes!inner(fields)")
    .eq("deck_id", deckId)
    .eq("notes.fields->>front", front)
    .single();
  if (error) throw error;
  return data.id;
}

/** The owner's card as studied a few times: a review due in 12 days. */
async function studied(cardId: string) {
  const due = new Date(Date.now() + 12 * 86_400_000);
  const { error } = await adminClient()
    .from("card_states")
    .update({
      state: "review",
      due: due.toISOString(),
      stability: 11.2,
      difficulty: 4.8,
      scheduled_days: 12,
      reps: 3,
      last_review: new Date().toISOString(),
    })
    .eq("card_id", cardId)
    .eq("user_id", owner.id);
  if (error) throw error;
}

/** The row of the opened note's only card, as the browser shows it (state, due, interval). */
async function scheduleShown(front: string): Promise<string> {
  await noteRow(page, front).getByRole("button", { name: front }).click();
  const row = page.getByRole("table", { name: "Cards of this note" }).getByRole("row").nth(1);
  await row.getByText("Review").waitFor();
  return (await row.textContent()) ?? "";
}

test("a deleted note is restored from Recently deleted with its schedule as before", async () => {
  const deckId = await deckWith("Capitals");
  await studied(await cardOf(deckId, "Capital of Peru?"));
  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await noteList(page).waitFor();
  const before = await scheduleShown("Capital of Peru?");
  expect(before).toContain("12 days");

  await noteRow(page, "Capital of Peru?").getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete “Capital of Peru?”?" });
  expect(await dialog.textContent()).toContain("Recently deleted for 30");
  await dialog.getByRole("button", { name: "Delete note" }).click();
  await page.getByRole("status").filter({ hasText: "Deleted “Capital of Peru?”." }).waitFor();

  await page.getByRole("link", { name: "Recently deleted" }).click();
  await page.getByRole("heading", { level: 1, name: "Recently deleted in Capitals" }).waitFor();
  const entry = page.getByRole("listitem").filter({ hasText: "Capital of Peru?" });
  await entry.waitFor();
  expect(await entry.textContent()).toMatch(/Basic.*1 card.*Deleted by Olga Owner.*30 days left/);
  await screenshot(page, "deleted-notes");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);

  await entry.getByRole("button", { name: "Restore “Capital of Peru?”" }).click();
  await page.getByRole("status").filter({ hasText: "Restored 1 note." }).waitFor();
  await page.getByText("No notes were deleted in the last 30 days.").waitFor();

  await page.getByRole("link", { name: "Back to Capitals" }).click();
  await noteList(page).waitFor();
  expect(await scheduleShown("Capital of Peru?")).toBe(before);
});

test("a viewer sees what was deleted, without a way to restore it", async () => {
  const deckId = await deckWith("Shared capitals");
  const viewer = await newAccount("viewer");
  await addMember(deckId, viewer.id, "viewer");
  const engram = await engramFor(owner);
  const { notes } = await engram.notes.list(deckId);
  await engram.notes.remove(notes.map((note) => ({ id: note.id, version: note.version })));

  await signInWithPassword(page, viewer, `/decks/${deckId}/deleted`);
  const list = page.getByRole("list", { name: "Deleted notes, newest first" });
  await list.getByRole("listitem").nth(1).waitFor();
  expect(await list.getByRole("listitem").count()).toBe(2);
  expect(await page.getByRole("button", { name: /Restore/ }).count()).toBe(0);
  expect(await page.getByRole("checkbox").count()).toBe(0);
  expect(await page.locator(".deleted-notes-intro").textContent()).toContain("owner and editors can restore them");
  expect(await axeViolationsInBothThemes(page)).toEqual([]);
});

test("Undo after deleting notes in the browser brings them back", async () => {
  const deckId = await deckWith("Undo capitals");
  await signInWithPassword(page, owner, `/decks/${deckId}`);
  await noteList(page).waitFor();
  await page.getByRole("checkbox", { name: "Select Capital of Peru?" }).click();
  await page.getByRole("checkbox", { name: "Select Capital of Chile?" }).click();
  const bar = page.getByRole("region", { name: "Selected notes" });
  await bar.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("dialog", { name: "Delete 2 notes?" }).getByRole("button", { name: "Delete notes" }).click();
  await page.getByRole("status").filter({ hasText: "Deleted 2 notes." }).waitFor();
  await page.getByText("No notes yet.", { exact: false }).waitFor();

  await page.getByRole("button", { name: "Undo" }).click();
  await page.getByRole("status").filter({ hasText: "Restored 2 notes." }).waitFor();
  await noteRow(page, "Capital of Peru?").waitFor();
  await noteRow(page, "Capital of Chile?").waitFor();
  expect(await page.getByRole("button", { name: "Undo" }).count()).toBe(0);
});
