/** Roles as people read them, and what each one lets a member do (docs/product.md §6). */
import type { DeckRole } from "@engram/sdk";

export const roleLabels: Record<DeckRole, string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };

export const roleAllows: Record<DeckRole, string> = {
  owner: "Changes everything, including members and invite links",
  editor: "Adds, edits and deletes notes, and studies the deck",
  viewer: "Studies the deck and reads its notes",
};
