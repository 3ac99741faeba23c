import { renderCard } from "@engram/core";
import type { StudyCard } from "@engram/sdk";

/** A card's question as short plain text, to name the card in a message; null when it cannot be had. */
export function questionText(card: StudyCard | undefined): string | null {
  if (!card) return null;
  try {
    const html = renderCard(card.note, card.ordinal).front;
    const text = new DOMParser().parseFromString(html, "text/html").body.textContent?.trim() ?? "";
    return text.length > 60 ? `${text.slice(0, 57)}…` : text || null;
  } catch {
    return null;
  }
}
