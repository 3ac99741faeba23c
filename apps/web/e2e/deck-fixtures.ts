/** Decks full of notes for the deck screen's browser tests, written with the admin client in bulk. */
import type { Page } from "playwright-core";
import { adminClient } from "./support/accounts.js";

export interface NoteSeed {
  kind?: "basic" | "basic_reversed" | "cloze";
  front?: string;
  back?: string;
  text?: string;
  tags?: string[];
}

/** A deck owned by `ownerId` holding `notes`, the first one the oldest (created a minute apart). */
export async function seedDeck(ownerId: string, name: string, notes: NoteSeed[]): Promise<string> {
  const admin = adminClient();
  const { data: deck, error } = await admin.from("decks").insert({ owner_id: ownerId, name }).select("id").single();
  if (error || !deck) throw error ?? new Error("no deck");
  const start = Date.now() - notes.length * 60_000;
  const rows = notes.map((note, index) => ({
    deck_id: deck.id,
    kind: note.kind ?? "basic",
    fields:
      note.kind === "cloze" ? { text: note.text ?? "", extra: "" } : { front: note.front ?? "", back: note.back ?? "" },
    tags: note.tags ?? [],
    created_by: ownerId,
    created_at: new Date(start + index * 60_000).toISOString(),
  }));
  for (let at = 0; at < rows.length; at += 500) {
    const inserted = await admin.from("notes").insert(rows.slice(at, at + 500));
    if (inserted.error) throw inserted.error;
  }
  return deck.id;
}

export async function addMember(deckId: string, userId: string, role: "editor" | "viewer") {
  const { error } = await adminClient().from("deck_members").insert({ deck_id: deckId, user_id: userId, role });
  if (error) throw error;
}

export async function setDisplayName(userId: string, name: string) {
  const { error } = await adminClient().from("profiles").update({ display_name: name }).eq("id", userId);
  if (error) throw error;
}

export const noteList = (page: Page) => page.getByRole("list", { name: "Notes" });
export const noteRow = (page: Page, text: string) =>
  noteList(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: text, exact: true }) });
/** The first fields of the rows in the DOM, top to bottom. */
export async function visibleFronts(page: Page): Promise<string[]> {
  await noteList(page).waitFor();
  const items = await noteList(page).locator(".note-text").allTextContents();
  return items;
}
