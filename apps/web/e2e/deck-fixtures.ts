/** Members, names and the note list of the deck screen's browser tests. */
import type { Browser, Page } from "playwright-core";
import { type Account, adminClient, newAccount } from "./support/accounts.js";
import { openPage } from "./support/browser.js";
import { type NoteSeed, seedDeck } from "./support/decks.js";
import { signInWithPassword } from "./support/screens.js";

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

/**
 * A deck its owner shares with one member, each signed in with their display
 * name in a browser context of their own, both on the deck's note list.
 */
export async function deckOpenedByTwo(
  browser: Browser,
  options: { owner: string; member: string; role: "editor" | "viewer"; deck: string; notes: NoteSeed[] },
): Promise<{ owner: Account; member: Account; deckId: string; ownerPage: Page; memberPage: Page }> {
  const owner = await newAccount(options.owner.toLowerCase());
  const member = await newAccount(options.member.toLowerCase());
  await setDisplayName(owner.id, options.owner);
  await setDisplayName(member.id, options.member);
  const deckId = await seedDeck(owner.id, options.deck, options.notes);
  await addMember(deckId, member.id, options.role);
  const ownerPage = await openPage(browser);
  const memberPage = await openPage(browser);
  await signInWithPassword(ownerPage, owner, `/decks/${deckId}`);
  await signInWithPassword(memberPage, member, `/decks/${deckId}`);
  await noteList(ownerPage).waitFor();
  await noteList(memberPage).waitFor();
  return { owner, member, deckId, ownerPage, memberPage };
}
