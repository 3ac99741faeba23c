/** Decks full of notes for the browser tests, written with the admin client in bulk. */
import { adminClient } from "./accounts.js";

export interface NoteSeed {
  kind?: "basic" | "basic_reversed" | "cloze" | "type_in";
  front?: string;
  back?: string;
  text?: string;
  extra?: string;
  tags?: string[];
}

/** A deck owned by `ownerId` holding `notes`, the first one the oldest (created a minute apart, so new cards come in that order). */
export async function seedDeck(ownerId: string, name: string, notes: NoteSeed[]): Promise<string> {
  const admin = adminClient();
  const { data: deck, error } = await admin.from("decks").insert({ owner_id: ownerId, name }).select("id").single();
  if (error || !deck) throw error ?? new Error("no deck");
  const start = Date.now() - notes.length * 60_000;
  const rows = notes.map((note, index) => ({
    deck_id: deck.id,
    kind: note.kind ?? "basic",
    fields:
      note.kind === "cloze"
        ? { text: note.text ?? "", extra: note.extra ?? "" }
        : { front: note.front ?? "", back: note.back ?? "" },
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

/** `count` basic notes: "Question 1" / "Answer 1", … */
export const basicNotes = (count: number, prefix = "Question"): NoteSeed[] =>
  Array.from({ length: count }, (_, i) => ({ front: `${prefix} ${i + 1}`, back: `Answer ${i + 1}` }));
