import type { PublicDeck } from "@engram/sdk";

const count = new Intl.NumberFormat();
const plural = (n: number, one: string, many: string) => `${count.format(n)} ${n === 1 ? one : many}`;

/** Who made a public deck, how big it is and how many people took a copy. */
export function DeckFacts({ deck }: { deck: PublicDeck }) {
  return (
    <p className="deck-facts">
      <span>by {deck.owner_name?.trim() || "an Engram user"}</span>
      <span>{plural(deck.note_count, "note", "notes")}</span>
      <span>{deck.clone_count === 0 ? "Not copied yet" : `Copied ${plural(deck.clone_count, "time", "times")}`}</span>
    </p>
  );
}
