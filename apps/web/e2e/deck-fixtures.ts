/** Members, names and the note list of the deck screen's browser tests. */
import type { Page } from "playwright-core";
import { adminClient } from "./support/accounts.js";

export async function addMember(deckId: string, userId: string, role: "editor" | "viewer") {
  const { error } = await adminClient().from("deck_members").insert({ deck_id: deckId, user_id: userId, role });
  if (error) throw error;
}

export async function setDisplayName(userId: string, name: string) {
  const { error } = await adminClient().from("profiles").update({ display_name: name }).eq("id", userId);
  if (error) throw error;
}

export const noteList = (page: Page) => page.getByRole("table", { name: "Notes" });
/** A note's row group: its row and, when open, its fields and cards. */
export const noteRow = (page: Page, text: string) =>
  noteList(page)
    .locator("tbody.note-row")
    .filter({ has: page.getByRole("button", { name: text, exact: true }) });
/** The first fields of the rows in the DOM, top to bottom. */
export async function visibleFronts(page: Page): Promise<string[]> {
  await noteList(page).waitFor();
  const items = await noteList(page).locator(".note-text").allTextContents();
  return items;
}
